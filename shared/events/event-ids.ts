import type { Orm } from '../db/orm.js';

/** Must equal the sequence's INCREMENT BY (migration Migration20261123015715). */
export const EVENT_ID_BLOCK = 100;

/**
 * Event ids (decisions.md §3): positive integers from PostgreSQL's `event_id_seq`, unique across
 * the installation and never reused, even if Redis loses its data. The sequence steps by a block
 * of 100, and each process hands out its block locally: one round trip per hundred events. Ids of
 * a block a process never used are skipped, never given twice.
 */
export class EventIdAllocator {
  private next = 0;
  private end = 0;
  private refill: Promise<void> | undefined;

  constructor(private readonly orm: Orm) {}

  async allocate(): Promise<number> {
    while (this.next >= this.end) {
      this.refill ??= this.takeBlock().finally(() => (this.refill = undefined));
      await this.refill;
    }
    return this.next++;
  }

  private async takeBlock(): Promise<void> {
    const [row] = await this.orm.em.fork().getConnection().execute<{ start: string }[]>("select nextval('event_id_seq') as start");
    const start = Number(row!.start);
    this.next = start;
    this.end = start + EVENT_ID_BLOCK;
  }
}
