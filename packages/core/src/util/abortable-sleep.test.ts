import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { abortableSleep, sleepOrThrowOnAbort } from './abortable-sleep.js';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('abortableSleep', () => {
  it('resolves after the delay', async () => {
    let resolved = false;
    void abortableSleep(1_000, new AbortController().signal).then(() => (resolved = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(resolved).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(resolved).toBe(true);
  });

  it('resolves early when aborted, and at once when already aborted', async () => {
    const controller = new AbortController();
    const sleeping = abortableSleep(10_000, controller.signal);
    controller.abort();
    await sleeping;
    await abortableSleep(10_000, controller.signal);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('sleepOrThrowOnAbort', () => {
  it('resolves after the delay without a signal', async () => {
    const sleeping = sleepOrThrowOnAbort(500);
    await vi.advanceTimersByTimeAsync(500);
    await expect(sleeping).resolves.toBeUndefined();
  });

  it("rejects with the signal's reason when aborted, and at once when already aborted", async () => {
    const controller = new AbortController();
    const reason = new Error('stopping');
    const sleeping = sleepOrThrowOnAbort(10_000, controller.signal);
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
    await expect(sleepOrThrowOnAbort(10_000, controller.signal)).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });
});
