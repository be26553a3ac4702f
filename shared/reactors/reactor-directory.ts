import { TtlCache } from '../platform/cache/ttl-cache.js';
import type { Orm } from '../platform/db/orm.js';
import type { Reaction } from './reaction.js';
import { ReactorConditions } from './reactor-conditions.js';
import { readsUser } from './reactor-reads.js';
import { Reactor } from './reactor.entity.js';

export interface ActiveReactor {
  id: string;
  name: string;
  conditions: ReactorConditions | null;
  reactions: Reaction[];
  /** Its conditions or PATHs read the member: the worker loads members only for such reactors. */
  readsUser: boolean;
}

/**
 * The active reactors of a tenant's event type, with their conditions compiled, kept for a few
 * seconds: the event worker asks for them for every batch. A changed reactor applies to events
 * registered after the cache lapses, or at once in the process that made the change (`forget`).
 */
export class ReactorDirectory {
  private readonly cache: TtlCache<ActiveReactor[]>;

  constructor(
    private readonly orm: Orm,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  forEventType(tenantId: string, eventType: string): Promise<ActiveReactor[]> {
    return this.cache.getOrLoad(`${tenantId}:${eventType}`, () => this.load(tenantId, eventType));
  }

  private async load(tenantId: string, eventType: string): Promise<ActiveReactor[]> {
    const rows = await this.orm.em
      .fork()
      .find(Reactor, { tenant: tenantId, eventType, isActive: true }, { orderBy: { createdAt: 'ASC' } });
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      conditions: row.conditions ? new ReactorConditions(row.conditions) : null,
      reactions: row.reactions,
      readsUser: readsUser(row.conditions ?? null, row.reactions),
    }));
  }

  /** After one of the tenant's reactors was created, changed (perhaps to another event type) or deleted. */
  forget(tenantId: string): void {
    this.cache.deletePrefix(`${tenantId}:`);
  }
}
