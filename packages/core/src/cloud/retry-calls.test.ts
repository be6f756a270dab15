import { describe, expect, it } from 'vitest';
import { CloudApiError, type CloudApiErrorKind } from './cloud-api-error.js';
import { retryBackoffMs, retryCalls, type CloudRetryPolicy } from './retry-calls.js';
import type { PortCall } from './wrap-port.js';

const call = (signal?: AbortSignal): PortCall => ({ operation: 'ec2.describeInstances', method: 'describeInstances', signal, args: [] });

/** A call that fails with `failures` in turn, then answers 'ok'; counts its attempts. */
function flaky(failures: unknown[]): { attempts: () => number; invoke: () => Promise<string> } {
  let attempts = 0;
  return {
    attempts: () => attempts,
    invoke: async () => {
      attempts++;
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      return 'ok';
    },
  };
}

function run(failures: unknown[], policy: CloudRetryPolicy = {}, signal?: AbortSignal) {
  const delays: number[] = [];
  const cloud = flaky(failures);
  const retried = retryCalls({ sleep: async (delayMs) => void delays.push(delayMs), random: () => 1, ...policy });
  return { cloud, delays, result: retried(call(signal), cloud.invoke) };
}

const failure = (kind: CloudApiErrorKind, details: { retryable?: boolean; retryAfterMs?: number } = {}) => new CloudApiError(kind, 'ec2.describeInstances', kind, details);

describe('retryCalls', () => {
  it.each<{ name: string; error: unknown; policy?: CloudRetryPolicy; attempts: number; outcome: 'ok' | 'rejects' }>([
    { name: 'transient failures are retried', error: failure('transient'), attempts: 2, outcome: 'ok' },
    { name: 'throttling is retried when no kinds are named', error: failure('throttled'), attempts: 2, outcome: 'ok' },
    { name: 'throttling is left alone when kinds leave it out', error: failure('throttled'), policy: { kinds: ['transient'] }, attempts: 1, outcome: 'rejects' },
    { name: 'not-found is an answer, not a hiccup', error: failure('not-found'), attempts: 1, outcome: 'rejects' },
    { name: 'invalid is not retried', error: failure('invalid'), attempts: 1, outcome: 'rejects' },
    { name: 'conflict is not retried', error: failure('conflict'), attempts: 1, outcome: 'rejects' },
    { name: 'unauthorized is not retried', error: failure('unauthorized'), attempts: 1, outcome: 'rejects' },
    { name: 'a transient failure marked final where it was born is not retried', error: failure('transient', { retryable: false }), attempts: 1, outcome: 'rejects' },
    { name: 'a retryable failure wrapped by another layer is retried', error: new Error('wrapped', { cause: failure('transient') }), attempts: 2, outcome: 'ok' },
    { name: 'an untyped error is never retried', error: Object.assign(new Error('503'), { statusCode: 503 }), attempts: 1, outcome: 'rejects' },
    {
      name: 'a provider classifier decides for its own errors',
      error: Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
      policy: { classify: (error) => ((error as { code?: string }).code === 'ECONNRESET' ? { kind: 'transient', retryable: true } : undefined) },
      attempts: 2,
      outcome: 'ok',
    },
  ])('$name', async ({ error, policy, attempts, outcome }) => {
    const { cloud, result } = run([error], policy);
    if (outcome === 'ok') await expect(result).resolves.toBe('ok');
    else await expect(result).rejects.toBe(error);
    expect(cloud.attempts()).toBe(attempts);
  });

  it('gives up after maxAttempts with the last error', async () => {
    const errors = [failure('transient'), failure('transient'), failure('transient')];
    const last = errors[2];
    const { cloud, result } = run([...errors, failure('transient')], { maxAttempts: 3 });
    await expect(result).rejects.toBe(last);
    expect(cloud.attempts()).toBe(3);
  });

  it('backs off exponentially, and waits out a Retry-After instead (capped)', async () => {
    const { delays, result } = run([failure('transient'), failure('transient'), failure('throttled', { retryAfterMs: 2_500 }), failure('throttled', { retryAfterMs: 90_000 })], {
      maxAttempts: 5,
      maxDelayMs: 10_000,
    });
    await expect(result).resolves.toBe('ok');
    expect(delays).toEqual([100, 200, 2_500, 10_000]);
  });

  it('tells onRetry about every wait', async () => {
    const retries: unknown[] = [];
    const error = failure('transient');
    const { result } = run([error], { onRetry: (details) => retries.push(details) });
    await result;
    expect(retries).toEqual([{ operation: 'ec2.describeInstances', attempt: 1, delayMs: 100, error }]);
  });

  it('stops when the caller aborts while waiting, with the abort reason', async () => {
    const controller = new AbortController();
    const cloud = flaky([failure('transient'), failure('transient')]);
    const retried = retryCalls({
      sleep: async () => {
        controller.abort(new Error('stopped'));
        throw new Error('sleep interrupted');
      },
    });
    await expect(retried(call(controller.signal), cloud.invoke)).rejects.toThrow('stopped');
    expect(cloud.attempts()).toBe(1);
  });

  it('does not retry for a caller that has already given up', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    const error = failure('transient');
    const { cloud, result } = run([error], {}, controller.signal);
    await expect(result).rejects.toBe(error);
    expect(cloud.attempts()).toBe(1);
  });

  it('waits on a real timer by default, and aborting ends the wait', async () => {
    const controller = new AbortController();
    const cloud = flaky([failure('transient'), failure('transient')]);
    const pending = retryCalls({ initialDelayMs: 60_000, jitter: 'none' })(call(controller.signal), cloud.invoke);
    setTimeout(() => controller.abort(new Error('shutdown')), 10);
    await expect(pending).rejects.toThrow('shutdown');
  });
});

describe('retryBackoffMs', () => {
  it.each([
    { attempt: 1, policy: {}, random: 1, expected: 100 },
    { attempt: 2, policy: {}, random: 1, expected: 200 },
    { attempt: 3, policy: {}, random: 0.5, expected: 200 },
    { attempt: 20, policy: {}, random: 1, expected: 20_000 },
    { attempt: 3, policy: { initialDelayMs: 100, maxDelayMs: 1000 }, random: 1, expected: 400 },
    { attempt: 10, policy: { initialDelayMs: 100, maxDelayMs: 1000 }, random: 1, expected: 1000 },
    { attempt: 1, policy: { initialDelayMs: 200, jitter: 'none' as const }, random: 0, expected: 200 },
    { attempt: 3, policy: { initialDelayMs: 200, jitter: 'none' as const }, random: 0, expected: 800 },
    { attempt: 3, policy: { initialDelayMs: 200, maxDelayMs: 500, jitter: 'none' as const }, random: 0, expected: 500 },
  ])('attempt $attempt with $policy and random $random waits $expected ms', ({ attempt, policy, random, expected }) => {
    expect(retryBackoffMs(attempt, policy, () => random)).toBe(expected);
  });
});
