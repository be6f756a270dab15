import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MetricsRegistry } from '../app/metrics/prometheus-metrics-sink.js';
import { CloudApiBudget, type CloudApiBudgetOptions } from './cloud-api-budget.js';
import { CloudApiError } from './cloud-api-error.js';
import { createCloudApiObserver } from './cloud-api-observer.js';

const throttledError = (retryAfterMs?: number) =>
  Object.assign(new Error('Request limit exceeded.'), { name: 'RequestLimitExceeded', ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });

/** A cloud that lets `qps` requests per second through (bucket of `burst`) and throttles the rest. */
function throttlingCloud(qps: number, burst: number) {
  let tokens = burst;
  let updatedAt = Date.now();
  const log: Array<{ at: number; throttled: boolean }> = [];
  return {
    log,
    async request(): Promise<string> {
      const now = Date.now();
      tokens = Math.min(burst, tokens + ((now - updatedAt) / 1000) * qps);
      updatedAt = now;
      if (tokens < 1) {
        log.push({ at: now, throttled: true });
        throw Object.assign(new Error('Too Many Requests'), { statusCode: 429 });
      }
      tokens -= 1;
      log.push({ at: now, throttled: false });
      return 'ok';
    },
  };
}

describe('CloudApiBudget', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const budget = (options: Partial<CloudApiBudgetOptions> = {}) => new CloudApiBudget({ provider: 'sandbox', random: () => 0, ...options });

  it('passes results through and spaces calls at the configured rate', async () => {
    const limited = budget({ qps: 2, burst: 1 });
    const sentAt: number[] = [];
    const calls = [1, 2, 3].map((value) =>
      limited.call('GetThing', async () => {
        sentAt.push(Date.now());
        return value;
      }),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(Promise.all(calls)).resolves.toEqual([1, 2, 3]);
    expect(sentAt).toEqual([0, 500, 1_000]);
    expect(limited.stats()).toEqual({ requests: 3, throttled: 0, exhausted: 0, qps: 2 });
  });

  it('retries a throttled call after a jittered backoff and lowers the rate', async () => {
    const limited = budget({ qps: 10, burst: 10, initialBackoffMs: 400, random: () => 0.5 });
    let attempts = 0;
    const sentAt: number[] = [];
    const call = limited.call('DescribeInstances', async ({ attempt }) => {
      attempts++;
      sentAt.push(Date.now());
      expect(attempt).toBe(attempts);
      if (attempt === 1) throw throttledError();
      return 'described';
    });
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(call).resolves.toBe('described');
    // equal jitter: 400/2 + 0.5 * 400/2 = 300 ms
    expect(sentAt).toEqual([0, 300]);
    expect(limited.qps).toBeLessThan(10);
    expect(limited.stats()).toMatchObject({ requests: 2, throttled: 1, exhausted: 0 });
  });

  it('honours Retry-After: the retry, and every other call, wait at least that long', async () => {
    const limited = budget({ qps: 100, burst: 100, initialBackoffMs: 10 });
    const sentAt: Array<[string, number]> = [];
    const first = limited.call('A', async ({ attempt }) => {
      sentAt.push(['A', Date.now()]);
      if (attempt === 1) throw throttledError(2_000);
      return 'a';
    });
    await vi.advanceTimersByTimeAsync(1);
    const other = limited.call('B', async () => {
      sentAt.push(['B', Date.now()]);
      return 'b';
    });
    await vi.advanceTimersByTimeAsync(1_998);
    expect(sentAt).toEqual([['A', 0]]);
    await vi.advanceTimersByTimeAsync(100);
    await expect(Promise.all([first, other])).resolves.toEqual(['a', 'b']);
    expect(sentAt[1]).toEqual(['B', 2_020]); // first token after the pause, at the halved rate (50/s)
    expect(sentAt[2]![0]).toBe('A');
    expect(sentAt[2]![1]).toBeGreaterThanOrEqual(2_000);
  });

  it('caps an absurd Retry-After at maxRetryAfterMs', async () => {
    const limited = budget({ qps: 100, burst: 100, maxRetryAfterMs: 5_000 });
    const sentAt: number[] = [];
    const call = limited.call('A', async ({ attempt }) => {
      sentAt.push(Date.now());
      if (attempt === 1) throw throttledError(3_600_000);
      return 'a';
    });
    await vi.advanceTimersByTimeAsync(6_000);
    await expect(call).resolves.toBe('a');
    expect(sentAt).toEqual([0, 5_020]); // capped pause, then one token at the halved rate
  });

  it('gives up after maxAttempts with the cloud\'s own last error', async () => {
    const limited = budget({ qps: 100, burst: 100, maxAttempts: 3, initialBackoffMs: 100 });
    const errors = [throttledError(), throttledError(), throttledError()];
    let attempt = 0;
    const call = limited.call('A', async () => {
      throw errors[attempt++];
    });
    const outcome = call.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await outcome).toBe(errors[2]);
    expect(attempt).toBe(3);
    expect(limited.stats()).toMatchObject({ requests: 3, throttled: 3, exhausted: 1 });
  });

  it('does not retry other errors and leaves the rate alone', async () => {
    const limited = budget({ qps: 10 });
    const notFound = Object.assign(new Error('gone'), { name: 'InvalidInstanceID.NotFound', $metadata: { httpStatusCode: 400 } });
    const request = vi.fn(async () => {
      throw notFound;
    });
    await expect(limited.call('A', request)).rejects.toBe(notFound);
    expect(request).toHaveBeenCalledTimes(1);
    expect(limited.qps).toBe(10);
  });

  it('uses the provider\'s classifier', async () => {
    const limited = budget({ qps: 100, classify: (error) => ((error as { kind?: string }).kind === 'Throttled' ? {} : undefined), initialBackoffMs: 10 });
    let attempt = 0;
    const call = limited.call('A', async () => {
      if (attempt++ === 0) throw Object.assign(new Error('slow down'), { kind: 'Throttled' });
      return 'ok';
    });
    await vi.advanceTimersByTimeAsync(100);
    await expect(call).resolves.toBe('ok');
    expect(limited.stats().throttled).toBe(1);
  });

  it('recovers its rate while calls succeed', async () => {
    const limited = budget({ qps: 20, burst: 20, recoveryQpsPerSecond: 5, initialBackoffMs: 10 });
    let attempt = 0;
    await Promise.all([
      limited.call('A', async () => {
        if (attempt++ === 0) throw throttledError();
        return 'ok';
      }),
      vi.advanceTimersByTimeAsync(100),
    ]);
    expect(limited.qps).toBeCloseTo(10.5, 1); // halved at t=0, +5/s for ~0.1 s at the successful retry
    vi.advanceTimersByTime(1_000);
    await limited.call('B', async () => 'ok');
    expect(limited.qps).toBeCloseTo(15.5, 1);
    vi.advanceTimersByTime(10_000);
    await limited.call('C', async () => 'ok');
    expect(limited.qps).toBe(20);
  });

  it('is fair under contention: callers are served in call order, retries queue behind them', async () => {
    const limited = budget({ qps: 5, burst: 1, initialBackoffMs: 100 });
    const sent: string[] = [];
    let throttledOnce = false;
    const calls = ['a', 'b', 'c', 'd'].map((name) =>
      limited.call('Op', async () => {
        sent.push(name);
        if (name === 'a' && !throttledOnce) {
          throttledOnce = true;
          throw throttledError();
        }
        return name;
      }),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(Promise.all(calls)).resolves.toEqual(['a', 'b', 'c', 'd']);
    expect(sent).toEqual(['a', 'b', 'c', 'd', 'a']);
  });

  it('converges on the cloud\'s real limit without a retry storm', async () => {
    const cloud = throttlingCloud(5, 5);
    let seed = 42;
    const seededRandom = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
    const limited = budget({ qps: 20, burst: 20, maxAttempts: 10, random: seededRandom });
    const calls = Array.from({ length: 100 }, () => limited.call('Op', () => cloud.request()));
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(Promise.all(calls)).resolves.toHaveLength(100);
    const throttled = cloud.log.filter((entry) => entry.throttled).length;
    // Without the budget all 100 would go at once and 95 be throttled, then retried in waves;
    // with it, the first burst is throttled and the adapted rate keeps later ones rare.
    expect(throttled).toBeLessThanOrEqual(30);
    expect(limited.stats().exhausted).toBe(0);
    const finishedAt = cloud.log.at(-1)!.at;
    expect(finishedAt).toBeLessThan(25_000); // 100 requests at 5/s need >= 19 s
    expect(limited.qps).toBeLessThan(10);
  });

  describe('abort', () => {
    it('rejects while waiting for a token and never sends the request', async () => {
      const limited = budget({ qps: 1, burst: 1 });
      await limited.call('A', async () => 'first');
      const controller = new AbortController();
      const request = vi.fn(async () => 'second');
      const call = limited.call('A', request, { signal: controller.signal });
      controller.abort(new Error('controller stopping'));
      await expect(call).rejects.toThrow('controller stopping');
      await vi.advanceTimersByTimeAsync(5_000);
      expect(request).not.toHaveBeenCalled();
    });

    it('rejects during a backoff and does not retry', async () => {
      const limited = budget({ qps: 100, initialBackoffMs: 1_000 });
      const controller = new AbortController();
      const request = vi.fn(async () => {
        throw throttledError();
      });
      const call = limited.call('A', request, { signal: controller.signal });
      const outcome = call.catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(10);
      controller.abort(new Error('stop'));
      expect(await outcome).toEqual(new Error('stop'));
      await vi.advanceTimersByTimeAsync(5_000);
      expect(request).toHaveBeenCalledTimes(1);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('hands the signal to the request', async () => {
      const limited = budget();
      const controller = new AbortController();
      await limited.call('A', async ({ signal }) => expect(signal).toBe(controller.signal), { signal: controller.signal });
    });
  });

  it('publishes its metrics once per registry and composes with the cloud API observer', async () => {
    const registry = new MetricsRegistry();
    const observer = createCloudApiObserver(registry, 'sandbox');
    const limited = budget({ qps: 2, burst: 1, metrics: registry, observer, initialBackoffMs: 10 });
    new CloudApiBudget({ provider: 'other', metrics: registry }); // same registry: no duplicate registration
    let attempt = 0;
    await Promise.all([
      limited.call('DescribeInstances', async () => {
        if (attempt++ === 0) throw Object.assign(new Error('Too Many Requests'), { statusCode: 429 });
        return 'ok';
      }),
      limited.call('DescribeInstances', async () => 'ok'),
      vi.advanceTimersByTimeAsync(5_000),
    ]);
    const text = await registry.metrics();
    expect(text).toContain('cloudprovider_api_requests_total{provider="sandbox",operation="DescribeInstances"} 3');
    expect(text).toContain('cloudprovider_api_throttled_total{provider="sandbox",operation="DescribeInstances"} 1');
    expect(text).toContain('cloudprovider_api_rate_limiter_wait_seconds_count{provider="sandbox"} 3');
    expect(text).toMatch(/cloudprovider_api_current_rate\{provider="sandbox"\} 1(\.\d+)?\n/);
    expect(text).toContain('cloudprovider_api_current_rate{provider="other"} 10');
    // The observer saw every attempt (not the waits): 3 durations, 1 error with its code.
    expect(text).toContain('cloudprovider_api_request_duration_seconds_count{provider="sandbox",request="DescribeInstances"} 3');
    expect(text).toContain('cloudprovider_api_request_errors_total{provider="sandbox",request="DescribeInstances",code="429"} 1');
  });

  it('takes a typed CloudApiError at its word: throttled (with Retry-After) is throttling, any other kind is not', async () => {
    const limited = budget({ qps: 100, burst: 100, initialBackoffMs: 10 });
    let attempt = 0;
    const sentAt: number[] = [];
    const throttled = limited.call('getInstance', async () => {
      sentAt.push(Date.now());
      if (attempt++ === 0) throw new CloudApiError('throttled', 'getInstance', 'slow down', { retryAfterMs: 700 });
      return 'ok';
    });
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(throttled).resolves.toBe('ok');
    // Retry-After pauses the bucket, which refills at the halved rate after it: 700 ms plus one token.
    expect(sentAt).toEqual([0, 720]);
    // A 429 status on an error the adapter typed as transient is not throttling: no retry here.
    const transient = Object.assign(new CloudApiError('transient', 'getInstance', 'bad gateway'), { statusCode: 429 });
    await expect(limited.call('getInstance', async () => Promise.reject(transient))).rejects.toBe(transient);
    expect(limited.stats()).toMatchObject({ requests: 3, throttled: 1 });
  });

  it('wrap decorates a function with the budget', async () => {
    const limited = budget({ qps: 1, burst: 1 });
    const add = limited.wrap('Add', async (left: number, right: number) => left + right);
    await expect(add(1, 2)).resolves.toBe(3);
    const second = add(2, 3);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(second).resolves.toBe(5);
    expect(limited.stats().requests).toBe(2);
  });
});
