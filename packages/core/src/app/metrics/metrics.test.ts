import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ControllerManagerMetrics, controllerMetricName, kubernetesBuildInfo, registerBuildInfo } from './controller-manager-metrics.js';
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
    expect(text).toContain(`kubernetes_build_info{major="1",minor="2",git_version="v1.2.3",git_commit="",git_tree_state="",build_date="1970-01-01T00:00:00Z",go_version="${process.version}",compiler="node",platform="`);
    expect(text).toContain("# HELP kubernetes_build_info [ALPHA] A metric with a constant '1' value labeled by major, minor, git version");
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_heap_size_total_bytes');
  });

  it.each([
    [{ version: 'v22.12.0', platform: 'linux', arch: 'x64' }, 'linux/amd64'],
    [{ version: 'v24.1.0', platform: 'linux', arch: 'arm64' }, 'linux/arm64'],
    [{ version: 'v20.19.0', platform: 'darwin', arch: 'ia32' }, 'darwin/386'],
  ])('kubernetes_build_info of a build on %o reads platform %s', (runtime, platform) => {
    expect(kubernetesBuildInfo('0.1.0', runtime)).toEqual({
      major: '0',
      minor: '1',
      git_version: 'v0.1.0',
      git_commit: '',
      git_tree_state: '',
      build_date: '1970-01-01T00:00:00Z',
      go_version: runtime.version,
      compiler: 'node',
      platform,
    });
  });
});
