import type { V1Node, V1Service } from '@kubernetes/client-node';
import type { CloudCallOptions } from './instances.js';

export interface PortStatus {
  port: number;
  protocol: string;
  error?: string;
}

export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ipMode?: 'VIP' | 'Proxy';
  ports?: PortStatus[];
}

/** `status.loadBalancer` of a Service. */
export interface LoadBalancerStatus {
  ingress?: LoadBalancerIngress[];
}

/**
 * Upstream `cloudprovider.LoadBalancer`. Inputs are read-only: never mutate the service or nodes.
 *
 * ImplementedElsewhere contract: `ensureLoadBalancer` and `updateLoadBalancer` may throw
 * `ImplementedElsewhereError`; `ensureLoadBalancerDeleted` must not.
 * `ensureLoadBalancer` may throw a `RetryError` for a fixed retry delay.
 */
export interface LoadBalancer {
  getLoadBalancer(
    clusterName: string,
    service: V1Service,
    options?: CloudCallOptions,
  ): Promise<{ status: LoadBalancerStatus | undefined; exists: boolean }>;
  getLoadBalancerName(clusterName: string, service: V1Service): string;
  ensureLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<LoadBalancerStatus>;
  /** Updates backend hosts only. */
  updateLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<void>;
  /** Must resolve when the load balancer is already gone. */
  ensureLoadBalancerDeleted(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<void>;
}

/** Deprecated upstream helper: "a" + UID without dashes, truncated to 32 characters. */
export function defaultLoadBalancerName(service: V1Service): string {
  const uid = (service.metadata?.uid ?? '').replaceAll('-', '');
  return `a${uid}`.slice(0, 32);
}
