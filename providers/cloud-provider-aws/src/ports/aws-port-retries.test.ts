// The retry stage of the AWS port pipeline (composeAwsPort): 5xx and network errors retried by
// their kind, throttling left to the budget, capped exponential backoff with full jitter.
import { createMetricsRegistry } from '@ccm/core/app';
import { retryBackoffMs, type CloudRetryPolicy } from '@ccm/core/cloud';
import { silentLogger } from '@ccm/core/logging';
import { describe, expect, it } from 'vitest';
import { awsError } from '../../test/fakes/fake-errors.js';
import { AWS_RETRY_DEFAULTS, composeAwsPort, createAwsApiBudget, createAwsCloudApiObserver } from './aws-port-pipeline.js';

/** The port behind a budget that sends each call once (no throttling retries, no waiting). */
function withRetries<T extends object>(port: T, service: string, retry: CloudRetryPolicy): T {
  const metrics = createMetricsRegistry();
  const budget = createAwsApiBudget(metrics, silentLogger, { qps: 1_000_000, burst: 1_000_000, maxAttempts: 1 });
  return composeAwsPort(port, service, { budget, observer: createAwsCloudApiObserver(metrics), retry });
}

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

describe('the AWS retry stage', () => {
  it('retries server and network errors, then succeeds', async () => {
    const port = flakyPort([awsError('x.call', 'InternalError', 'boom', 500), awsError('x.call', 'ECONNRESET', 'reset', 0)]);
    const delays: number[] = [];
    const retried = withRetries(port, 'x', { sleep: async (ms) => void delays.push(ms), random: () => 1 });
    expect(await retried.call('ok')).toBe('OK');
    expect(port.attempts).toBe(3);
    expect(delays).toEqual([100, 200]);
    expect(retried.plain).toBe('not a function');
  });

  it('leaves throttling to the cloud API budget', async () => {
    const port = flakyPort([awsError('x.call', 'RequestLimitExceeded', 'slow down', 503)]);
    const retried = withRetries(port, 'x', { sleep: async () => {} });
    await expect(retried.call('x')).rejects.toMatchObject({ kind: 'Throttled' });
    expect(port.attempts).toBe(1);
  });

  it('does not retry client errors', async () => {
    const port = flakyPort([awsError('x.call', 'InvalidParameterValue')]);
    const retried = withRetries(port, 'x', { sleep: async () => {} });
    await expect(retried.call('x')).rejects.toMatchObject({ kind: 'Invalid' });
    expect(port.attempts).toBe(1);
  });

  it('gives up after maxAttempts', async () => {
    const port = flakyPort(Array.from({ length: 10 }, () => awsError('x.call', 'ServiceUnavailable', 'down', 503)));
    const retried = withRetries(port, 'x', { sleep: async () => {}, maxAttempts: 3 });
    await expect(retried.call('x')).rejects.toMatchObject({ kind: 'Unavailable' });
    expect(port.attempts).toBe(3);
  });

  it('stops retrying when the caller aborts', async () => {
    const port = flakyPort([awsError('x.call', 'InternalError', 'boom', 500), awsError('x.call', 'InternalError', 'boom', 500)]);
    const controller = new AbortController();
    const retried = withRetries(port, 'x', {
      sleep: async () => {
        controller.abort(new Error('stopped'));
        throw new Error('stopped');
      },
    });
    await expect(retried.call('x', { signal: controller.signal })).rejects.toThrow('stopped');
    expect(port.attempts).toBe(1);
  });

  it('uses capped exponential backoff with full jitter', () => {
    const policy = { ...AWS_RETRY_DEFAULTS, maxDelayMs: 1000 };
    expect([1, 2, 3, 10].map((attempt) => retryBackoffMs(attempt, policy, () => 1))).toEqual([100, 200, 400, 1000]);
    expect(retryBackoffMs(3, policy, () => 0.5)).toBe(200);
  });
});
