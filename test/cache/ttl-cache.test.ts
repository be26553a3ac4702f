import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TtlCache } from '../../shared/platform/cache/ttl-cache.js';

// The hot paths' lookups (tenants, event types, members, reactors) go through getOrLoad: an entry
// lapses after its TTL, so a change made elsewhere is seen within it, but a key in steady use must
// neither make its callers wait for PostgreSQL when it lapses nor send them all to it at once.
const TTL_MS = 1000;

function counted<V>(values: V[]) {
  const load = vi.fn(async () => values[Math.min(load.mock.calls.length - 1, values.length - 1)]);
  return load;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('TtlCache.getOrLoad', () => {
  it('runs one load for callers that miss together, and keeps its value for the TTL', async () => {
    const cache = new TtlCache<string>(TTL_MS);
    const load = counted(['tenant v1']);
    const values = await Promise.all(Array.from({ length: 50 }, () => cache.getOrLoad('key', load)));
    expect(values.every((value) => value === 'tenant v1')).toBe(true);
    expect(load).toHaveBeenCalledTimes(1);

    vi.setSystemTime(TTL_MS / 2);
    await cache.getOrLoad('key', load);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not keep a miss, so what is created elsewhere is found at once', async () => {
    const cache = new TtlCache<string>(TTL_MS);
    const load = counted<string | undefined>([undefined, 'created since']);
    await expect(cache.getOrLoad('key', load)).resolves.toBeUndefined();
    await expect(cache.getOrLoad('key', load)).resolves.toBe('created since');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('serves an entry late in its life at once and reloads it in the background, once for many readers', async () => {
    const cache = new TtlCache<string>(TTL_MS);
    const load = counted(['v1', 'v2']);
    await cache.getOrLoad('key', load);

    vi.setSystemTime(TTL_MS * 0.9);
    const late = await Promise.all(Array.from({ length: 20 }, () => cache.getOrLoad('key', load)));
    expect(late.every((value) => value === 'v1')).toBe(true);
    expect(load).toHaveBeenCalledTimes(2);

    // The reload's value is served and lives a full TTL from its load.
    await vi.waitFor(async () => expect(await cache.getOrLoad('key', load)).toBe('v2'));
    vi.setSystemTime(TTL_MS * 1.5);
    await expect(cache.getOrLoad('key', load)).resolves.toBe('v2');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('loads afresh, and waits for it, once an unread entry lapsed', async () => {
    const cache = new TtlCache<string>(TTL_MS);
    const load = counted(['v1', 'v2']);
    await cache.getOrLoad('key', load);
    vi.setSystemTime(TTL_MS + 1);
    await expect(cache.getOrLoad('key', load)).resolves.toBe('v2');
  });

  it('keeps serving an entry whose background reload failed until it lapses, then fails the caller', async () => {
    const cache = new TtlCache<string>(TTL_MS);
    await cache.getOrLoad('key', async () => 'v1');
    const failing = vi.fn(async (): Promise<string> => {
      throw new Error('PostgreSQL is away');
    });
    vi.setSystemTime(TTL_MS * 0.9);
    await expect(cache.getOrLoad('key', failing)).resolves.toBe('v1');
    await vi.waitFor(() => expect(failing).toHaveBeenCalledTimes(1));
    vi.setSystemTime(TTL_MS + 1);
    await expect(cache.getOrLoad('key', failing)).rejects.toThrow('PostgreSQL is away');
  });

  it('does not keep what a load in flight when the key was deleted returns: it may predate the change', async () => {
    const cache = new TtlCache<string>(TTL_MS);
    let finish: (value: string) => void = () => {};
    const slow = cache.getOrLoad('key', () => new Promise<string>((resolve) => (finish = resolve)));
    cache.delete('key');
    finish('before the change');
    await expect(slow).resolves.toBe('before the change');
    await expect(cache.getOrLoad('key', async () => 'after the change')).resolves.toBe('after the change');
  });
});
