/**
 * Pure planners of the external network load balancer (table-tested): what to change given what
 * the cloud has. Updates are diffs; resources that cannot be changed in place (forwarding rules,
 * target pools) are recreated only when a field that matters differs.
 */
import type { GceFirewall, GceForwardingRule, GceHttpHealthCheck, GceTargetPool } from '../../ports/compute-port.js';
import { resourcePath, sameResource } from '../resource-links.js';
import { HEALTH_CHECK_TIMING } from './load-balancer-names.js';
import type { HealthCheckSpec } from './load-balancer-spec.js';

/** Ports as firewall port strings, consecutive ports merged into ranges: [80, 81, 443] -> ["80-81", "443"]. */
export function firewallPorts(ports: readonly number[]): string[] {
  const sorted = [...new Set(ports)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let index = 0; index < sorted.length; ) {
    const first = sorted[index] ?? 0;
    let last = first;
    while (sorted[index + 1] === last + 1) {
      index++;
      last = sorted[index] ?? last;
    }
    ranges.push(first === last ? String(first) : `${first}-${last}`);
    index++;
  }
  return ranges;
}

const sortedEqual = (left: readonly string[], right: readonly string[]): boolean => {
  const a = [...left].sort();
  const b = [...right].sort();
  return a.length === b.length && a.every((value, index) => value === b[index]);
};

/** True when the observed firewall differs from the desired one in anything the CCM sets. */
export function firewallNeedsUpdate(desired: GceFirewall, observed: GceFirewall): boolean {
  const allowedKey = (firewall: GceFirewall): string[] => firewall.allowed.map((rule) => `${rule.IPProtocol.toLowerCase()}:${[...(rule.ports ?? [])].sort().join(',')}`);
  return (
    (desired.description ?? '') !== (observed.description ?? '') ||
    !sortedEqual(desired.sourceRanges, observed.sourceRanges) ||
    !sortedEqual(desired.destinationRanges, observed.destinationRanges) ||
    !sortedEqual(desired.targetTags, observed.targetTags) ||
    !sortedEqual(allowedKey(desired), allowedKey(observed)) ||
    (desired.priority ?? 1000) !== (observed.priority ?? 1000) ||
    resourcePath(desired.network) !== resourcePath(observed.network)
  );
}

/**
 * Upstream `ensureHTTPHealthCheckFirewall`'s drift check of a health-check firewall: the
 * description, one allowed entry with the same protocol and ports, and the source ranges. Its
 * destinations, target tags, priority and network are not compared (upstream leaves them as made).
 */
export function healthCheckFirewallNeedsUpdate(desired: GceFirewall, observed: GceFirewall): boolean {
  const [wanted] = desired.allowed;
  const [allowed] = observed.allowed;
  return (
    (desired.description ?? '') !== (observed.description ?? '') ||
    observed.allowed.length !== 1 ||
    allowed?.IPProtocol.toLowerCase() !== wanted?.IPProtocol.toLowerCase() ||
    !sortedEqual(allowed?.ports ?? [], wanted?.ports ?? []) ||
    !sortedEqual(desired.sourceRanges, observed.sourceRanges)
  );
}

/**
 * The health check to write, or undefined when the observed one is fine (upstream
 * `needToUpdateHTTPHealthChecks` + `mergeHTTPHealthChecks`): port, path or description differ, or
 * a timing is below the default; larger timings someone set are kept.
 */
export function planHealthCheck(spec: HealthCheckSpec, observed: GceHttpHealthCheck | undefined): GceHttpHealthCheck | undefined {
  const desired: GceHttpHealthCheck = { name: spec.name, port: spec.port, requestPath: spec.path, description: spec.description, ...HEALTH_CHECK_TIMING };
  if (observed === undefined) return desired;
  const merged: GceHttpHealthCheck = {
    ...desired,
    checkIntervalSec: Math.max(observed.checkIntervalSec, desired.checkIntervalSec),
    timeoutSec: Math.max(observed.timeoutSec, desired.timeoutSec),
    healthyThreshold: Math.max(observed.healthyThreshold, desired.healthyThreshold),
    unhealthyThreshold: Math.max(observed.unhealthyThreshold, desired.unhealthyThreshold),
  };
  const same =
    observed.port === merged.port &&
    observed.requestPath === merged.requestPath &&
    (observed.description ?? '') === merged.description &&
    observed.checkIntervalSec === merged.checkIntervalSec &&
    observed.timeoutSec === merged.timeoutSec &&
    observed.healthyThreshold === merged.healthyThreshold &&
    observed.unhealthyThreshold === merged.unhealthyThreshold;
  return same ? undefined : merged;
}

export interface TargetPoolMembershipPlan {
  add: string[];
  remove: string[];
}

/** Instances to add to and remove from a pool, compared by resource path. */
export function planTargetPoolMembers(desiredInstanceUrls: readonly string[], observed: GceTargetPool): TargetPoolMembershipPlan {
  const have = new Set(observed.instances.map(resourcePath));
  const want = new Set(desiredInstanceUrls.map(resourcePath));
  return {
    add: desiredInstanceUrls.filter((url) => !have.has(resourcePath(url))),
    remove: observed.instances.filter((url) => !want.has(resourcePath(url))),
  };
}

/** A pool must be recreated when its affinity or its health check changed (an ETP switch). */
export function targetPoolNeedsRecreation(observed: GceTargetPool, sessionAffinity: string, healthCheckUrl: string): boolean {
  const affinity = observed.sessionAffinity ?? 'NONE';
  return affinity !== sessionAffinity || observed.healthChecks.length !== 1 || !sameResource(observed.healthChecks[0], healthCheckUrl);
}

/** A forwarding rule must be recreated when its IP, port range, protocol, tier or target changed. */
export function forwardingRuleNeedsRecreation(observed: GceForwardingRule, desired: Required<Pick<GceForwardingRule, 'IPAddress' | 'IPProtocol' | 'portRange' | 'target' | 'networkTier'>>): boolean {
  return (
    observed.IPAddress !== desired.IPAddress ||
    (observed.IPProtocol ?? 'TCP') !== desired.IPProtocol ||
    observed.portRange !== desired.portRange ||
    (observed.networkTier ?? 'PREMIUM') !== desired.networkTier ||
    !sameResource(observed.target, desired.target)
  );
}
