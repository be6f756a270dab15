/**
 * What a Service asks of the internal load balancer (upstream `ensureInternalLoadBalancer`), read
 * and validated before any cloud call (a pure function, table-tested): ports and protocol, the
 * shared or per-service backend service and health check, the subnetwork, global access, the
 * requested IP and the source ranges.
 */
import type { V1Service } from '@kubernetes/client-node';
import { PermanentInvalidServiceConfigurationError, defaultLoadBalancerName } from '@ccm/core/provider';
import { allowGlobalAccessOf, backendShareOf, internalSubnetOf, sourceRangesOf } from '../../annotations.js';
import {
  backendServiceDescription,
  backendServiceName,
  instanceGroupName,
  internalHealthCheckDescription,
  internalHealthCheckFirewallName,
  internalHealthCheckName,
} from './internal-load-balancer-names.js';
import { NODE_HEALTH_CHECK_PATH, NODE_HEALTH_CHECK_PORT } from './load-balancer-names.js';

/** Ports an internal forwarding rule lists; beyond that it takes `allPorts` (upstream `maxL4ILBPorts`). */
export const MAX_INTERNAL_FORWARDING_RULE_PORTS = 5;

export interface InternalLoadBalancerSpec {
  name: string;
  /** `<namespace>/<name>`. */
  serviceName: string;
  protocol: 'TCP' | 'UDP';
  ports: number[];
  sourceRanges: string[];
  sessionAffinity: 'NONE' | 'CLIENT_IP';
  instanceGroupName: string;
  backendService: { name: string; description: string; shared: boolean };
  healthCheck: { name: string; port: number; path: string; description: string; shared: boolean; firewallName: string };
  /** The `internal-load-balancer-subnet` annotation; undefined: the configured subnetwork. */
  subnetName: string | undefined;
  allowGlobalAccess: boolean;
  requestedIp: string | undefined;
}

function invalidField(field: string, value: string, why: string): PermanentInvalidServiceConfigurationError {
  return new PermanentInvalidServiceConfigurationError(`${field}=${JSON.stringify(value)}: ${why}`, { annotation: field, value });
}

/** What deletion needs, read leniently: a Service with a broken annotation must still be deletable. */
export interface InternalLoadBalancerNames {
  name: string;
  serviceName: string;
  instanceGroupName: string;
  backendServiceName: string;
  healthCheckName: string;
}

export function internalLoadBalancerNames(service: V1Service, clusterId: string): InternalLoadBalancerNames {
  const name = defaultLoadBalancerName(service);
  const local = service.spec?.externalTrafficPolicy === 'Local';
  let share = false;
  try {
    share = backendShareOf(service);
  } catch {
    share = false;
  }
  const protocol = service.spec?.ports?.[0]?.protocol ?? 'TCP';
  return {
    name,
    serviceName: `${service.metadata?.namespace ?? ''}/${service.metadata?.name ?? ''}`,
    instanceGroupName: instanceGroupName(clusterId),
    backendServiceName: backendServiceName(name, clusterId, share && !local, protocol, service.spec?.sessionAffinity ?? ''),
    healthCheckName: internalHealthCheckName(name, clusterId, !local),
  };
}

export function buildInternalLoadBalancerSpec(service: V1Service, clusterId: string): InternalLoadBalancerSpec {
  const name = defaultLoadBalancerName(service);
  const serviceName = `${service.metadata?.namespace ?? ''}/${service.metadata?.name ?? ''}`;
  const servicePorts = service.spec?.ports ?? [];
  if (servicePorts.length === 0) throw invalidField('spec.ports', '', 'a LoadBalancer Service needs at least one port');
  const protocols = [...new Set(servicePorts.map((port) => port.protocol ?? 'TCP'))];
  if (protocols.length > 1) throw invalidField('spec.ports[].protocol', protocols.join(','), 'mixed protocols are not supported by the GCE internal load balancer');
  const protocol = protocols[0] ?? 'TCP';
  if (protocol !== 'TCP' && protocol !== 'UDP') throw invalidField('spec.ports[].protocol', protocol, 'the GCE internal load balancer supports TCP and UDP');
  const local = service.spec?.externalTrafficPolicy === 'Local';
  let healthCheckPort = NODE_HEALTH_CHECK_PORT;
  if (local) {
    healthCheckPort = service.spec?.healthCheckNodePort ?? 0;
    if (healthCheckPort <= 0) throw invalidField('spec.healthCheckNodePort', String(healthCheckPort), 'externalTrafficPolicy Local needs a health check node port');
  }
  const sharedHealthCheck = !local;
  const sharedBackend = backendShareOf(service) && !local;
  const healthCheckName = internalHealthCheckName(name, clusterId, sharedHealthCheck);
  const requestedIp = service.spec?.loadBalancerIP?.trim();
  return {
    name,
    serviceName,
    protocol,
    ports: [...new Set(servicePorts.map((port) => port.port))].sort((a, b) => a - b),
    sourceRanges: sourceRangesOf(service),
    sessionAffinity: service.spec?.sessionAffinity === 'ClientIP' ? 'CLIENT_IP' : 'NONE',
    instanceGroupName: instanceGroupName(clusterId),
    backendService: {
      name: backendServiceName(name, clusterId, sharedBackend, protocol, service.spec?.sessionAffinity ?? ''),
      description: backendServiceDescription(serviceName, sharedBackend),
      shared: sharedBackend,
    },
    healthCheck: {
      name: healthCheckName,
      port: healthCheckPort,
      path: NODE_HEALTH_CHECK_PATH,
      description: internalHealthCheckDescription(serviceName, sharedHealthCheck),
      shared: sharedHealthCheck,
      firewallName: internalHealthCheckFirewallName(healthCheckName),
    },
    subnetName: internalSubnetOf(service),
    allowGlobalAccess: allowGlobalAccessOf(service),
    requestedIp: requestedIp === undefined || requestedIp === '' ? undefined : requestedIp,
  };
}
