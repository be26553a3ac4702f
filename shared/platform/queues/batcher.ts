/**
 * Gathers items that arrive close together into one batch for one round of work (one PostgreSQL
 * transaction for many jobs, one Redis pipeline for many queue adds), and settles each item's
 * promise with its own result from the batch. A batch is flushed when it reaches `maxSize`, or
 * `maxWaitMs` after its first item (0: once the current turn of the event loop is done, so
 * requests handled together are written together, with no added wait). When a batch fails, its
 * items are retried one by one, so one bad item fails alone and the rest go through: `work` must
 * be safe to repeat for an item.
 */
export class Batcher<T, R = void> {
  private pending: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  private scheduled: (() => void) | undefined;

  constructor(
    /** Returns one result per item, in order (nothing, for a batch of void work). */
    private readonly work: (items: T[]) => Promise<R[] | void>,
    private readonly maxSize: number,
    private readonly maxWaitMs: number,
  ) {}

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxSize) this.flush();
      else this.scheduled ??= this.schedule();
    });
  }

  private schedule(): () => void {
    if (this.maxWaitMs === 0) {
      const immediate = setImmediate(() => this.flush());
      return () => clearImmediate(immediate);
    }
    const timer = setTimeout(() => this.flush(), this.maxWaitMs);
    return () => clearTimeout(timer);
  }

  private flush(): void {
    this.scheduled?.();
    this.scheduled = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.work(batch.map((entry) => entry.item)).then(
      (results) => batch.forEach((entry, index) => entry.resolve(results?.[index] as R)),
      async (error: unknown) => {
        if (batch.length === 1) return batch[0]!.reject(error);
        for (const entry of batch) {
          await this.work([entry.item]).then((results) => entry.resolve(results?.[0] as R), entry.reject);
        }
      },
    );
  }
}
