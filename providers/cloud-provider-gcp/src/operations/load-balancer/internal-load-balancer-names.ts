/**
 * Names and descriptions of the internal load balancer's resources, as upstream writes them
 * (`gce_loadbalancer_naming.go`, `gce_loadbalancer_internal.go`), so an existing cluster's ILBs
 * are adopted: the shared per-zone instance groups, the shared or per-service backend service,
 * health check and their firewalls.
 */
import { createHash } from 'node:crypto';

/** Upstream `makeInstanceGroupName`: `k8s-ig--<cluster ID>`, or `k8s-ig` without an ID. */
export const instanceGroupName = (clusterId: string): string => (clusterId === '' ? 'k8s-ig' : `k8s-ig--${clusterId}`);

/**
 * Upstream `makeBackendServiceName`: the load balancer name, or when shared
 * `k8s-<cluster ID>-internal-<tcp|udp>-nmv1-<first 16 hex of sha1(sessionAffinity)>`.
 */
export function backendServiceName(loadBalancerName: string, clusterId: string, shared: boolean, protocol: string, sessionAffinity: string): string {
  if (!shared) return loadBalancerName;
  const hash = createHash('sha1').update(sessionAffinity).digest('hex').slice(0, 16);
  return `k8s-${clusterId}-internal-${protocol.toLowerCase()}-nmv1-${hash}`;
}

/** Upstream `makeBackendServiceDescription`: empty when shared. */
export const backendServiceDescription = (serviceName: string, shared: boolean): string => (shared ? '' : `{"kubernetes.io/service-name":"${serviceName}"}`);

/** Upstream `makeHealthCheckName`: the shared `k8s-<cluster ID>-node` (ETP=Cluster) or the load balancer name (ETP=Local). */
export const internalHealthCheckName = (loadBalancerName: string, clusterId: string, shared: boolean): string => (shared ? `k8s-${clusterId}-node` : loadBalancerName);

/** Upstream `makeHealthCheckFirewallNameFromHC`: the health check's name + `-hc` (`k8s-<id>-node-hc`, `<lb>-hc`). */
export const internalHealthCheckFirewallName = (healthCheckName: string): string => `${healthCheckName}-hc`;

/** Upstream `newInternalLBHealthCheck`: no description on the shared check. */
export const internalHealthCheckDescription = (serviceName: string, shared: boolean): string => (shared ? '' : `{"kubernetes.io/service-name":"${serviceName}"}`);
