import { PerKeyLimit } from '../platform/async/per-key-limit.js';
import { bigintArray } from '../platform/db/bigint-array.js';
import type { Orm } from '../platform/db/orm.js';
import { TooManyRequestsError } from '../platform/errors/app-errors.js';
import { Event } from './event.entity.js';

/** How often the process asks PostgreSQL about every event it is waiting for, in one query. */
const POLL_INTERVAL_MS = 100;

/** Held waits one tenant may have open in one process; beyond it a wait is refused 429. */
export const MAX_WAITS_PER_TENANT = 200;

/** Ids asked about in one query of a poll. */
const IDS_PER_QUERY = 1000;

interface Wait {
  tenantId: string;
  registered: () => void;
}

/**
 * Waits for accepted events to be registered (GET /v1/events/{id}/reactions?wait=…). Every wait
 * of the process shares one poll: a single query for all the ids waited for, each tenth of a
 * second while any is. A query loop per waiter made 380 held waits cost PostgreSQL about 1,000
 * transactions a second and another tenant's worst latency 26 → 601 ms (issue 17).
 */
export class RegistrationWatch {
  private readonly waits = new Map<number, Set<Wait>>();
  private readonly waitsPerTenant = new PerKeyLimit(MAX_WAITS_PER_TENANT);
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly orm: Orm) {}

  /**
   * The event `id` of `tenantId` once registered, or undefined `ms` after the call. Refused 429
   * when the tenant already holds MAX_WAITS_PER_TENANT waits here.
   */
  async waitFor(tenantId: string, id: number, ms: number): Promise<Event | undefined> {
    if (ms === 0) return this.registered(tenantId, id);
    if (!this.waitsPerTenant.tryEnter(tenantId)) throw new TooManyRequestsError(1, {});
    try {
      const registered = await new Promise<boolean>((resolve) => {
        const timeout = setTimeout(() => settle(false), ms);
        const wait: Wait = { tenantId, registered: () => settle(true) };
        const settle = (found: boolean) => {
          clearTimeout(timeout);
          this.forget(id, wait);
          resolve(found);
        };
        const waiting = this.waits.get(id) ?? new Set();
        waiting.add(wait);
        this.waits.set(id, waiting);
        this.timer ??= this.nextPoll();
      });
      return registered ? await this.registered(tenantId, id) : undefined;
    } finally {
      this.waitsPerTenant.leave(tenantId);
    }
  }

  /** The event as registered now, if it is. */
  registered(tenantId: string, id: number): Promise<Event | undefined> {
    return this.orm.em
      .fork()
      .findOne(Event, { tenant: tenantId, id })
      .then((event) => event ?? undefined);
  }

  /** Stops polling; waits still open end at their deadlines. */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waits.clear();
  }

  /** Unref'd: an open wait keeps the process up by its own deadline, the poll need not. */
  private nextPoll(): NodeJS.Timeout {
    return setTimeout(() => void this.poll(), POLL_INTERVAL_MS).unref();
  }

  private forget(id: number, wait: Wait): void {
    const waiting = this.waits.get(id);
    waiting?.delete(wait);
    if (waiting?.size === 0) this.waits.delete(id);
  }

  private async poll(): Promise<void> {
    try {
      const ids = [...this.waits.keys()];
      for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
        // Which ids are registered, and whose: the waits read their own event once, afterwards.
        const found = await this.orm.em
          .getConnection()
          .execute<{ id: string; tenant_id: string }[]>('select id, tenant_id from event where id = any(?::bigint[])', [
            bigintArray(ids.slice(start, start + IDS_PER_QUERY)),
          ]);
        for (const event of found) {
          for (const wait of [...(this.waits.get(Number(event.id)) ?? [])]) {
            // Ids are unique across tenants, but a tenant is only ever told of its own events.
            if (event.tenant_id === wait.tenantId) wait.registered();
          }
        }
      }
    } catch {
      // PostgreSQL away: the waits go on until it answers or their deadlines pass.
    } finally {
      this.timer = this.waits.size ? this.nextPoll() : undefined;
    }
  }
}
