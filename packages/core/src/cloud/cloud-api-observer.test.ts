import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from '../app/metrics/prometheus-metrics-sink.js';
import { CloudApiError } from './cloud-api-error.js';
import { cloudErrorCode, createCloudApiObserver } from './cloud-api-observer.js';

describe('createCloudApiObserver', () => {
  it('records durations and errors with codes, and passes results and errors through', async () => {
    const registry = new MetricsRegistry();
    const observer = createCloudApiObserver(registry, 'aws');
    expect(await observer.observe('DescribeInstances', async () => 42)).toBe(42);
    const failure = Object.assign(new Error('not found'), { name: 'InvalidInstanceID.NotFound', $metadata: { httpStatusCode: 400 } });
    await expect(observer.observe('DescribeInstances', async () => Promise.reject(failure))).rejects.toBe(failure);

    const text = await registry.metrics();
    expect(text).toContain('cloudprovider_api_request_duration_seconds_count{provider="aws",request="DescribeInstances"} 2');
    expect(text).toContain('cloudprovider_api_request_errors_total{provider="aws",request="DescribeInstances",code="InvalidInstanceID.NotFound"} 1');
  });

  it('shares the metrics between observers of one registry', async () => {
    const registry = new MetricsRegistry();
    await createCloudApiObserver(registry, 'a').observe('op', async () => 1);
    await createCloudApiObserver(registry, 'b').observe('op', async () => 1);
    const text = await registry.metrics();
    expect(text).toContain('cloudprovider_api_request_duration_seconds_count{provider="a",request="op"} 1');
    expect(text).toContain('cloudprovider_api_request_duration_seconds_count{provider="b",request="op"} 1');
  });

  it.each([
    [{ code: 'ResourceNotFound', statusCode: 404 }, 'ResourceNotFound'],
    [{ code: 404, name: 'GaxiosError' }, '404'],
    [Object.assign(new Error('x'), { code: 'ECONNRESET' }), 'ECONNRESET'],
    [Object.assign(new Error('x'), { name: 'LoadBalancerNotFoundException' }), 'LoadBalancerNotFoundException'],
    [Object.assign(new Error('x'), { statusCode: 503 }), '503'],
    [Object.assign(new Error('x'), { $metadata: { httpStatusCode: 500 } }), '500'],
    [new Error('plain'), 'unknown'],
    [new TypeError('bug'), 'TypeError'],
    ['a string', 'unknown'],
    [undefined, 'unknown'],
    [{ code: '' }, 'unknown'],
    [{ code: 'x'.repeat(100) }, 'x'.repeat(64)],
    [new CloudApiError('not-found', 'ec2.describeInstances', 'gone', { code: 'InvalidInstanceID.NotFound' }), 'InvalidInstanceID.NotFound'],
    [new CloudApiError('transient', 'getInstance', 'reset'), 'transient'],
  ])('cloudErrorCode(%o) = %s', (error, expected) => {
    expect(cloudErrorCode(error)).toBe(expected);
  });
});
