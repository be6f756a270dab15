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
  /** The last change queued per load balancer name: changes of one Service run one after another. */
  readonly #queued = new Map<string, Promise<void>>();

  constructor(operations: OctaviaLoadBalancerOperations, reconciles?: CloudApiObserver) {
    this.#operations = operations;
    this.#reconciles = reconciles;
  }

  /**
   * Runs `run` after every change already queued for this Service's load balancer has ended. Core's
   * node sync (`updateLoadBalancer`) and Service sync (`ensure...`) may act on one Service at the
   * same time; Octavia refuses changes while a load balancer is PENDING_*, and an update that
   * deletes and recreates children under a cascade delete left the load balancer behind (seen in
   * the OpenStack chaos run). Changes of different Services still run side by side.
   */
  #reconcile<T>(operation: string, clusterName: string, service: V1Service, run: () => Promise<T>): Promise<T> {
    const key = this.#operations.name(clusterName, service);
    const observed = (): Promise<T> => (this.#reconciles === undefined ? run() : this.#reconciles.observe(operation, run));
    const previous = this.#queued.get(key) ?? Promise.resolve();
    const result = previous.then(observed);
    const ended = result.then(
      () => undefined,
      () => undefined,
    );
    this.#queued.set(key, ended);
    void ended.then(() => {
      if (this.#queued.get(key) === ended) this.#queued.delete(key);
    });
    return result;
  }

  getLoadBalancerName(clusterName: string, service: V1Service): string {
    return this.#operations.name(clusterName, service);
  }

  async getLoadBalancer(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<{ status: LoadBalancerStatus | undefined; exists: boolean }> {
    const status = await this.#operations.status(clusterName, service, options);
    return { status, exists: status !== undefined };
  }

  async ensureLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<LoadBalancerStatus> {
    return this.#reconcile(OPENSTACK_RECONCILE_OPERATIONS.ensure, clusterName, service, () => this.#operations.ensure(clusterName, service, nodes, options));
  }

  async updateLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<void> {
    await this.#reconcile(OPENSTACK_RECONCILE_OPERATIONS.update, clusterName, service, () => this.#operations.update(clusterName, service, nodes, options));
  }

  async ensureLoadBalancerDeleted(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<void> {
    await this.#reconcile(OPENSTACK_RECONCILE_OPERATIONS.delete, clusterName, service, () => this.#operations.delete(clusterName, service, options));
  }
}
