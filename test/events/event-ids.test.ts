import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventIdAllocator } from '../../shared/events/event-ids.js';
import { createHarness, type Harness } from '../support/harness.js';

let harness: Harness;
beforeAll(async () => {
  harness = await createHarness();
});
afterAll(() => harness.close());

// docs/api-conventions.md#ids: "Event ids are positive integers, unique across the installation and never reused."
describe('event ids', () => {
  it('two processes allocating at once over many blocks never hand out the same id', async () => {
    const first = new EventIdAllocator(harness.context.orm);
    const second = new EventIdAllocator(harness.context.orm);
    const ids = await Promise.all(Array.from({ length: 5000 }, (_, n) => (n % 2 ? first : second).allocate()));
    expect(new Set(ids).size).toBe(5000);
    expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
  });

  it('take their block size from the sequence, so blocks never overlap after a migration changes its step', async () => {
    const connection = harness.context.orm.em.getConnection();
    await connection.execute('alter sequence event_id_seq increment by 10');
    try {
      const first = new EventIdAllocator(harness.context.orm);
      const second = new EventIdAllocator(harness.context.orm);
      const ids = await Promise.all(Array.from({ length: 200 }, (_, n) => (n % 2 ? first : second).allocate()));
      expect(new Set(ids).size).toBe(200);
    } finally {
      await connection.execute('alter sequence event_id_seq increment by 1000');
    }
  });

  it('a failed block fetch fails only the allocations waiting on it; the next one fetches again', async () => {
    const orm = harness.context.orm;
    let failNext = true;
    const flaky = {
      em: {
        fork: () => {
          const connection = orm.em.fork().getConnection();
          return {
            getConnection: () => ({
              execute: (sql: string) =>
                failNext ? ((failNext = false), Promise.reject(new Error('connection lost'))) : connection.execute(sql),
            }),
          };
        },
      },
    } as unknown as typeof orm;
    const allocator = new EventIdAllocator(flaky);
    await expect(allocator.allocate()).rejects.toThrow('connection lost');
    expect(await allocator.allocate()).toBeGreaterThan(0);
  });
});
