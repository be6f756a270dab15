import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdaptiveRateLimiter } from './adaptive-rate-limiter.js';

describe('AdaptiveRateLimiter', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Starts `count` acquisitions and records when each was granted (ms since start). */
  function acquireAll(limiter: AdaptiveRateLimiter, count: number, grants: number[]): Array<Promise<void>> {
    return Array.from({ length: count }, () => limiter.acquire().then(() => void grants.push(Date.now())));
  }

  it('grants a burst at once, then one token per 1/qps seconds', async () => {
    const limiter = new AdaptiveRateLimiter({ qps: 10, burst: 2 });
    const grants: number[] = [];
    const all = acquireAll(limiter, 5, grants);
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all(all);
    expect(grants).toEqual([0, 0, 100, 200, 300]);
  });

  it('serves waiters first come, first served; a newcomer never overtakes the queue', async () => {
    const limiter = new AdaptiveRateLimiter({ qps: 5, burst: 1 });
    const order: string[] = [];
    await limiter.acquire();
    const early = ['a', 'b', 'c'].map((name) => limiter.acquire().then(() => void order.push(name)));
    await vi.advanceTimersByTimeAsync(250); // one token is due at 200 ms: 'a' has it
    expect(order).toEqual(['a']);
    const late = limiter.acquire().then(() => void order.push('late'));
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all([...early, late]);
    expect(order).toEqual(['a', 'b', 'c', 'late']);
  });

  it('an aborted waiter leaves the queue without using a token', async () => {
    const limiter = new AdaptiveRateLimiter({ qps: 10, burst: 1 });
    await limiter.acquire();
    const controller = new AbortController();
    const grants: string[] = [];
    const first = limiter.acquire().then(() => void grants.push('first'));
    const aborted = limiter.acquire(controller.signal).then(
      () => void grants.push('aborted'),
      (error: unknown) => (error as Error).message,
    );
    const third = limiter.acquire().then(() => void grants.push('third'));
    controller.abort(new Error('gave up'));
    await expect(aborted).resolves.toBe('gave up');
    expect(limiter.waiting).toBe(2);
    await vi.advanceTimersByTimeAsync(100);
    expect(grants).toEqual(['first']);
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all([first, third]);
    expect(grants).toEqual(['first', 'third']);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const limiter = new AdaptiveRateLimiter({ qps: 10, burst: 1 });
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    await expect(limiter.acquire(controller.signal)).rejects.toThrow('stopped');
    expect(limiter.available()).toBe(1);
  });

  it('halves the rate on throttling, at most once per decrease interval, never below minQps', () => {
    const rates: number[] = [];
    const limiter = new AdaptiveRateLimiter({ qps: 16, burst: 16, minQps: 3, onRateChange: (qps) => rates.push(qps) });
    limiter.throttled();
    limiter.throttled(); // the same burst of in-flight calls: ignored
    expect(limiter.qps).toBe(8);
    vi.advanceTimersByTime(1_000);
    limiter.throttled();
    expect(limiter.qps).toBe(4);
    vi.advanceTimersByTime(1_000);
    limiter.throttled();
    expect(limiter.qps).toBe(3);
    vi.advanceTimersByTime(1_000);
    limiter.throttled();
    expect(limiter.qps).toBe(3);
    expect(rates).toEqual([8, 4, 3]);
  });

  it('empties the bucket on throttling so the lower rate applies at once', async () => {
    const limiter = new AdaptiveRateLimiter({ qps: 10, burst: 10 });
    limiter.throttled();
    const grants: number[] = [];
    const all = acquireAll(limiter, 3, grants);
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all(all);
    expect(grants).toEqual([200, 400, 600]);
  });

  it('holds every caller until a Retry-After has passed', async () => {
    const limiter = new AdaptiveRateLimiter({ qps: 100, burst: 100 });
    limiter.throttled(3_000);
    const grants: number[] = [];
    const all = acquireAll(limiter, 2, grants);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(grants).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all(all);
    // No tokens accrue during the pause (no burst when it ends); then the halved rate, 50/s.
    expect(grants).toEqual([3_020, 3_040]);
  });

  it('a shorter Retry-After never shortens a pause already in force', async () => {
    const limiter = new AdaptiveRateLimiter({ qps: 100, burst: 100 });
    limiter.throttled(3_000);
    vi.advanceTimersByTime(1_000);
    limiter.throttled(500);
    const grants: number[] = [];
    const all = acquireAll(limiter, 1, grants);
    await vi.advanceTimersByTimeAsync(5_000);
    await Promise.all(all);
    expect(grants).toEqual([3_040]); // the second throttle also halved the rate again, to 25/s
  });

  it('recovers additively while calls succeed, up to the configured rate', () => {
    const rates: number[] = [];
    const limiter = new AdaptiveRateLimiter({ qps: 20, burst: 20, recoveryQpsPerSecond: 2, onRateChange: (qps) => rates.push(qps) });
    limiter.throttled();
    expect(limiter.qps).toBe(10);
    vi.advanceTimersByTime(1_500);
    limiter.succeeded();
    expect(limiter.qps).toBeCloseTo(13, 5);
    vi.advanceTimersByTime(2_000);
    limiter.succeeded();
    expect(limiter.qps).toBeCloseTo(17, 5);
    vi.advanceTimersByTime(60_000);
    limiter.succeeded();
    expect(limiter.qps).toBe(20);
    limiter.succeeded();
    expect(rates).toEqual([10, 13, 17, 20]);
  });

  it('does not count a Retry-After pause as recovery time', () => {
    const limiter = new AdaptiveRateLimiter({ qps: 20, burst: 20, recoveryQpsPerSecond: 2 });
    limiter.throttled(5_000);
    vi.advanceTimersByTime(6_000);
    limiter.succeeded();
    expect(limiter.qps).toBeCloseTo(12, 5); // 10 + 2/s for the 1 s after the pause
  });

  it('does not bank recovery time spent at full rate', () => {
    const limiter = new AdaptiveRateLimiter({ qps: 20, burst: 20, recoveryQpsPerSecond: 2 });
    vi.advanceTimersByTime(60_000);
    limiter.succeeded();
    limiter.throttled();
    limiter.succeeded();
    expect(limiter.qps).toBe(10);
  });

  it('close rejects every waiter and leaves no timer', async () => {
    const limiter = new AdaptiveRateLimiter({ qps: 1, burst: 1 });
    await limiter.acquire();
    const waiting = limiter.acquire().catch((error: unknown) => (error as Error).message);
    expect(vi.getTimerCount()).toBe(1);
    limiter.close(new Error('shutting down'));
    await expect(waiting).resolves.toBe('shutting down');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects invalid settings', () => {
    expect(() => new AdaptiveRateLimiter({ qps: 0, burst: 1 })).toThrow(RangeError);
    expect(() => new AdaptiveRateLimiter({ qps: Infinity, burst: 1 })).toThrow(RangeError);
    expect(() => new AdaptiveRateLimiter({ qps: 1, burst: 0 })).toThrow(RangeError);
    expect(() => new AdaptiveRateLimiter({ qps: 1, burst: 1, decreaseFactor: 1 })).toThrow(RangeError);
    expect(() => new AdaptiveRateLimiter({ qps: 1, burst: 1, minQps: 2 })).toThrow(RangeError);
  });
});
