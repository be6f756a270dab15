/**
 * LoadBalancer of the OpenStack provider (upstream `LbaasV2`): Octavia load balancers named
 * `kube_service_<cluster>_<namespace>_<name>` (core's service controller already leaves
 * Services with a `loadBalancerClass` alone).
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { type CloudCallOptions, type LoadBalancer, type LoadBalancerStatus } from '@ccm/core/provider';
import type { OctaviaLoadBalancerOperations } from './operations/load-balancer/octavia-load-balancers.js';

export class OpenStackLoadBalancers implements LoadBalancer {
  readonly #operations: OctaviaLoadBalancerOperations;

  constructor(operations: OctaviaLoadBalancerOperations) {
    this.#operations = operations;
  }

  getLoadBalancerName(clusterName: string, service: V1Service): string {
    return this.#operations.name(clusterName, service);
  }

  async getLoadBalancer(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<{ status: LoadBalancerStatus | undefined; exists: boolean }> {
    const status = await this.#operations.status(clusterName, service, options);
    return { status, exists: status !== undefined };
  }

  async ensureLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<LoadBalancerStatus> {
    return this.#operations.ensure(clusterName, service, nodes, options);
  }

  async updateLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<void> {
    await this.#operations.update(clusterName, service, nodes, options);
  }

  async ensureLoadBalancerDeleted(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<void> {
    await this.#operations.delete(clusterName, service, options);
  }
}
