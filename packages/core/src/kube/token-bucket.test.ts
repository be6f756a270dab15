import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TokenBucket } from './token-bucket.js';

describe('TokenBucket', () => {
  let now = 0;
  const clock = (): number => now;

  beforeEach(() => {
    now = 1_000_000;
  });

  it('allows a burst, then refills at qps', () => {
    const bucket = new TokenBucket({ qps: 10, burst: 3, now: clock });
    expect([bucket.tryTake(), bucket.tryTake(), bucket.tryTake(), bucket.tryTake()]).toEqual([true, true, true, false]);
    now += 99;
    expect(bucket.tryTake()).toBe(false);
    now += 1;
    expect(bucket.tryTake()).toBe(true);
  });

  it('never holds more than burst tokens', () => {
    const bucket = new TokenBucket({ qps: 10, burst: 2, now: clock });
    now += 60_000;
    expect(bucket.available()).toBe(2);
  });

  it('reserve goes into debt and reports growing waits (client-go BucketRateLimiter)', () => {
    const bucket = new TokenBucket({ qps: 10, burst: 100, now: clock });
    const delays = Array.from({ length: 103 }, () => bucket.reserve());
    expect(delays.slice(0, 100).every((delay) => delay === 0)).toBe(true);
    expect(delays.slice(100)).toEqual([100, 200, 300]);
  });

  it('rejects invalid settings', () => {
    expect(() => new TokenBucket({ qps: 0, burst: 1 })).toThrow(RangeError);
    expect(() => new TokenBucket({ qps: 1, burst: 0 })).toThrow(RangeError);
  });

  it('infinite qps never limits', () => {
    const bucket = new TokenBucket({ qps: Infinity, burst: 1, now: clock });
    expect(Array.from({ length: 5 }, () => bucket.reserve())).toEqual([0, 0, 0, 0, 0]);
  });

  describe('take', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('waits (does not fail) when empty, serving callers in order', async () => {
      const bucket = new TokenBucket({ qps: 2, burst: 1 });
      const order: number[] = [];
      await bucket.take();
      const second = bucket.take().then(() => order.push(2));
      const third = bucket.take().then(() => order.push(3));
      await vi.advanceTimersByTimeAsync(499);
      expect(order).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(order).toEqual([2]);
      await vi.advanceTimersByTimeAsync(500);
      expect(order).toEqual([2, 3]);
      await Promise.all([second, third]);
    });

    it('rejects when aborted while waiting and gives the token back', async () => {
      const bucket = new TokenBucket({ qps: 1, burst: 1 });
      await bucket.take();
      const controller = new AbortController();
      const waiting = bucket.take(controller.signal);
      controller.abort(new Error('stopped'));
      await expect(waiting).rejects.toThrow('stopped');
      expect(bucket.available()).toBeCloseTo(0, 5);
    });
  });
});

describe('TokenBucket.tryTake and msUntilAvailable (the sandbox cloud throttles with them)', () => {
  it('allows a burst, then refills at qps and says when the next token comes', () => {
    let now = 0;
    const bucket = new TokenBucket({ qps: 2, burst: 3, now: () => now });
    const take = (at: number) => {
      now = at;
      return bucket.tryTake() ? { allowed: true } : { allowed: false, retryAfterMs: bucket.msUntilAvailable() };
    };
    expect([take(0), take(0), take(0)].every((result) => result.allowed)).toBe(true);
    expect(take(0)).toEqual({ allowed: false, retryAfterMs: 500 });
    expect(take(250)).toEqual({ allowed: false, retryAfterMs: 250 });
    expect(take(500)).toEqual({ allowed: true });
    expect(take(10_000).allowed).toBe(true);
    expect(() => new TokenBucket({ qps: 0, burst: 1, now: () => 0 })).toThrow(RangeError);
    expect(() => new TokenBucket({ qps: 1, burst: 0, now: () => 0 })).toThrow(RangeError);
  });
});
