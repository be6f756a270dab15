import { describe, expect, it } from 'vitest';
import { parallelizeUntil, Semaphore } from './parallelize.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('parallelizeUntil', () => {
  it.each([1, 2, 3, 10])('runs every piece with at most %d in flight', async (workers) => {
    let inFlight = 0;
    let maxInFlight = 0;
    const done: number[] = [];
    await parallelizeUntil(workers, 7, async (piece) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await tick();
      inFlight--;
      done.push(piece);
    });
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(maxInFlight).toBe(Math.min(workers, 7));
  });

  it('stops handing out pieces once the signal aborts', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    await parallelizeUntil(
      1,
      5,
      async (piece) => {
        started.push(piece);
        if (piece === 1) controller.abort();
        await tick();
      },
      controller.signal,
    );
    expect(started).toEqual([0, 1]);
  });

  it('handles zero pieces', async () => {
    await expect(parallelizeUntil(3, 0, async () => {})).resolves.toBeUndefined();
  });
});

describe('Semaphore', () => {
  it('bounds concurrency and frees slots on failure', async () => {
    const semaphore = new Semaphore(2);
    let inFlight = 0;
    let maxInFlight = 0;
    const task = (fail: boolean) =>
      semaphore.run(async () => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await tick();
        inFlight--;
        if (fail) throw new Error('boom');
      });
    const results = await Promise.allSettled([task(true), task(false), task(true), task(false), task(false)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(maxInFlight).toBe(2);
    expect(semaphore.inUse).toBe(0);
  });
});
