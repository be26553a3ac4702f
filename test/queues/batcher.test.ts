import { describe, expect, it } from 'vitest';
import { Batcher } from '../../shared/platform/queues/batcher.js';

/** A batch's work that the test settles by hand, recording each batch it was given. */
function manualWork() {
  const batches: number[][] = [];
  const settle: (() => void)[] = [];
  const work = (items: number[]) =>
    new Promise<number[]>((resolve) => {
      batches.push(items);
      settle.push(() => resolve(items.map((item) => item * 10)));
    });
  return { batches, settle, work };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('Batcher', () => {
  it('gathers the items of one turn of the event loop into one batch, each settled with its own result', async () => {
    const { batches, settle, work } = manualWork();
    const batcher = new Batcher(work, 100, 0);
    const results = Promise.all([1, 2, 3].map((item) => batcher.add(item)));
    await nextTurn();
    settle.forEach((done) => done());
    expect(await results).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('retries the items of a failed batch one by one, so a bad item fails alone', async () => {
    const batches: number[][] = [];
    const batcher = new Batcher(
      async (items: number[]) => {
        batches.push(items);
        if (items.includes(2)) throw new Error('bad item');
        return items;
      },
      100,
      0,
    );
    const results = await Promise.allSettled([1, 2, 3].map((item) => batcher.add(item)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(batches).toEqual([[1, 2, 3], [1], [2], [3]]);
  });
});
