import { describe, expect, it } from 'vitest';
import { inPool } from './pool.ts';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('inPool', () => {
  it('answers in the items’ order with at most `limit` in flight', async () => {
    let running = 0;
    let most = 0;
    const out = await inPool(
      [5, 1, 4, 2, 3, 0, 6, 2],
      async (ms) => {
        running++;
        most = Math.max(most, running);
        await tick(ms);
        running--;
        return ms * 10;
      },
      3,
    );
    expect(out).toEqual([50, 10, 40, 20, 30, 0, 60, 20]);
    expect(most).toBe(3);
  });

  it('starts nothing after a failure and tells it once the started items have ended', async () => {
    const started: number[] = [];
    const ended: number[] = [];
    const run = inPool(
      [0, 1, 2, 3, 4, 5],
      async (i) => {
        started.push(i);
        if (i === 1) throw new Error('item 1 failed');
        await tick(20);
        ended.push(i);
      },
      2,
    );
    await expect(run).rejects.toThrow('item 1 failed');
    expect(started).toEqual([0, 1]);
    expect(ended).toEqual([0]);
  });

  it('takes an empty list', async () => {
    expect(await inPool([], async () => 1)).toEqual([]);
  });
});
