import { describe, expect, it } from 'vitest';
import { Batcher } from '../../shared/queues/batcher.js';

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

  it('with one batch in flight, gathers what arrives meanwhile into the next, sent when the first settles', async () => {
    const { batches, settle, work } = manualWork();
    const batcher = new Batcher(work, 100, 0, 1);
    const first = batcher.add(1);
    await nextTurn();
    const later = [2, 3].map((item) => batcher.add(item));
    await nextTurn();
    const last = batcher.add(4);
    await nextTurn();
    expect(batches).toEqual([[1]]);
    settle[0]!();
    expect(await first).toBe(10);
    await nextTurn();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    settle[1]!();
    expect(await Promise.all([...later, last])).toEqual([20, 30, 40]);
  });

  it('sends what gathered while held in batches of at most maxSize, one after another', async () => {
    const { batches, settle, work } = manualWork();
    const batcher = new Batcher(work, 2, 0, 1);
    const first = batcher.add(1);
    await nextTurn();
    const held = [2, 3, 4, 5, 6].map((item) => batcher.add(item));
    await nextTurn();
    for (let settled = 0; settled < 4; settled++) {
      settle[settled]!();
      await nextTurn();
    }
    expect(await Promise.all([first, ...held])).toEqual([10, 20, 30, 40, 50, 60]);
    expect(batches).toEqual([[1], [2, 3], [4, 5], [6]]);
  });

  it('retries the items of a failed batch one by one, so a bad item fails alone', async () => {
    const batches: number[][] = [];
    const batcher = new Batcher(async (items: number[]) => {
      batches.push(items);
      if (items.includes(2)) throw new Error('bad item');
      return items;
    }, 100, 0);
    const results = await Promise.allSettled([1, 2, 3].map((item) => batcher.add(item)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(batches).toEqual([[1, 2, 3], [1], [2], [3]]);
  });
});
