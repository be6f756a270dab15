import { describe, expect, it, vi } from 'vitest';
import { awsError } from '../../test/fakes/fake-errors.js';
import { withObserver } from './observed-port.js';
import { AdaptiveRateLimiter, backoffDelay, withRetries } from './throttling.js';

interface Port {
  call(value: string, options?: { signal?: AbortSignal }): Promise<string>;
  plain: string;
}

function flakyPort(failures: unknown[]): Port & { attempts: number } {
  const port = {
    attempts: 0,
    plain: 'not a function',
    async call(value: string) {
      port.attempts++;
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      return value.toUpperCase();
    },
  };
  return port;
}

describe('AdaptiveRateLimiter', () => {
  it('lets a burst through, then spaces calls at the rate', () => {
    let now = 0;
    const limiter = new AdaptiveRateLimiter({ maxRatePerSecond: 10, burst: 3, now: () => now });
    expect([limiter.reserve(), limiter.reserve(), limiter.reserve()]).toEqual([0, 0, 0]);
    expect(limiter.reserve()).toBe(100);
    expect(limiter.reserve()).toBe(200);
    now = 10_000;
    expect(limiter.reserve()).toBe(0);
  });

  it('halves the rate on throttling (down to the minimum) and recovers on success', () => {
    const limiter = new AdaptiveRateLimiter({ maxRatePerSecond: 50, minRatePerSecond: 5 });
    limiter.onThrottled();
    expect(limiter.ratePerSecond).toBe(25);
    for (let index = 0; index < 10; index++) limiter.onThrottled();
    expect(limiter.ratePerSecond).toBe(5);
    for (let index = 0; index < 100; index++) limiter.onSuccess();
    expect(limiter.ratePerSecond).toBe(50);
  });

  it('waits through the injected sleep when out of tokens', async () => {
    const sleep = vi.fn(async () => {});
    const limiter = new AdaptiveRateLimiter({ maxRatePerSecond: 1, burst: 1, now: () => 0, sleep });
    await limiter.acquire();
    await limiter.acquire();
    expect(sleep).toHaveBeenCalledWith(1000, undefined);
  });
});

describe('withRetries', () => {
  const fastLimiter = () => new AdaptiveRateLimiter({ maxRatePerSecond: 1e9, burst: 1e9 });

  it('retries throttling and server errors, then succeeds', async () => {
    const port = flakyPort([awsError('x.call', 'RequestLimitExceeded'), awsError('x.call', 'InternalError', 'boom', 500)]);
    const delays: number[] = [];
    const limiter = fastLimiter();
    const retried = withRetries(port, 'x', limiter, { sleep: async (ms) => void delays.push(ms), random: () => 1 });
    expect(await retried.call('ok')).toBe('OK');
    expect(port.attempts).toBe(3);
    expect(delays).toEqual([500, 200]);
    expect(retried.plain).toBe('not a function');
  });

  it('does not retry client errors', async () => {
    const port = flakyPort([awsError('x.call', 'InvalidParameterValue')]);
    const retried = withRetries(port, 'x', fastLimiter(), { sleep: async () => {} });
    await expect(retried.call('x')).rejects.toMatchObject({ kind: 'Invalid' });
    expect(port.attempts).toBe(1);
  });

  it('gives up after maxAttempts and slows the shared limiter down', async () => {
    const port = flakyPort(Array.from({ length: 10 }, () => awsError('x.call', 'Throttling')));
    const limiter = fastLimiter();
    const retried = withRetries(port, 'x', limiter, { sleep: async () => {}, maxAttempts: 3 });
    await expect(retried.call('x')).rejects.toMatchObject({ kind: 'Throttled' });
    expect(port.attempts).toBe(3);
    expect(limiter.ratePerSecond).toBe(1e9 / 8);
  });

  it('stops retrying when the caller aborts', async () => {
    const port = flakyPort([awsError('x.call', 'Throttling'), awsError('x.call', 'Throttling')]);
    const controller = new AbortController();
    const retried = withRetries(port, 'x', fastLimiter(), {
      sleep: async () => {
        controller.abort(new Error('stopped'));
        throw new Error('stopped');
      },
    });
    await expect(retried.call('x', { signal: controller.signal })).rejects.toThrow('stopped');
    expect(port.attempts).toBe(1);
  });

  it('uses capped exponential backoff with full jitter', () => {
    expect([1, 2, 3, 10].map((attempt) => backoffDelay(attempt, 100, 1000, () => 1))).toEqual([100, 200, 400, 1000]);
    expect(backoffDelay(3, 100, 1000, () => 0.5)).toBe(200);
  });
});

describe('withObserver', () => {
  it('observes each call with a mechanically derived operation name', async () => {
    const observed: string[] = [];
    const port = withObserver(flakyPort([]), 'ec2', {
      observe: async <T>(operation: string, call: () => Promise<T>) => {
        observed.push(operation);
        return call();
      },
    });
    expect(await port.call('a')).toBe('A');
    expect(observed).toEqual(['ec2.call']);
  });
});
