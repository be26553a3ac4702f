import type { Orm } from '../platform/db/orm.js';

interface Block {
  next: number;
  end: number;
  size: number;
}

/**
 * Event ids (docs/api-conventions.md#ids): positive integers from PostgreSQL's `event_id_seq`,
 * unique across the installation and never reused, even if Redis loses its data. The sequence steps
 * by a block (1,000), and each process hands out its block locally: one round trip per block. The
 * block's size is the sequence's step, read with each block, so a migration that changes the step
 * cannot make a process hand out ids of the next block. The next block is fetched when the current
 * one is half used, so under load no request waits for the round trip. Ids of a block a process
 * never used are skipped, never given twice.
 */
export class EventIdAllocator {
  private current: Block = { next: 0, end: 0, size: 0 };
  private upcoming: Promise<Block> | undefined;

  constructor(private readonly orm: Orm) {}

  async allocate(): Promise<number> {
    while (this.current.next >= this.current.end) {
      const taking = (this.upcoming ??= this.takeBlock());
      const block = await taking;
      // Several callers may have waited on the same block: only the first installs it.
      if (this.upcoming === taking) {
        this.upcoming = undefined;
        this.current = block;
      }
    }
    const id = this.current.next++;
    if (!this.upcoming && this.current.end - this.current.next < this.current.size / 2)
      this.upcoming = this.takeBlock();
    return id;
  }

  /** A failed fetch is forgotten, so the next allocation tries again (and a prefetch nobody awaited yet is not an unhandled rejection). */
  private takeBlock(): Promise<Block> {
    const taking = this.fetchBlock();
    taking.catch(() => {
      if (this.upcoming === taking) this.upcoming = undefined;
    });
    return taking;
  }

  private async fetchBlock(): Promise<Block> {
    const [row] = await this.orm.em
      .fork()
      .getConnection()
      .execute<{ start: string; size: string }[]>(
        "select nextval('event_id_seq') as start, (select increment_by from pg_sequences where schemaname = current_schema() and sequencename = 'event_id_seq') as size",
      );
    const start = Number(row!.start);
    const size = Number(row!.size);
    return { next: start, end: start + size, size };
  }
}
