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

/**
 * Why {@link needsUpdate} answered true, worded like upstream's V(2) log lines (with the old and
 * new values where upstream logs them); undefined when no update is needed.
 */
export function loadBalancerUpdateReason(oldService: V1Service, newService: V1Service): string | undefined {
  const oldWants = wantsLoadBalancer(oldService);
  const newWants = wantsLoadBalancer(newService);
  if (!oldWants && !newWants) return undefined;
  if (oldWants !== newWants) return `wants load balancer changed from ${oldService.spec?.type ?? ''} to ${newService.spec?.type ?? ''}`;
  const oldSpec = oldService.spec ?? {};
  const newSpec = newService.spec ?? {};
  if (newWants && !jsonEqual(asJson(listOrEmpty(oldSpec.loadBalancerSourceRanges)), asJson(listOrEmpty(newSpec.loadBalancerSourceRanges)))) {
    return `LoadBalancerSourceRanges changed from ${goList(listOrEmpty(oldSpec.loadBalancerSourceRanges))} to ${goList(listOrEmpty(newSpec.loadBalancerSourceRanges))}`;
  }
  if (!portsEqualForLoadBalancer(oldService, newService)) return 'ports changed';
  if ((oldSpec.sessionAffinity ?? '') !== (newSpec.sessionAffinity ?? '')) return 'SessionAffinity changed';
  if (!jsonEqual(asJson(oldSpec.sessionAffinityConfig), asJson(newSpec.sessionAffinityConfig))) return 'SessionAffinityConfig changed';
  if ((oldSpec.loadBalancerIP ?? '') !== (newSpec.loadBalancerIP ?? '')) return `LoadBalancerIP changed from ${oldSpec.loadBalancerIP ?? ''} to ${newSpec.loadBalancerIP ?? ''}`;
  const oldExternalIps = listOrEmpty(oldSpec.externalIPs);
  const newExternalIps = listOrEmpty(newSpec.externalIPs);
  if (oldExternalIps.length !== newExternalIps.length) return `ExternalIPs' count changed from ${oldExternalIps.length} to ${newExternalIps.length}`;
  const changedIndex = oldExternalIps.findIndex((address, index) => address !== newExternalIps[index]);
  if (changedIndex !== -1) return `ExternalIPs[${changedIndex}] changed from ${oldExternalIps[changedIndex] ?? ''} to ${newExternalIps[changedIndex] ?? ''}`;
  if (!jsonEqual(asJson(oldService.metadata?.annotations ?? {}), asJson(newService.metadata?.annotations ?? {}))) return 'annotations changed';
  if ((oldService.metadata?.uid ?? '') !== (newService.metadata?.uid ?? '')) return `UID changed from ${oldService.metadata?.uid ?? ''} to ${newService.metadata?.uid ?? ''}`;
  if ((oldSpec.externalTrafficPolicy ?? '') !== (newSpec.externalTrafficPolicy ?? '')) {
    return `ExternalTrafficPolicy changed from ${oldSpec.externalTrafficPolicy ?? ''} to ${newSpec.externalTrafficPolicy ?? ''}`;
  }
  if ((oldSpec.healthCheckNodePort ?? 0) !== (newSpec.healthCheckNodePort ?? 0)) {
    return `HealthCheckNodePort changed from ${oldSpec.healthCheckNodePort ?? 0} to ${newSpec.healthCheckNodePort ?? 0}`;
  }
  if (listOrEmpty(oldSpec.ipFamilies).length !== listOrEmpty(newSpec.ipFamilies).length) {
    return `IPFamilies' count changed from ${listOrEmpty(oldSpec.ipFamilies).length} to ${listOrEmpty(newSpec.ipFamilies).length}`;
  }
  return undefined;
}

/**
 * Upstream `needsUpdate`: wants-LB changed, source ranges (while wanted), ports, session
 * affinity (and config), loadBalancerIP, external IPs (count or by position), annotations, UID,
 * externalTrafficPolicy, healthCheckNodePort or the number of IP families. Labels and other
 * fields do not trigger an update.
 */
export function needsUpdate(oldService: V1Service, newService: V1Service): boolean {
  return loadBalancerUpdateReason(oldService, newService) !== undefined;
}
