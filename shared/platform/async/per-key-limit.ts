/**
 * How many of one key's (a tenant's) tasks a process runs at once, for a share of something all
 * keys use: OCR slots, held waits. `tryEnter` takes a place when the key has one free; `leave`
 * gives it back. Keys with nothing running are not kept.
 */
export class PerKeyLimit {
  private readonly running = new Map<string, number>();

  constructor(readonly max: number) {}

  tryEnter(key: string): boolean {
    const count = this.running.get(key) ?? 0;
    if (count >= this.max) return false;
    this.running.set(key, count + 1);
    return true;
  }

  leave(key: string): void {
    const left = (this.running.get(key) ?? 1) - 1;
    if (left > 0) this.running.set(key, left);
    else this.running.delete(key);
  }
}
