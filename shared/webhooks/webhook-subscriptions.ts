import { TtlCache } from '../platform/cache/ttl-cache.js';
import type { Orm } from '../platform/db/orm.js';
import { Webhook } from './webhook.entity.js';

/**
 * Each tenant's active webhooks, which the event worker asks for with every batch it registers and
 * dispatches, and admins change rarely. Cached like event types and reactors: this process forgets a tenant's
 * entry when one of its webhooks changes here; other processes follow within the cache's lifetime.
 * A tenant with none is cached too, as most tenants have none.
 */
export class WebhookSubscriptions {
  private readonly cache: TtlCache<Webhook[]>;

  constructor(
    private readonly orm: Orm,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  forTenant(tenantId: string): Promise<Webhook[]> {
    return this.cache.getOrLoad(tenantId, () => this.orm.em.fork().find(Webhook, { tenant: tenantId, isActive: true }));
  }

  /** Whether an active webhook of the tenant takes events of this type: the event has asynchronous reactions. */
  async anyFor(tenantId: string, eventTypeName: string): Promise<boolean> {
    return (await this.forTenant(tenantId)).some((webhook) => takesEventType(webhook, eventTypeName));
  }

  /** After one of the tenant's webhooks was created, changed or deleted. */
  forget(tenantId: string): void {
    this.cache.delete(tenantId);
  }
}

/** A webhook with no event types listed takes every type. */
export function takesEventType(webhook: Pick<Webhook, 'eventTypes'>, eventTypeName: string): boolean {
  return webhook.eventTypes.length === 0 || webhook.eventTypes.includes(eventTypeName);
}
