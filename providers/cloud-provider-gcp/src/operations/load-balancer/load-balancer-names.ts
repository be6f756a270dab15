/**
 * Names and descriptions of the external load balancer's resources, as upstream writes them
 * (`gce_loadbalancer_naming.go`): stable identifiers that let an existing cluster be adopted.
 */

/** Interval, timeout and thresholds of the legacy HTTP health checks (upstream `gceHc*`). */
export const HEALTH_CHECK_TIMING = { checkIntervalSec: 8, timeoutSec: 1, healthyThreshold: 1, unhealthyThreshold: 3 } as const;
/** kube-proxy's health port and path, probed by the shared node health check (ETP=Cluster). */
export const NODE_HEALTH_CHECK_PORT = 10256;
export const NODE_HEALTH_CHECK_PATH = '/healthz';
/** Google's L4 health-checker source ranges (upstream `--cloud-provider-gce-lb-src-cidrs` default). */
export const L4_HEALTH_CHECK_SOURCE_RANGES: readonly string[] = ['130.211.0.0/22', '209.85.152.0/22', '209.85.204.0/22', '35.191.0.0/16'];
export const FIREWALL_PRIORITY = 1000;

export const trafficFirewallName = (loadBalancerName: string): string => `k8s-fw-${loadBalancerName}`;
export const nodeHealthCheckName = (clusterId: string): string => `k8s-${clusterId}-node`;
/** Upstream `MakeHealthCheckFirewallName` for the legacy HTTP checks: shared `k8s-<id>-node-http-hc`, else `k8s-<lb>-http-hc`. */
export const healthCheckFirewallName = (loadBalancerName: string, clusterId: string, shared: boolean): string =>
  shared ? `k8s-${clusterId}-node-http-hc` : `k8s-${loadBalancerName}-http-hc`;

/** `{"kubernetes.io/service-name":"<ns>/<name>"}` on forwarding rules, target pools, addresses and per-service checks. */
export const serviceDescription = (serviceName: string): string => `{"kubernetes.io/service-name":"${serviceName}"}`;
/** The traffic firewall's description, with the load balancer IP. */
export const firewallDescription = (serviceName: string, ip: string): string => `{"kubernetes.io/service-name":"${serviceName}", "kubernetes.io/service-ip":"${ip}"}`;
/**
 * Upstream `makeHealthCheckDescription(name)` as `makeHTTPHealthCheck` calls it: the legacy HTTP
 * check is described by its own name (`k8s-<cluster ID>-node`, or the load balancer name for a
 * Local Service), not by the Service.
 */
export const healthCheckDescription = (healthCheckName: string): string => `{"kubernetes.io/service-name":"${healthCheckName}"}`;
/** The shared node health check's firewall (upstream `ensureHTTPHealthCheckFirewall`). */
export const clusterDescription = (clusterId: string): string => `{"kubernetes.io/cluster-id":"${clusterId}"}`;
