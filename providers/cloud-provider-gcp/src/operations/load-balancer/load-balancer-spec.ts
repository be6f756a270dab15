/**
 * What a Service asks of the external network load balancer, read and validated before any
 * cloud call (a pure function, table-tested): ports and protocol, source ranges, affinity, tier,
 * the requested IP and the health check of its traffic policy.
 */
import type { V1Service } from '@kubernetes/client-node';
import { PermanentInvalidServiceConfigurationError, defaultLoadBalancerName } from '@ccm/core/provider';
import { networkTierOf, sourceRangesOf, type NetworkTier } from '../../annotations.js';
import { clusterDescription, healthCheckDescription, healthCheckFirewallName, NODE_HEALTH_CHECK_PATH, NODE_HEALTH_CHECK_PORT, nodeHealthCheckName } from './load-balancer-names.js';

export interface HealthCheckSpec {
  name: string;
  port: number;
  path: string;
  /** The check's description (upstream `makeHealthCheckDescription` of its name). */
  description: string;
  /** The shared check's firewall description (the cluster ID); a Local Service's names the Service and its IP. */
  firewallDescription: string | undefined;
  /** The cluster-wide node check (ETP=Cluster) rather than the Service's own (ETP=Local). */
  shared: boolean;
  firewallName: string;
}

export interface ExternalLoadBalancerSpec {
  name: string;
  /** `<namespace>/<name>`. */
  serviceName: string;
  protocol: 'TCP' | 'UDP';
  ports: number[];
  /** `<min>-<max>` of the ports. */
  portRange: string;
  sourceRanges: string[];
  sessionAffinity: 'NONE' | 'CLIENT_IP';
  networkTier: NetworkTier;
  /** True when the tier annotation is present: resources of another tier are recreated. */
  networkTierExplicit: boolean;
  requestedIp: string | undefined;
  healthCheck: HealthCheckSpec;
}

function invalidField(field: string, value: string, why: string): PermanentInvalidServiceConfigurationError {
  return new PermanentInvalidServiceConfigurationError(`${field}=${JSON.stringify(value)}: ${why}`, { annotation: field, value });
}

export function buildExternalLoadBalancerSpec(service: V1Service, clusterId: string): ExternalLoadBalancerSpec {
  const name = defaultLoadBalancerName(service);
  const serviceName = `${service.metadata?.namespace ?? ''}/${service.metadata?.name ?? ''}`;
  const servicePorts = service.spec?.ports ?? [];
  if (servicePorts.length === 0) throw invalidField('spec.ports', '', 'a LoadBalancer Service needs at least one port');
  const protocols = [...new Set(servicePorts.map((port) => port.protocol ?? 'TCP'))];
  if (protocols.length > 1) throw invalidField('spec.ports[].protocol', protocols.join(','), 'mixed protocols are not supported by the GCE network load balancer');
  const protocol = protocols[0] ?? 'TCP';
  if (protocol !== 'TCP' && protocol !== 'UDP') throw invalidField('spec.ports[].protocol', protocol, 'the GCE network load balancer supports TCP and UDP');
  const ports = [...new Set(servicePorts.map((port) => port.port))].sort((a, b) => a - b);
  const { tier, explicit } = networkTierOf(service);
  const local = service.spec?.externalTrafficPolicy === 'Local';
  let healthCheck: HealthCheckSpec;
  if (local) {
    const port = service.spec?.healthCheckNodePort ?? 0;
    if (port <= 0) throw invalidField('spec.healthCheckNodePort', String(port), 'externalTrafficPolicy Local needs a health check node port');
    healthCheck = {
      name,
      port,
      path: NODE_HEALTH_CHECK_PATH,
      description: healthCheckDescription(name),
      firewallDescription: undefined,
      shared: false,
      firewallName: healthCheckFirewallName(name, clusterId, false),
    };
  } else {
    healthCheck = {
      name: nodeHealthCheckName(clusterId),
      port: NODE_HEALTH_CHECK_PORT,
      path: NODE_HEALTH_CHECK_PATH,
      description: healthCheckDescription(nodeHealthCheckName(clusterId)),
      firewallDescription: clusterDescription(clusterId),
      shared: true,
      firewallName: healthCheckFirewallName(name, clusterId, true),
    };
  }
  const requestedIp = service.spec?.loadBalancerIP?.trim();
  return {
    name,
    serviceName,
    protocol,
    ports,
    portRange: `${ports[0]}-${ports.at(-1)}`,
    sourceRanges: sourceRangesOf(service),
    sessionAffinity: service.spec?.sessionAffinity === 'ClientIP' ? 'CLIENT_IP' : 'NONE',
    networkTier: tier,
    networkTierExplicit: explicit,
    requestedIp: requestedIp === undefined || requestedIp === '' ? undefined : requestedIp,
    healthCheck,
  };
}
