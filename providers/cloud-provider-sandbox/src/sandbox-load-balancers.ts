import type { CloudCallOptions, LoadBalancer, LoadBalancerIngress, LoadBalancerStatus } from '@ccm/core/provider';
import type { V1Node, V1Service } from '@kubernetes/client-node';
import type { LoadBalancerIngressMode } from './config/sandbox-cloud-config.js';
import type { LoadBalancerOperations } from './operations/load-balancer-operations.js';
import { callOptions } from './call-options.js';
import type { CloudLoadBalancer } from './ports/sandbox-cloud-port.js';

export function loadBalancerStatus(loadBalancer: CloudLoadBalancer, mode: LoadBalancerIngressMode): LoadBalancerStatus {
  const ingress: LoadBalancerIngress = {};
  if (mode !== 'hostname') ingress.ip = loadBalancer.ingress.ip;
  if (mode !== 'ip') ingress.hostname = loadBalancer.ingress.hostname;
  return { ingress: [ingress] };
}

/** LoadBalancer for the sandbox: one cloud load balancer per Service, named by the default name. */
export class SandboxLoadBalancers implements LoadBalancer {
  readonly #operations: LoadBalancerOperations;
  readonly #clusterIdentity: (clusterName: string) => string;
  readonly #ingressMode: LoadBalancerIngressMode;

  constructor(operations: LoadBalancerOperations, clusterIdentity: (clusterName: string) => string, ingressMode: LoadBalancerIngressMode) {
    this.#operations = operations;
    this.#clusterIdentity = clusterIdentity;
    this.#ingressMode = ingressMode;
  }

  async getLoadBalancer(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<{ status: LoadBalancerStatus | undefined; exists: boolean }> {
    const loadBalancer = await this.#operations.get(this.#clusterIdentity(clusterName), service, callOptions(options));
    return loadBalancer === undefined ? { status: undefined, exists: false } : { status: loadBalancerStatus(loadBalancer, this.#ingressMode), exists: true };
  }

  getLoadBalancerName(_clusterName: string, service: V1Service): string {
    return this.#operations.nameFor(service);
  }

  async ensureLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<LoadBalancerStatus> {
    const loadBalancer = await this.#operations.ensure(this.#clusterIdentity(clusterName), service, nodes, callOptions(options));
    return loadBalancerStatus(loadBalancer, this.#ingressMode);
  }

  async updateLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<void> {
    await this.#operations.updateBackends(this.#clusterIdentity(clusterName), service, nodes, callOptions(options));
  }

  async ensureLoadBalancerDeleted(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<void> {
    await this.#operations.delete(this.#clusterIdentity(clusterName), service, callOptions(options));
  }
}
