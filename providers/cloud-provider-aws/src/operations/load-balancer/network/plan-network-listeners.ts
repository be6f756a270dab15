/**
 * Pure planners for NLB listeners, target groups and targets (upstream `ensureLoadBalancerv2`,
 * `ensureTargetGroup`, `diffTargetGroupTargets`).
 *
 * Listeners are matched by port (an NLB has at most one listener per port). A listener whose
 * target group name differs from the desired one gets a new target group: the name hashes every
 * input that upstream recreates a target group for (ports, protocols, health-check protocol and
 * interval). Deletions come first so a port can change protocol without a clash.
 */
import type { NetworkListener, Target, TargetGroup, TargetGroupHealthCheck, TargetHealth } from '../../../ports/elbv2-port.js';
import type { NetworkHealthCheck, NetworkPortMapping } from '../load-balancer-spec.js';

export type ListenerAction =
  | { kind: 'delete'; listener: NetworkListener; deleteTargetGroupArn: string | undefined }
  | {
      kind: 'update';
      listener: NetworkListener;
      mapping: NetworkPortMapping;
      targetGroupName: string;
      /** The target group to keep, or undefined when a new one must replace it. */
      reuseTargetGroup: TargetGroup | undefined;
      /** The replaced group, deleted once the listener points elsewhere. */
      replacedTargetGroupArn: string | undefined;
      listenerChanged: boolean;
    }
  | { kind: 'create'; mapping: NetworkPortMapping; targetGroupName: string };

/** Whether the listener's protocol, certificate or policy differ from the mapping. */
export function listenerNeedsChange(listener: NetworkListener, mapping: NetworkPortMapping): boolean {
  if (listener.protocol.toUpperCase() !== mapping.frontendProtocol) return true;
  if (mapping.frontendProtocol === 'TLS') {
    if ((mapping.sslPolicy ?? '') !== '' && listener.sslPolicy !== mapping.sslPolicy) return true;
    return listener.certificates[0]?.certificateArn !== mapping.sslCertificateArn;
  }
  return listener.certificates.length > 0;
}

export function planNetworkListeners(
  mappings: readonly NetworkPortMapping[],
  listeners: readonly NetworkListener[],
  targetGroups: readonly TargetGroup[],
  targetGroupNameOf: (mapping: NetworkPortMapping) => string,
): ListenerAction[] {
  const byArn = new Map(targetGroups.map((group) => [group.arn, group]));
  const desiredPorts = new Set(mappings.map((mapping) => mapping.frontendPort));
  const keptGroupArns = new Set<string>();
  const deletes: ListenerAction[] = [];
  const updates: ListenerAction[] = [];
  const creates: ListenerAction[] = [];
  for (const mapping of mappings) {
    const name = targetGroupNameOf(mapping);
    const listener = listeners.find((candidate) => candidate.port === mapping.frontendPort);
    if (!listener) {
      creates.push({ kind: 'create', mapping, targetGroupName: name });
      continue;
    }
    const current = listener.targetGroupArn === undefined ? undefined : byArn.get(listener.targetGroupArn);
    const reuse = current !== undefined && current.name === name ? current : undefined;
    if (reuse) keptGroupArns.add(reuse.arn);
    updates.push({
      kind: 'update',
      listener,
      mapping,
      targetGroupName: name,
      reuseTargetGroup: reuse,
      replacedTargetGroupArn: reuse ? undefined : listener.targetGroupArn,
      listenerChanged: reuse === undefined || listenerNeedsChange(listener, mapping),
    });
  }
  for (const listener of listeners) {
    if (desiredPorts.has(listener.port)) continue;
    const arn = listener.targetGroupArn;
    deletes.push({ kind: 'delete', listener, deleteTargetGroupArn: arn !== undefined && !keptGroupArns.has(arn) ? arn : undefined });
  }
  return [...deletes, ...updates, ...creates];
}

/** Pure: targets to deregister (first) and register; targets already deregistering are ignored. */
export function planTargets(expected: readonly Target[], actual: readonly TargetHealth[]): { register: Target[]; deregister: Target[] } {
  const key = (target: Target): string => `${target.id}:${target.port}`;
  const current = actual.filter((target) => target.reason !== 'Target.DeregistrationInProgress');
  const currentKeys = new Set(current.map(key));
  const expectedKeys = new Set(expected.map(key));
  return {
    register: expected.filter((target) => !currentKeys.has(key(target))),
    deregister: current.filter((target) => !expectedKeys.has(key(target))).map(({ id, port }) => ({ id, port })),
  };
}

/** The health check to send to CreateTargetGroup (the path only for HTTP/HTTPS; no timeout, as upstream). */
export function targetGroupHealthCheck(healthCheck: NetworkHealthCheck): TargetGroupHealthCheck {
  const result: TargetGroupHealthCheck = {
    protocol: healthCheck.protocol,
    port: healthCheck.port,
    intervalSeconds: healthCheck.interval,
    healthyThreshold: healthCheck.healthyThreshold,
    unhealthyThreshold: healthCheck.unhealthyThreshold,
  };
  if (healthCheck.protocol !== 'TCP') result.path = healthCheck.path;
  return result;
}

/**
 * Pure: the health-check fields to modify on an existing target group, or undefined. Protocol and
 * interval changes never get here (they produce a new target group name).
 */
export function planTargetGroupHealthCheck(desired: NetworkHealthCheck, actual: Partial<TargetGroupHealthCheck>): Partial<TargetGroupHealthCheck> | undefined {
  const change: Partial<TargetGroupHealthCheck> = {};
  if (actual.port !== desired.port) change.port = desired.port;
  if (actual.healthyThreshold !== desired.healthyThreshold || actual.unhealthyThreshold !== desired.unhealthyThreshold) {
    change.healthyThreshold = desired.healthyThreshold;
    change.unhealthyThreshold = desired.unhealthyThreshold;
  }
  if (desired.protocol !== 'TCP' && actual.path !== desired.path) change.path = desired.path;
  return Object.keys(change).length > 0 ? change : undefined;
}
