/**
 * What a Service asks of its Octavia load balancer, read and validated before any cloud call (a
 * pure function, table-tested; upstream `checkService` + the `build*CreateOpt` helpers): names,
 * internal or external, networks, one listener per port with its pool and monitor, members'
 * subnet, the requested floating IP.
 */
import type { V1Service } from '@kubernetes/client-node';
import { PermanentInvalidServiceConfigurationError } from '@ccm/core/provider';
import {
  ANNOTATIONS,
  booleanAnnotation,
  integerAnnotation,
  lbMethodAnnotation,
  nodeSelectorAnnotation,
  proxyProtocolAnnotation,
  sourceRangesOf,
  stringAnnotation,
  type LbMethod,
} from '../../annotations.js';
import type { HealthMonitorSpec, ListenerSpec, PoolSpec } from '../../ports/octavia-port.js';
import type { LoadBalancerSettings } from './load-balancer-settings.js';
import { listenerName, loadBalancerDescription, loadBalancerName, monitorName, poolName, type ServiceIdentity } from './load-balancer-names.js';

export interface PortPlan {
  index: number;
  listener: ListenerSpec;
  pool: PoolSpec;
  /** 0 with `allocateLoadBalancerNodePorts: false`: the pool gets no members (as upstream). */
  nodePort: number;
  /** Undefined: no monitor (a present one is deleted). */
  healthMonitor: HealthMonitorSpec | undefined;
}

export interface LoadBalancerSpec {
  service: ServiceIdentity;
  clusterName: string;
  name: string;
  description: string;
  internal: boolean;
  /** From an annotation or the config; else the subnet of the first node's address is looked up. */
  vipSubnetId: string | undefined;
  vipNetworkId: string | undefined;
  /** An existing VIP port named by the `port-id` annotation (never ours to delete). */
  vipPortId: string | undefined;
  memberSubnetId: string | undefined;
  floatingNetworkId: string | undefined;
  floatingSubnetId: string | undefined;
  keepFloatingIp: boolean;
  /** `spec.loadBalancerIP`: the floating IP (external) or the VIP address (internal). */
  requestedIp: string | undefined;
  hostname: string | undefined;
  /** The ID the `load-balancer-id` annotation names, to check against the Service's own. */
  namedLoadBalancerId: string | undefined;
  flavorId: string | undefined;
  availabilityZone: string | undefined;
  nodeSelector: Readonly<Record<string, string>>;
  /** `spec.healthCheckNodePort` with externalTrafficPolicy Local and a monitor, else undefined. */
  healthCheckNodePort: number | undefined;
  proxyProtocol: boolean;
  ports: PortPlan[];
}

const SUPPORTED_PROTOCOLS = new Set(['TCP', 'UDP', 'SCTP']);
const X_FORWARDED_FOR = 'X-Forwarded-For';

function invalidField(field: string, value: string, why: string): PermanentInvalidServiceConfigurationError {
  return new PermanentInvalidServiceConfigurationError(`${field}=${JSON.stringify(value)}: ${why}`, { annotation: field, value });
}

/** The monitor of a port (upstream `buildMonitorCreateOpts`): TCP / UDP-CONNECT, or HTTP /healthz for ETP=Local. */
export function healthMonitorOf(protocol: string, name: string, timing: Pick<HealthMonitorSpec, 'delaySeconds' | 'timeoutSeconds' | 'maxRetries' | 'maxRetriesDown'>, healthCheckNodePort: number | undefined): HealthMonitorSpec {
  if (healthCheckNodePort !== undefined) {
    return { name, type: 'HTTP', ...timing, httpMethod: 'GET', urlPath: '/healthz', expectedCodes: '200' };
  }
  return { name, type: protocol === 'UDP' ? 'UDP-CONNECT' : protocol, ...timing };
}

export function buildLoadBalancerSpec(service: V1Service, clusterName: string, settings: LoadBalancerSettings): LoadBalancerSpec {
  const identity: ServiceIdentity = { namespace: service.metadata?.namespace ?? '', name: service.metadata?.name ?? '' };
  const name = loadBalancerName(clusterName, identity);
  const servicePorts = service.spec?.ports ?? [];
  if (servicePorts.length === 0) throw invalidField('spec.ports', '', 'a LoadBalancer Service needs at least one port');

  // Every annotation is read before anything else, so that any bad value stops the sync.
  const internalAnnotation = booleanAnnotation(service, 'internal', settings.internal);
  const internal = settings.internal || internalAnnotation;
  const keepFloatingIp = booleanAnnotation(service, 'keepFloatingIp', false);
  const xForwardedFor = booleanAnnotation(service, 'xForwardedFor', false);
  const proxyProtocol = proxyProtocolAnnotation(service);
  const method: LbMethod = lbMethodAnnotation(service) ?? settings.method;
  const connectionLimit = integerAnnotation(service, 'connectionLimit', -1);
  const timeouts = {
    timeoutClientData: integerAnnotation(service, 'timeoutClientData', undefined),
    timeoutMemberConnect: integerAnnotation(service, 'timeoutMemberConnect', undefined),
    timeoutMemberData: integerAnnotation(service, 'timeoutMemberData', undefined),
    timeoutTcpInspect: integerAnnotation(service, 'timeoutTcpInspect', undefined),
  };
  const monitorEnabled = booleanAnnotation(service, 'enableHealthMonitor', settings.createMonitor);
  const timing = {
    delaySeconds: integerAnnotation(service, 'healthMonitorDelay', settings.monitorDelaySeconds),
    timeoutSeconds: integerAnnotation(service, 'healthMonitorTimeout', settings.monitorTimeoutSeconds),
    maxRetries: integerAnnotation(service, 'healthMonitorMaxRetries', settings.monitorMaxRetries),
    maxRetriesDown: integerAnnotation(service, 'healthMonitorMaxRetriesDown', settings.monitorMaxRetriesDown),
  };
  if (monitorEnabled && timing.timeoutSeconds > timing.delaySeconds) {
    throw invalidField(ANNOTATIONS.healthMonitorTimeout.key, String(timing.timeoutSeconds), `the monitor timeout must not exceed its delay (${timing.delaySeconds})`);
  }
  const allowedCidrs = sourceRangesOf(service);
  const nodeSelector = nodeSelectorAnnotation(service) ?? settings.nodeSelector;
  const requested = service.spec?.loadBalancerIP?.trim();

  const protocols = servicePorts.map((port) => port.protocol ?? 'TCP');
  for (const protocol of protocols) {
    if (!SUPPORTED_PROTOCOLS.has(protocol)) throw invalidField('spec.ports[].protocol', protocol, 'Octavia listeners support TCP, UDP and SCTP');
  }
  const local = service.spec?.externalTrafficPolicy === 'Local';
  // Upstream `canUseHTTPMonitor`: the OVN provider has no HTTP monitors, so no probe of the healthCheckNodePort.
  const httpMonitors = settings.provider !== 'ovn';
  const healthCheckNodePort = local && monitorEnabled && httpMonitors && (service.spec?.healthCheckNodePort ?? 0) > 0 ? service.spec?.healthCheckNodePort : undefined;

  const seen = new Set<string>();
  const ports = servicePorts.map((port, index): PortPlan => {
    const serviceProtocol = port.protocol ?? 'TCP';
    // Upstream `getListenerProtocol`: X-Forwarded-For needs an HTTP listener.
    const listenerProtocol = xForwardedFor ? 'HTTP' : serviceProtocol;
    const key = `${listenerProtocol}/${port.port}`;
    if (seen.has(key)) throw invalidField('spec.ports', key, 'two ports map to the same listener');
    seen.add(key);
    const listener: ListenerSpec = {
      name: listenerName(index, name),
      protocol: listenerProtocol,
      port: port.port,
      connectionLimit,
      allowedCidrs,
      ...Object.fromEntries(Object.entries(timeouts).filter(([, value]) => value !== undefined)),
      insertHeaders: xForwardedFor ? { [X_FORWARDED_FOR]: 'true' } : {},
      tags: [name],
    };
    const pool: PoolSpec = {
      name: poolName(index, name),
      protocol: proxyProtocol ?? listenerProtocol,
      method,
      sessionPersistence: service.spec?.sessionAffinity === 'ClientIP' ? { type: 'SOURCE_IP' } : undefined,
    };
    return {
      index,
      listener,
      pool,
      nodePort: port.nodePort ?? 0,
      healthMonitor: monitorEnabled ? healthMonitorOf(serviceProtocol, monitorName(index, name), timing, healthCheckNodePort) : undefined,
    };
  });

  return {
    service: identity,
    clusterName,
    name,
    description: loadBalancerDescription(clusterName, identity),
    internal,
    vipSubnetId: stringAnnotation(service, 'subnetId') ?? settings.subnetId,
    vipNetworkId: stringAnnotation(service, 'networkId') ?? settings.networkId,
    vipPortId: stringAnnotation(service, 'portId'),
    memberSubnetId: stringAnnotation(service, 'memberSubnetId') ?? settings.memberSubnetId,
    floatingNetworkId: stringAnnotation(service, 'floatingNetworkId') ?? settings.floatingNetworkId,
    floatingSubnetId: stringAnnotation(service, 'floatingSubnetId') ?? settings.floatingSubnetId,
    keepFloatingIp,
    requestedIp: requested === undefined || requested === '' ? undefined : requested,
    hostname: stringAnnotation(service, 'hostname'),
    namedLoadBalancerId: stringAnnotation(service, 'loadBalancerId'),
    flavorId: stringAnnotation(service, 'flavorId') ?? settings.flavorId,
    availabilityZone: stringAnnotation(service, 'availabilityZone') ?? settings.availabilityZone,
    nodeSelector,
    healthCheckNodePort,
    proxyProtocol: proxyProtocol !== undefined,
    ports,
  };
}
