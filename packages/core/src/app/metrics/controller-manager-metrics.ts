/**
 * Controller-manager level metrics (component-base `controllers` metrics and a build info gauge):
 * - `running_managed_controllers{manager="cloud-controller-manager",name}`: 1 while a controller
 *   runs; names are upstream's short ones (cloud-node, cloud-node-lifecycle, service, route);
 * - `cloud_controller_manager_build_info{version,node_version,provider}`: always 1.
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
}
