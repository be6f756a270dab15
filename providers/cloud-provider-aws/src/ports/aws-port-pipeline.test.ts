import { createMetricsRegistry } from '@ccm/core/app';
import { CoalescerBatchFailedError } from '@ccm/core/cloud';
import { silentLogger } from '@ccm/core/logging';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { awsError } from '../../test/fakes/fake-errors.js';
import { AWS_API_BUDGET_DEFAULTS, awsThrottlingClassifier, composeAwsPort, createAwsApiBudget, createAwsCloudApiObserver } from './aws-port-pipeline.js';
import { AWS_THROTTLING_CODES, toAwsApiError } from './sdk/sdk-errors.js';

/** An SDK v3 service exception as the AWS SDK throws it. */
function sdkError(code: string, status: number, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(code), { name: code, Code: code, $metadata: { httpStatusCode: status }, $response: { statusCode: status, headers } });
}

describe('awsThrottlingClassifier', () => {
  it.each([
    ['RequestLimitExceeded', 503, true],
    ['Throttling', 400, true],
    ['ThrottlingException', 400, true],
    ['TooManyRequestsException', 429, true],
    ['SlowDown', 503, true],
    ['Anything', 429, true],
    ['ServiceUnavailable', 503, false],
    ['InternalError', 500, false],
    ['InvalidInstanceID.NotFound', 400, false],
    ['UnauthorizedOperation', 403, false],
  ])('%s (HTTP %s) is throttling: %s', (code, status, throttled) => {
    expect(awsThrottlingClassifier(sdkError(code, status)) !== undefined).toBe(throttled);
    const converted = toAwsApiError('ec2.describeInstances', sdkError(code, status));
    expect(awsThrottlingClassifier(converted) !== undefined).toBe(throttled);
    expect(converted.kind === 'Throttled').toBe(throttled);
  });

  it('agrees with the SDK adapter on every throttling code', () => {
    for (const code of AWS_THROTTLING_CODES) {
      expect(awsThrottlingClassifier(awsError('elb.describeLoadBalancers', code))).toBeDefined();
    }
  });

  it('reads Retry-After and looks through wrapping errors', () => {
    expect(awsThrottlingClassifier(sdkError('TooManyRequestsException', 429, { 'retry-after': '3' }))).toEqual({ retryAfterMs: 3000 });
    expect(awsThrottlingClassifier(new CoalescerBatchFailedError('DescribeInstances', 2, awsError('ec2.describeInstances', 'RequestLimitExceeded')))).toEqual({});
  });
});

describe('the AWS budget stage', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries throttled calls, observes each attempt once and counts it in the budget metrics', async () => {
    const metrics = createMetricsRegistry();
    const budget = createAwsApiBudget(metrics, silentLogger, { random: () => 0 });
    const failures = [awsError('ec2.describeInstances', 'RequestLimitExceeded', 'slow down', 503)];
    const port = composeAwsPort(
      {
        async describeInstances(_request: object, _options?: { signal?: AbortSignal }) {
          const failure = failures.shift();
          if (failure) throw failure;
          return ['i-1'];
        },
      },
      'ec2',
      { budget, observer: createAwsCloudApiObserver(metrics) },
    );
    const answer = port.describeInstances({});
    await vi.advanceTimersByTimeAsync(AWS_API_BUDGET_DEFAULTS.initialBackoffMs);
    expect(await answer).toEqual(['i-1']);
    expect(budget.stats()).toMatchObject({ requests: 2, throttled: 1, exhausted: 0 });
    expect(budget.qps).toBeLessThan(AWS_API_BUDGET_DEFAULTS.qps);
    const text = await metrics.metrics();
    expect(text).toContain('cloudprovider_api_requests_total{provider="aws",operation="ec2.describeInstances"} 2');
    expect(text).toContain('cloudprovider_api_throttled_total{provider="aws",operation="ec2.describeInstances"} 1');
    expect(text).toContain('cloudprovider_api_request_duration_seconds_count{provider="aws",request="ec2.describeInstances"} 2');
    expect(text).toContain('cloudprovider_api_request_errors_total{provider="aws",request="ec2.describeInstances",code="RequestLimitExceeded"} 1');
  });

  it('hands the caller signal to the budget: an aborted wait never reaches AWS', async () => {
    const metrics = createMetricsRegistry();
    const budget = createAwsApiBudget(metrics, silentLogger, { qps: 1, burst: 1 });
    let calls = 0;
    const port = composeAwsPort({ async call(_options?: { signal?: AbortSignal }) { calls++; } }, 'elb', { budget, observer: createAwsCloudApiObserver(metrics) });
    await port.call();
    const controller = new AbortController();
    const waiting = port.call({ signal: controller.signal });
    controller.abort(new Error('controller stopping'));
    await expect(waiting).rejects.toThrow('controller stopping');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toBe(1);
  });
});
