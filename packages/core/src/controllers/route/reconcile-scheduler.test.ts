import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReconcileScheduler } from './reconcile-scheduler.js';

describe('ReconcileScheduler', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  function startScheduler(periodMs: number, minRequestIntervalMs: number, runDurationMs = 0) {
    const starts: number[] = [];
    const scheduler = new ReconcileScheduler({
      periodMs,
      minRequestIntervalMs,
      run: async () => {
        starts.push(Date.now());
        if (runDurationMs > 0) await new Promise((resolve) => setTimeout(resolve, runDurationMs));
      },
    });
    const abort = new AbortController();
    const loop = scheduler.loop(abort.signal);
    return { scheduler, starts, abort, loop };
  }

  it('runs at once, then every period counted from the start of each run (non-sliding)', async () => {
    const { starts, abort, loop } = startScheduler(10_000, 10_000, 3_000);
    await vi.advanceTimersByTimeAsync(35_000);
    expect(starts).toEqual([0, 10_000, 20_000, 30_000]);
    abort.abort();
    await vi.advanceTimersByTimeAsync(3_000);
    await loop;
  });

  it('starts the next run right after one that overran the period', async () => {
    const { starts, abort, loop } = startScheduler(10_000, 10_000, 15_000);
    await vi.advanceTimersByTimeAsync(31_000);
    expect(starts).toEqual([0, 15_000, 30_000]);
    abort.abort();
    await vi.advanceTimersByTimeAsync(15_000);
    await loop;
  });

  it('serves requests early, but not sooner than the minimum interval after the last start', async () => {
    const { scheduler, starts, abort, loop } = startScheduler(60_000, 10_000);
    await vi.advanceTimersByTimeAsync(5_000);
    scheduler.request();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(starts).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([0, 10_000]);
    await vi.advanceTimersByTimeAsync(15_000); // t = 25 s: a request now is served at once
    scheduler.request();
    await vi.advanceTimersByTimeAsync(0);
    expect(starts).toEqual([0, 10_000, 25_000]);
    abort.abort();
    await loop;
  });

  it('coalesces a storm of requests into one run per interval', async () => {
    const { scheduler, starts, abort, loop } = startScheduler(60_000, 10_000);
    for (let second = 1; second <= 30; second++) {
      await vi.advanceTimersByTimeAsync(1_000);
      scheduler.request();
    }
    expect(starts).toEqual([0, 10_000, 20_000, 30_000]);
    await vi.advanceTimersByTimeAsync(70_000);
    expect(starts).toEqual([0, 10_000, 20_000, 30_000, 40_000, 100_000]);
    abort.abort();
    await loop;
  });

  it('keeps a request made during a run', async () => {
    const { scheduler, starts, abort, loop } = startScheduler(60_000, 10_000, 12_000);
    await vi.advanceTimersByTimeAsync(1_000);
    scheduler.request();
    await vi.advanceTimersByTimeAsync(11_000);
    expect(starts).toEqual([0, 12_000]);
    abort.abort();
    await vi.advanceTimersByTimeAsync(12_000);
    await loop;
  });

  it('stops waiting when aborted', async () => {
    const { starts, abort, loop } = startScheduler(60_000, 10_000);
    await vi.advanceTimersByTimeAsync(1);
    abort.abort();
    await loop;
    expect(starts).toEqual([0]);
  });
});
