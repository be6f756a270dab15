import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ControllerManagerMetrics, controllerMetricName, registerBuildInfo } from './controller-manager-metrics.js';
import { createMetricsRegistry } from './create-metrics-registry.js';

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
