import { PermanentInvalidServiceConfigurationError } from '@ccm/core/provider';
import { serviceSourceRanges } from '@ccm/core/service-input';
import type { V1Service } from '@kubernetes/client-node';
import type { CloudListener, CloudLoadBalancer, CloudLoadBalancerChanges, CloudLoadBalancerSpec } from '../ports/sandbox-cloud-port.js';
import { SANDBOX_TAGS } from '../tags.js';

/**
 * The Service asks for something the sandbox cloud cannot do: core kind `PermanentInvalidInput`
 * (one Warning event, not retried until the Service changes), naming the annotation and its
 * value when an annotation is at fault.
 */
export class LoadBalancerSpecError extends PermanentInvalidServiceConfigurationError {
  constructor(service: V1Service, reason: string, details: { annotation?: string; value?: string } = {}) {
    super(`service ${service.metadata?.namespace ?? ''}/${service.metadata?.name ?? ''}: ${reason}`, details);
    this.name = 'LoadBalancerSpecError';
  }
}

export type LoadBalancerPlan =
  | { action: 'create'; spec: CloudLoadBalancerSpec }
  | { action: 'update'; changes: CloudLoadBalancerChanges }
  | { action: 'none' };

const PROTOCOLS = new Set(['TCP', 'UDP', 'SCTP']);

/**
 * `spec.loadBalancerSourceRanges`, else the source-ranges annotation (core's `serviceSourceRanges`,
 * upstream `GetLoadBalancerSourceRanges`); [] means everyone. The sandbox cloud has no upstream
 * provider: its load balancers take no ranges as "every client", so the default is none
 * (docs/parity.md).
 */
export function sourceRangesOf(service: V1Service): string[] {
  return serviceSourceRanges(service, { whenAbsent: 'none' });
}

export function listenersOf(service: V1Service): CloudListener[] {
  return (service.spec?.ports ?? []).map((port) => {
    const protocol = port.protocol ?? 'TCP';
    if (!PROTOCOLS.has(protocol)) throw new LoadBalancerSpecError(service, `protocol ${JSON.stringify(protocol)} is not supported`);
    const listener: CloudListener = { protocol: protocol as CloudListener['protocol'], port: port.port, nodePort: port.nodePort ?? 0 };
    if (port.name !== undefined && port.name !== '') listener.name = port.name;
    return listener;
  });
}

/** Tags that mark a load balancer as this cluster's, for this Service. */
export function ownershipTags(service: V1Service, clusterIdentity: string): Record<string, string> {
  return {
    [SANDBOX_TAGS.cluster]: clusterIdentity,
    [SANDBOX_TAGS.service]: `${service.metadata?.namespace ?? ''}/${service.metadata?.name ?? ''}`,
    [SANDBOX_TAGS.serviceUid]: service.metadata?.uid ?? '',
  };
}

/** The load balancer a Service wants, with these backends. */
export function desiredLoadBalancer(name: string, service: V1Service, clusterIdentity: string, backendInstanceIds: readonly string[]): CloudLoadBalancerSpec {
  const listeners = listenersOf(service);
  if (listeners.length === 0) throw new LoadBalancerSpecError(service, 'no ports');
  const spec: CloudLoadBalancerSpec = {
    name,
    listeners,
    backendInstanceIds: [...new Set(backendInstanceIds)].sort(),
    sourceRanges: sourceRangesOf(service),
    tags: ownershipTags(service, clusterIdentity),
  };
  const healthCheckNodePort = service.spec?.externalTrafficPolicy === 'Local' ? service.spec.healthCheckNodePort : undefined;
  if (healthCheckNodePort !== undefined && healthCheckNodePort > 0) spec.healthCheckNodePort = healthCheckNodePort;
  return spec;
}

const listenerKey = (listener: CloudListener): string => `${listener.protocol}/${listener.port}/${listener.nodePort}/${listener.name ?? ''}`;
const sameList = (left: readonly string[], right: readonly string[]): boolean => left.length === right.length && left.every((item, index) => item === right[index]);

/** Compares what the Service wants with what the cloud has; the smallest change, or none. */
export function planLoadBalancer(desired: CloudLoadBalancerSpec, observed: CloudLoadBalancer | undefined): LoadBalancerPlan {
  if (observed === undefined) return { action: 'create', spec: desired };
  const changes: CloudLoadBalancerChanges = {};
  if (!sameList(desired.listeners.map(listenerKey).sort(), observed.listeners.map(listenerKey).sort())) changes.listeners = desired.listeners;
  if (!sameList(desired.backendInstanceIds, [...observed.backendInstanceIds].sort())) changes.backendInstanceIds = desired.backendInstanceIds;
  if (!sameList([...desired.sourceRanges].sort(), [...observed.sourceRanges].sort())) changes.sourceRanges = desired.sourceRanges;
  if (desired.healthCheckNodePort !== observed.healthCheckNodePort) changes.healthCheckNodePort = desired.healthCheckNodePort ?? null;
  if (Object.entries(desired.tags).some(([key, value]) => observed.tags[key] !== value)) changes.tags = { ...observed.tags, ...desired.tags };
  return Object.keys(changes).length === 0 ? { action: 'none' } : { action: 'update', changes };
}
