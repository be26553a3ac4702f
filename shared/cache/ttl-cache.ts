/**
 * A small in-process cache for the hot path's lookups (tenants, event types, members, reactors):
 * entries lapse after `ttlMs`, so a change made elsewhere is seen within that time, and the cache
 * never holds more than `maxEntries` (the oldest go first). A TTL of 0 caches nothing.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > Date.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /**
   * The entry, or `load()`'s promise kept in its place, so concurrent misses share one load (a
   * batch of jobs, a burst of claims, asking at once); a load that fails is not kept.
   */
  getOrLoad<T>(this: TtlCache<Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
    const cached = this.get(key);
    if (cached) return cached;
    const loading = load();
    this.set(key, loading);
    loading.catch(() => this.delete(key));
    return loading;
  }

  /** `ttlMs` shortens this entry's life below the cache's (a token that expires sooner, say). */
  set(key: string, value: V, ttlMs = this.ttlMs): void {
    const lifetime = Math.min(ttlMs, this.ttlMs);
    if (lifetime <= 0) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: Date.now() + lifetime });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Every entry whose key starts with `prefix` (an admin change, not a hot-path call). */
  deletePrefix(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
