/**
 * LoadBalancer of the OpenStack provider (upstream `LbaasV2`): Octavia load balancers named
 * `kube_service_<cluster>_<namespace>_<name>` (core's service controller already leaves
 * Services with a `loadBalancerClass` alone).
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import type { CloudApiObserver } from '@ccm/core/cloud';
import { type CloudCallOptions, type LoadBalancer, type LoadBalancerStatus } from '@ccm/core/provider';
import { OPENSTACK_RECONCILE_OPERATIONS } from './metrics/upstream-metrics.js';
import type { OctaviaLoadBalancerOperations } from './operations/load-balancer/octavia-load-balancers.js';

export class OpenStackLoadBalancers implements LoadBalancer {
  readonly #operations: OctaviaLoadBalancerOperations;
  /** Times the reconciles into upstream's `cloudprovider_openstack_reconcile_*` series (none without metrics). */
  readonly #reconciles: CloudApiObserver | undefined;

  constructor(operations: OctaviaLoadBalancerOperations, reconciles?: CloudApiObserver) {
    this.#operations = operations;
    this.#reconciles = reconciles;
  }

  #reconcile<T>(operation: string, run: () => Promise<T>): Promise<T> {
    return this.#reconciles === undefined ? run() : this.#reconciles.observe(operation, run);
  }

  getLoadBalancerName(clusterName: string, service: V1Service): string {
    return this.#operations.name(clusterName, service);
  }

  async getLoadBalancer(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<{ status: LoadBalancerStatus | undefined; exists: boolean }> {
    const status = await this.#operations.status(clusterName, service, options);
    return { status, exists: status !== undefined };
  }

  async ensureLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<LoadBalancerStatus> {
    return this.#reconcile(OPENSTACK_RECONCILE_OPERATIONS.ensure, () => this.#operations.ensure(clusterName, service, nodes, options));
  }

  async updateLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<void> {
    await this.#reconcile(OPENSTACK_RECONCILE_OPERATIONS.update, () => this.#operations.update(clusterName, service, nodes, options));
  }

  async ensureLoadBalancerDeleted(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<void> {
    await this.#reconcile(OPENSTACK_RECONCILE_OPERATIONS.delete, () => this.#operations.delete(clusterName, service, options));
  }
}
