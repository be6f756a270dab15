/**
 * Controller-manager level metrics (component-base `controllers` metrics and a build info gauge):
 * - `running_managed_controllers{manager="cloud-controller-manager",name}`: 1 while a controller
 *   runs; names are upstream's short ones (cloud-node, cloud-node-lifecycle, service, route);
 * - `cloud_controller_manager_build_info{version,node_version,provider}`: always 1;
 * - `kubernetes_build_info{major,minor,git_version,git_commit,git_tree_state,build_date,go_version,compiler,platform}`:
 *   component-base's build gauge, always 1, with our build's values (`kubernetesBuildInfo`).
 */
import { Gauge, type Registry } from 'prom-client';
import { CONTROLLER_ALIASES } from '../../names/controller-names.js';
import { getOrCreateMetric } from './get-or-create-metric.js';

export const CONTROLLER_MANAGER_NAME = 'cloud-controller-manager';

/** Upstream reports controllers under their short (alias) names: `cloud-node`, `service`, ... */
export function controllerMetricName(name: string): string {
  return Object.entries(CONTROLLER_ALIASES).find(([, canonical]) => canonical === name)?.[0] ?? name;
}

export class ControllerManagerMetrics {
  readonly #running: Gauge<'manager' | 'name'>;

  constructor(registry: Registry) {
    this.#running = getOrCreateMetric(
      registry,
      'running_managed_controllers',
      () =>
        new Gauge({
          name: 'running_managed_controllers',
          help: 'Indicates where instances of a controller are currently running',
          labelNames: ['manager', 'name'] as const,
          registers: [registry],
        }),
    );
  }

  controllerStarted(name: string): void {
    this.#running.inc({ manager: CONTROLLER_MANAGER_NAME, name: controllerMetricName(name) });
  }

  controllerStopped(name: string): void {
    this.#running.dec({ manager: CONTROLLER_MANAGER_NAME, name: controllerMetricName(name) });
  }
}

export function registerBuildInfo(registry: Registry, info: { version: string; provider: string }): void {
  const gauge = getOrCreateMetric(
    registry,
    'cloud_controller_manager_build_info',
    () =>
      new Gauge({
        name: 'cloud_controller_manager_build_info',
        help: 'A metric with a constant 1 value labeled by the version of the cloud-controller-manager, the Node.js version and the cloud provider.',
        labelNames: ['version', 'node_version', 'provider'] as const,
        registers: [registry],
      }),
  );
  gauge.set({ version: info.version, node_version: process.version, provider: info.provider }, 1);
  const kubernetes = getOrCreateMetric(
    registry,
    'kubernetes_build_info',
    () =>
      new Gauge({
        name: 'kubernetes_build_info',
        help: "[ALPHA] A metric with a constant '1' value labeled by major, minor, git version, git commit, git tree state, build date, Go version, and compiler from which Kubernetes was built, and platform on which it is running.",
        labelNames: KUBERNETES_BUILD_INFO_LABELS,
        registers: [registry],
      }),
  );
  kubernetes.set(kubernetesBuildInfo(info.version), 1);
}

/** component-base's label names of `kubernetes_build_info`, in its order. */
export const KUBERNETES_BUILD_INFO_LABELS = ['major', 'minor', 'git_version', 'git_commit', 'git_tree_state', 'build_date', 'go_version', 'compiler', 'platform'] as const;

/** Go's GOARCH for Node's `process.arch`, as upstream's `platform` label spells it (`linux/amd64`). */
const GO_ARCHITECTURES: Readonly<Record<string, string>> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64' };

/**
 * The labels of `kubernetes_build_info` for this build: major and minor from our version
 * (`0.1.0` -> `0`, `1`), `git_version` `v<version>`; the commit, tree state and build date are not
 * stamped into our builds, so they read as an unstamped Go build's (`""`, `""`,
 * `1970-01-01T00:00:00Z`); `go_version` carries the Node.js version (our runtime), `compiler`
 * `node`, `platform` `<os>/<arch>` in Go's words.
 */
export function kubernetesBuildInfo(version: string, runtime: { version: string; platform: string; arch: string } = process): Record<(typeof KUBERNETES_BUILD_INFO_LABELS)[number], string> {
  const [major = '', minor = ''] = version.replace(/^v/, '').split('.');
  return {
    major,
    minor,
    git_version: version.startsWith('v') ? version : `v${version}`,
    git_commit: '',
    git_tree_state: '',
    build_date: '1970-01-01T00:00:00Z',
    go_version: runtime.version,
    compiler: 'node',
    platform: `${runtime.platform}/${GO_ARCHITECTURES[runtime.arch] ?? runtime.arch}`,
  };
}
