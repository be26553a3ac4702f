/**
 * Gathers items that arrive close together into one batch for one round of work (one PostgreSQL
 * transaction for many jobs), and settles each item's promise with the batch's outcome. A batch
 * is flushed when it reaches `maxSize` or `maxWaitMs` after its first item. When a batch fails,
 * its items are retried one by one, so one bad item fails alone and the rest go through.
 */
export class Batcher<T> {
  private pending: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly work: (items: T[]) => Promise<void>,
    private readonly maxSize: number,
    private readonly maxWaitMs: number,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxSize) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.maxWaitMs);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.work(batch.map((entry) => entry.item)).then(
      () => batch.forEach((entry) => entry.resolve()),
      async (error: unknown) => {
        if (batch.length === 1) return batch[0]!.reject(error);
        for (const entry of batch) {
          await this.work([entry.item]).then(entry.resolve, entry.reject);
        }
      },
    );
  }
}
