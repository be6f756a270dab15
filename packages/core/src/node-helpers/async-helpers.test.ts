import { describe, expect, it } from 'vitest';
import { forEachConcurrently, runUntilAborted } from './async-helpers.js';

describe('forEachConcurrently (ParallelizeUntil)', () => {
  it('runs every item once with at most `limit` in flight, isolating errors', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const seen: number[] = [];
    const failures: number[] = [];
    await forEachConcurrently(
      Array.from({ length: 12 }, (_, index) => index),
      3,
      async (item) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight--;
        seen.push(item);
        if (item % 5 === 0) throw new Error(`item ${item}`);
      },
      { onError: (_error, item) => failures.push(item) },
    );
    expect(seen.sort((left, right) => left - right)).toEqual(Array.from({ length: 12 }, (_, index) => index));
    expect(maxInFlight).toBe(3);
    expect(failures.sort((left, right) => left - right)).toEqual([0, 5, 10]);
  });

  it('starts no new item once aborted', async () => {
    const abort = new AbortController();
    const seen: number[] = [];
    await forEachConcurrently([1, 2, 3, 4], 1, async (item) => {
      seen.push(item);
      if (item === 2) abort.abort();
    }, { signal: abort.signal });
    expect(seen).toEqual([1, 2]);
  });
});

describe('runUntilAborted (wait.Until, sliding)', () => {
  it('runs at once, keeps going after a failure and stops when aborted', async () => {
    const abort = new AbortController();
    const errors: unknown[] = [];
    let runs = 0;
    const loop = runUntilAborted(
      async () => {
        runs++;
        if (runs === 1) throw new Error('first run fails');
        if (runs === 3) abort.abort();
      },
      1,
      abort.signal,
      (error) => errors.push(error),
    );
    await loop;
    expect(runs).toBe(3);
    expect(errors).toHaveLength(1);
  });
});
