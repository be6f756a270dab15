import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { cloudErrorCode, createCloudApiObserver } from './cloud-api-observer.js';
import { ControllerManagerMetrics, controllerMetricName, registerBuildInfo } from './controller-manager-metrics.js';
import { createMetricsRegistry } from './create-metrics-registry.js';

describe('createCloudApiObserver', () => {
  it('records durations and errors with codes, and passes results and errors through', async () => {
    const registry = new Registry();
    const observer = createCloudApiObserver(registry, 'aws');
    expect(await observer.observe('DescribeInstances', async () => 42)).toBe(42);
    const failure = Object.assign(new Error('not found'), { name: 'InvalidInstanceID.NotFound', $metadata: { httpStatusCode: 400 } });
    await expect(observer.observe('DescribeInstances', async () => Promise.reject(failure))).rejects.toBe(failure);

    const text = await registry.metrics();
    expect(text).toContain('cloudprovider_api_request_duration_seconds_count{provider="aws",request="DescribeInstances"} 2');
    expect(text).toContain('cloudprovider_api_request_errors_total{provider="aws",request="DescribeInstances",code="InvalidInstanceID.NotFound"} 1');
  });

  it('shares the metrics between observers of one registry', async () => {
    const registry = new Registry();
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
  ])('cloudErrorCode(%o) = %s', (error, expected) => {
    expect(cloudErrorCode(error)).toBe(expected);
  });
});

describe('controller manager metrics', () => {
  it('tracks running controllers under upstream short names', async () => {
    const registry = new Registry();
    const metrics = new ControllerManagerMetrics(registry);
    metrics.controllerStarted('cloud-node-controller');
    metrics.controllerStarted('service-lb-controller');
    metrics.controllerStopped('service-lb-controller');
    const text = await registry.metrics();
    expect(text).toContain('running_managed_controllers{manager="cloud-controller-manager",name="cloud-node"} 1');
    expect(text).toContain('running_managed_controllers{manager="cloud-controller-manager",name="service"} 0');
    expect(new ControllerManagerMetrics(registry)).toBeInstanceOf(ControllerManagerMetrics);
  });

  it.each([
    ['cloud-node-controller', 'cloud-node'],
    ['cloud-node-lifecycle-controller', 'cloud-node-lifecycle'],
    ['service-lb-controller', 'service'],
    ['node-route-controller', 'route'],
  ] as const)('%s is reported as %s', (name, expected) => {
    expect(controllerMetricName(name)).toBe(expected);
  });

  it('registers build info and default process metrics', async () => {
    const registry = createMetricsRegistry();
    registerBuildInfo(registry, { version: '1.2.3', provider: 'aws' });
    const text = await registry.metrics();
    expect(text).toContain(`cloud_controller_manager_build_info{version="1.2.3",node_version="${process.version}",provider="aws"} 1`);
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_heap_size_total_bytes');
  });
});
