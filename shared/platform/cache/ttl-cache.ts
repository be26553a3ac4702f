interface Entry<V> {
  value: V;
  /** From then on, a read through getOrLoad also reloads the entry in the background. */
  refreshAt: number;
  expiresAt: number;
}

/** The part of an entry's life after which a read reloads it ahead of its lapse. */
const REFRESH_AFTER = 0.8;

/**
 * A small in-process cache for the hot path's lookups (tenants, event types, members, reactors):
 * entries lapse after `ttlMs`, so a change made elsewhere is seen within that time, and the cache
 * never holds more than `maxEntries` (the oldest go first). A TTL of 0 caches nothing.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loads = new Map<string, Promise<V | undefined>>();

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
   * The entry, else what `load()` resolves to, kept unless undefined (a miss is not cached: what
   * is created elsewhere is seen at once). Callers asking at once share one load, and an entry read
   * in the last fifth of its life is reloaded in the background while it is still served: a key in
   * steady use never lapses, so its callers neither wait for the load nor all run it together
   * (under load, every request in flight when a tenant's entry lapsed used to query PostgreSQL).
   */
  getOrLoad(key: string, load: () => Promise<V>): Promise<V>;
  getOrLoad(key: string, load: () => Promise<V | undefined>): Promise<V | undefined>;
  getOrLoad(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const entry = this.entries.get(key);
    const now = Date.now();
    if (entry && entry.expiresAt > now) {
      // A failed reload is forgotten: the entry serves until it lapses, and then a caller's own load fails.
      if (now >= entry.refreshAt) this.load(key, load).catch(() => undefined);
      return Promise.resolve(entry.value);
    }
    return this.load(key, load);
  }

  private load(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const running = this.loads.get(key);
    if (running) return running;
    const loading = load().then(
      (value) => {
        // Unless the key was deleted meanwhile (a change made through this process): then this value may be stale.
        if (this.loads.get(key) !== loading) return value;
        this.loads.delete(key);
        if (value !== undefined) this.set(key, value);
        return value;
      },
      (error: unknown) => {
        if (this.loads.get(key) === loading) this.loads.delete(key);
        throw error;
      },
    );
    this.loads.set(key, loading);
    return loading;
  }

  /** `ttlMs` shortens this entry's life below the cache's (a token that expires sooner, say). */
  set(key: string, value: V, ttlMs = this.ttlMs): void {
    const lifetime = Math.min(ttlMs, this.ttlMs);
    if (lifetime <= 0) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    // Deleted first, so a replaced entry moves to the end of the eviction order.
    this.entries.delete(key);
    const now = Date.now();
    this.entries.set(key, { value, refreshAt: now + lifetime * REFRESH_AFTER, expiresAt: now + lifetime });
  }

  delete(key: string): void {
    this.entries.delete(key);
    this.loads.delete(key);
  }

  /** Every entry whose key starts with `prefix` (an admin change, not a hot-path call). */
  deletePrefix(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
    for (const key of this.loads.keys()) if (key.startsWith(prefix)) this.loads.delete(key);
  }
}
