/**
 * Which services the service controller manages and when a change needs a load balancer sync
 * (upstream `wantsLoadBalancer`, `needsCleanup`, `needsUpdate`). Pure functions.
 */
import type { V1Service, V1ServicePort } from '@kubernetes/client-node';
import { jsonEqual, type JsonValue } from '../../kube/json-value.js';
import { hasLoadBalancerFinalizer } from './service-helpers.js';

/** Type LoadBalancer and no `spec.loadBalancerClass` (any class, even empty, opts out). */
export function wantsLoadBalancer(service: V1Service): boolean {
  const spec = service.spec;
  return spec?.type === 'LoadBalancer' && (spec.loadBalancerClass === undefined || spec.loadBalancerClass === null);
}

/**
 * The service carries our cleanup finalizer and is being deleted or no longer of type
 * LoadBalancer. `loadBalancerClass` is not considered: a class-bearing service with a stale
 * finalizer takes the delete path because it does not want a load balancer.
 */
export function needsCleanup(service: V1Service): boolean {
  if (!hasLoadBalancerFinalizer(service)) return false;
  if (service.metadata?.deletionTimestamp !== undefined && service.metadata.deletionTimestamp !== null) return true;
  return service.spec?.type !== 'LoadBalancer';
}

/** Go treats nil and empty slices/maps alike for our purposes (the API server omits empties). */
const listOrEmpty = <T>(value: readonly T[] | undefined | null): readonly T[] => value ?? [];
const asJson = (value: unknown): JsonValue | undefined => (value === undefined || value === null ? undefined : (JSON.parse(JSON.stringify(value)) as JsonValue));

function portEqualForLoadBalancer(left: V1ServicePort, right: V1ServicePort): boolean {
  return (
    (left.name ?? '') === (right.name ?? '') &&
    (left.protocol ?? '') === (right.protocol ?? '') &&
    left.port === right.port &&
    (left.nodePort ?? 0) === (right.nodePort ?? 0) &&
    (left.targetPort ?? 0) === (right.targetPort ?? 0) &&
    left.appProtocol === right.appProtocol
  );
}

/** Same count and order of ports, each equal in name, protocol, port, nodePort, targetPort and appProtocol. */
export function portsEqualForLoadBalancer(left: V1Service, right: V1Service): boolean {
  const leftPorts = listOrEmpty(left.spec?.ports);
  const rightPorts = listOrEmpty(right.spec?.ports);
  return leftPorts.length === rightPorts.length && leftPorts.every((port, index) => portEqualForLoadBalancer(port, rightPorts[index] as V1ServicePort));
}

/** Go's `%v` of a string slice: `[a b]`. */
const goList = (items: readonly string[]): string => `[${items.join(' ')}]`;

/** A Normal event upstream's `needsUpdate` records on the new service. */
export interface LoadBalancerUpdateEvent {
  reason: 'Type' | 'LoadBalancerSourceRanges' | 'LoadbalancerIP' | 'ExternalIP' | 'UID' | 'ExternalTrafficPolicy' | 'HealthCheckNodePort' | 'IPFamilies';
  message: string;
}

/** Why a service update needs a load balancer sync: the log text, and the event upstream records for it (if any). */
export interface LoadBalancerUpdate {
  /** Worded like upstream's log lines, with the old and new values. */
  reason: string;
  /** Upstream records no event for ports, session affinity and annotations. */
  event?: LoadBalancerUpdateEvent;
}

const update = (reason: string, event?: LoadBalancerUpdateEvent): LoadBalancerUpdate => (event === undefined ? { reason } : { reason, event });

/**
 * Upstream `needsUpdate` as a pure planner: the first difference that needs a load balancer sync,
 * with the Normal event upstream records for it, reason and message exactly as
 * k8s.io/cloud-provider controllers/service/controller.go writes them (`Type` `ClusterIP ->
 * LoadBalancer`, `LoadBalancerSourceRanges` `[a] -> [a b]`, `LoadbalancerIP` ` -> 1.2.3.4`,
 * `ExternalIP` `Count: 0 -> 1` or `Added: 1.2.3.4`, `UID`, `ExternalTrafficPolicy`,
 * `HealthCheckNodePort`, `IPFamilies` `Count: 1 -> 2`); undefined when no update is needed.
 * Those events are k8s.io/cloud-provider's up to v1.31 (what the Go CCMs built on it record);
 * v1.32 (kubernetes PR #128179) logs the `reason` texts at V(2) instead. The controller does both.
 */
export function describeLoadBalancerUpdate(oldService: V1Service, newService: V1Service): LoadBalancerUpdate | undefined {
  const oldWants = wantsLoadBalancer(oldService);
  const newWants = wantsLoadBalancer(newService);
  if (!oldWants && !newWants) return undefined;
  const oldSpec = oldService.spec ?? {};
  const newSpec = newService.spec ?? {};
  if (oldWants !== newWants) {
    return update(`wants load balancer changed from ${oldSpec.type ?? ''} to ${newSpec.type ?? ''}`, { reason: 'Type', message: `${oldSpec.type ?? ''} -> ${newSpec.type ?? ''}` });
  }
  if (newWants && !jsonEqual(asJson(listOrEmpty(oldSpec.loadBalancerSourceRanges)), asJson(listOrEmpty(newSpec.loadBalancerSourceRanges)))) {
    const before = goList(listOrEmpty(oldSpec.loadBalancerSourceRanges));
    const after = goList(listOrEmpty(newSpec.loadBalancerSourceRanges));
    return update(`LoadBalancerSourceRanges changed from ${before} to ${after}`, { reason: 'LoadBalancerSourceRanges', message: `${before} -> ${after}` });
  }
  if (!portsEqualForLoadBalancer(oldService, newService)) return update('ports changed');
  if ((oldSpec.sessionAffinity ?? '') !== (newSpec.sessionAffinity ?? '')) return update('SessionAffinity changed');
  if (!jsonEqual(asJson(oldSpec.sessionAffinityConfig), asJson(newSpec.sessionAffinityConfig))) return update('SessionAffinityConfig changed');
  if ((oldSpec.loadBalancerIP ?? '') !== (newSpec.loadBalancerIP ?? '')) {
    return update(`LoadBalancerIP changed from ${oldSpec.loadBalancerIP ?? ''} to ${newSpec.loadBalancerIP ?? ''}`, {
      reason: 'LoadbalancerIP',
      message: `${oldSpec.loadBalancerIP ?? ''} -> ${newSpec.loadBalancerIP ?? ''}`,
    });
  }
  const oldExternalIps = listOrEmpty(oldSpec.externalIPs);
  const newExternalIps = listOrEmpty(newSpec.externalIPs);
  if (oldExternalIps.length !== newExternalIps.length) {
    return update(`ExternalIPs' count changed from ${oldExternalIps.length} to ${newExternalIps.length}`, { reason: 'ExternalIP', message: `Count: ${oldExternalIps.length} -> ${newExternalIps.length}` });
  }
  const changedIndex = oldExternalIps.findIndex((address, index) => address !== newExternalIps[index]);
  if (changedIndex !== -1) {
    return update(`ExternalIPs[${changedIndex}] changed from ${oldExternalIps[changedIndex] ?? ''} to ${newExternalIps[changedIndex] ?? ''}`, {
      reason: 'ExternalIP',
      message: `Added: ${newExternalIps[changedIndex] ?? ''}`,
    });
  }
  if (!jsonEqual(asJson(oldService.metadata?.annotations ?? {}), asJson(newService.metadata?.annotations ?? {}))) return update('annotations changed');
  if ((oldService.metadata?.uid ?? '') !== (newService.metadata?.uid ?? '')) {
    return update(`UID changed from ${oldService.metadata?.uid ?? ''} to ${newService.metadata?.uid ?? ''}`, { reason: 'UID', message: `${oldService.metadata?.uid ?? ''} -> ${newService.metadata?.uid ?? ''}` });
  }
  if ((oldSpec.externalTrafficPolicy ?? '') !== (newSpec.externalTrafficPolicy ?? '')) {
    return update(`ExternalTrafficPolicy changed from ${oldSpec.externalTrafficPolicy ?? ''} to ${newSpec.externalTrafficPolicy ?? ''}`, {
      reason: 'ExternalTrafficPolicy',
      message: `${oldSpec.externalTrafficPolicy ?? ''} -> ${newSpec.externalTrafficPolicy ?? ''}`,
    });
  }
  if ((oldSpec.healthCheckNodePort ?? 0) !== (newSpec.healthCheckNodePort ?? 0)) {
    return update(`HealthCheckNodePort changed from ${oldSpec.healthCheckNodePort ?? 0} to ${newSpec.healthCheckNodePort ?? 0}`, {
      reason: 'HealthCheckNodePort',
      message: `${oldSpec.healthCheckNodePort ?? 0} -> ${newSpec.healthCheckNodePort ?? 0}`,
    });
  }
  const oldFamilies = listOrEmpty(oldSpec.ipFamilies).length;
  const newFamilies = listOrEmpty(newSpec.ipFamilies).length;
  if (oldFamilies !== newFamilies) return update(`IPFamilies' count changed from ${oldFamilies} to ${newFamilies}`, { reason: 'IPFamilies', message: `Count: ${oldFamilies} -> ${newFamilies}` });
  return undefined;
}

/** Why {@link needsUpdate} answered true (the log text of {@link describeLoadBalancerUpdate}); undefined when no update is needed. */
export function loadBalancerUpdateReason(oldService: V1Service, newService: V1Service): string | undefined {
  return describeLoadBalancerUpdate(oldService, newService)?.reason;
}

/**
 * Upstream `needsUpdate`: wants-LB changed, source ranges (while wanted), ports, session
 * affinity (and config), loadBalancerIP, external IPs (count or by position), annotations, UID,
 * externalTrafficPolicy, healthCheckNodePort or the number of IP families. Labels and other
 * fields do not trigger an update.
 */
export function needsUpdate(oldService: V1Service, newService: V1Service): boolean {
  return describeLoadBalancerUpdate(oldService, newService) !== undefined;
}
