import { describe, expect, it } from 'vitest';
import { awsError } from '../../test/fakes/fake-errors.js';
import { backoffDelay, withRetries } from './retries.js';

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

describe('withRetries', () => {
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
    expect([1, 2, 3, 10].map((attempt) => backoffDelay(attempt, 100, 1000, () => 1))).toEqual([100, 200, 400, 1000]);
    expect(backoffDelay(3, 100, 1000, () => 0.5)).toBe(200);
  });
});
