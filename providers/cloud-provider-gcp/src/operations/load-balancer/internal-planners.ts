/**
 * Pure planners of the internal load balancer (table-tested), after upstream
 * `gce_loadbalancer_internal.go`: nodes per zone from their labels (no API look-up), instance
 * group membership as a diff, when a forwarding rule must be recreated, when a backend service
 * must be updated, the health check to write, the IP to ask for.
 */
import type { V1Node } from '@kubernetes/client-node';
import type { GceBackendService, GceForwardingRule, GceHealthCheck } from '../../ports/compute-port.js';
import { instanceNameOfNode } from '../../provider-id.js';
import { nameOfLink, resourcePath, sameResource } from '../resource-links.js';
import { HEALTH_CHECK_TIMING } from './load-balancer-names.js';
import { MAX_INTERNAL_FORWARDING_RULE_PORTS, type InternalLoadBalancerSpec } from './internal-load-balancer-spec.js';

/** Instances an unmanaged instance group holds (upstream `maxInstancesPerInstanceGroup`). */
export const MAX_INSTANCES_PER_INSTANCE_GROUP = 1000;
export const ZONE_LABELS = ['topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone'] as const;
/** Nodes of another subnetwork (multi-subnet clusters) are left out of the instance groups. */
export const NODE_POOL_SUBNET_LABEL = 'cloud.google.com/gke-node-pool-subnet';

export interface NodesByZone {
  /** Zone -> instance names, sorted. */
  zoned: Map<string, string[]>;
  /** Instance names of nodes without a zone label: never added, never removed. */
  withoutZone: string[];
}

/** Upstream `removeNodesInNonDefaultNetworks` + `splitNodesByZone`. */
export function nodesByZone(nodes: readonly V1Node[], defaultSubnetName: string): NodesByZone {
  const zoned = new Map<string, string[]>();
  const withoutZone: string[] = [];
  for (const node of nodes) {
    const labels = node.metadata?.labels ?? {};
    const subnet = labels[NODE_POOL_SUBNET_LABEL];
    if (defaultSubnetName !== '' && subnet !== undefined && subnet !== '' && subnet !== defaultSubnetName) continue;
    const name = instanceNameOfNode(node.metadata?.name ?? '');
    if (name === '') continue;
    const zone = ZONE_LABELS.map((label) => labels[label]).find((value) => value !== undefined && value !== '');
    if (zone === undefined) withoutZone.push(name);
    else zoned.set(zone, [...(zoned.get(zone) ?? []), name]);
  }
  for (const [zone, names] of zoned) zoned.set(zone, [...new Set(names)].sort());
  return { zoned, withoutZone: [...new Set(withoutZone)].sort() };
}

export interface InstanceGroupMembershipPlan {
  /** Instance names to add. */
  add: string[];
  /** Instance URLs to remove. */
  remove: string[];
}

/** Members to add and remove; at most the first 1000 names are kept, members without a zone label stay. */
export function planInstanceGroupMembers(desiredNames: readonly string[], observedUrls: readonly string[], keepNames: readonly string[]): InstanceGroupMembershipPlan {
  const desired = new Set([...new Set(desiredNames)].sort().slice(0, MAX_INSTANCES_PER_INSTANCE_GROUP));
  const keep = new Set(keepNames);
  const observedNames = new Set(observedUrls.map(nameOfLink));
  return {
    add: [...desired].filter((name) => !observedNames.has(name)),
    remove: observedUrls.filter((url) => !desired.has(nameOfLink(url)) && !keep.has(nameOfLink(url))),
  };
}

/** `ports` (up to 5) or `allPorts` (upstream: more than `maxL4ILBPorts`). */
export function internalForwardingRulePorts(ports: readonly number[]): Pick<GceForwardingRule, 'ports' | 'allPorts'> {
  return ports.length > MAX_INTERNAL_FORWARDING_RULE_PORTS ? { allPorts: true } : { ports: ports.map(String) };
}

const sameSet = (left: readonly string[] | undefined, right: readonly string[] | undefined): boolean => {
  const a = new Set(left ?? []);
  const b = new Set(right ?? []);
  return a.size === b.size && [...a].every((value) => b.has(value));
};

const samePath = (left: string | undefined, right: string | undefined): boolean => (left ?? '') === (right ?? '') || sameResource(left, right);

/** Upstream `forwardingRulesEqual` negated: IP (when both have one), protocol, scheme, ports, all-ports, backend, global access, subnetwork. */
export function internalForwardingRuleNeedsRecreation(observed: GceForwardingRule, desired: GceForwardingRule): boolean {
  const ipDiffers = observed.IPAddress !== undefined && desired.IPAddress !== undefined && observed.IPAddress !== desired.IPAddress;
  return (
    ipDiffers ||
    (observed.IPProtocol ?? 'TCP') !== (desired.IPProtocol ?? 'TCP') ||
    (observed.loadBalancingScheme ?? 'EXTERNAL') !== (desired.loadBalancingScheme ?? 'EXTERNAL') ||
    !sameSet(observed.ports, desired.ports) ||
    (observed.allPorts ?? false) !== (desired.allPorts ?? false) ||
    !samePath(observed.backendService, desired.backendService) ||
    (observed.allowGlobalAccess ?? false) !== (desired.allowGlobalAccess ?? false) ||
    !samePath(observed.subnetwork, desired.subnetwork)
  );
}

/** Upstream `backendSvcEqual` negated: protocol, description, affinity, scheme, health checks and backend groups. */
export function backendServiceNeedsUpdate(desired: GceBackendService, observed: GceBackendService): boolean {
  const paths = (links: readonly string[]): string[] => links.map(resourcePath);
  return (
    (desired.protocol ?? '') !== (observed.protocol ?? '') ||
    (desired.description ?? '') !== (observed.description ?? '') ||
    (desired.sessionAffinity ?? 'NONE') !== (observed.sessionAffinity ?? 'NONE') ||
    (desired.loadBalancingScheme ?? '') !== (observed.loadBalancingScheme ?? '') ||
    !sameSet(paths(desired.healthChecks), paths(observed.healthChecks)) ||
    !sameSet(paths(desired.backends.map((backend) => backend.group)), paths(observed.backends.map((backend) => backend.group)))
  );
}

/**
 * The HTTP health check to write, or undefined when the observed one is fine (upstream
 * `needToUpdateHealthChecks` + `mergeHealthChecks`): not HTTP, port, path or description differ,
 * or a timing below the default; larger timings someone set are kept.
 */
export function planInternalHealthCheck(spec: InternalLoadBalancerSpec['healthCheck'], observed: GceHealthCheck | undefined): GceHealthCheck | undefined {
  const desired: GceHealthCheck = { name: spec.name, type: 'HTTP', port: spec.port, requestPath: spec.path, description: spec.description, ...HEALTH_CHECK_TIMING };
  if (observed === undefined) return desired;
  const needsUpdate =
    observed.type !== 'HTTP' ||
    observed.port !== desired.port ||
    observed.requestPath !== desired.requestPath ||
    (observed.description ?? '') !== desired.description ||
    observed.checkIntervalSec < desired.checkIntervalSec ||
    observed.timeoutSec < desired.timeoutSec ||
    observed.healthyThreshold < desired.healthyThreshold ||
    observed.unhealthyThreshold < desired.unhealthyThreshold;
  if (!needsUpdate) return undefined;
  return {
    ...desired,
    checkIntervalSec: Math.max(observed.checkIntervalSec, desired.checkIntervalSec),
    timeoutSec: Math.max(observed.timeoutSec, desired.timeoutSec),
    healthyThreshold: Math.max(observed.healthyThreshold, desired.healthyThreshold),
    unhealthyThreshold: Math.max(observed.unhealthyThreshold, desired.unhealthyThreshold),
  };
}

/** Upstream `ilbIPToUse`: the requested IP, else the existing rule's IP unless the subnetwork changes, else none (allocated). */
export function internalIpToUse(requestedIp: string | undefined, existing: GceForwardingRule | undefined, subnetworkUrl: string): string | undefined {
  if (requestedIp !== undefined) return requestedIp;
  if (existing === undefined || !samePath(existing.subnetwork, subnetworkUrl)) return undefined;
  return existing.IPAddress;
}
