/**
 * Pure planners of the Octavia load balancer (table-tested): what to change given what Octavia
 * has. Updates are diffs; a pool whose protocol or persistence changed and a monitor whose type
 * changed are recreated (as upstream `ensureOctaviaPool` / `ensureOctaviaHealthMonitor`).
 */
import type { V1Node } from '@kubernetes/client-node';
import type { HealthMonitorSpec, ListenerSettings, OctaviaHealthMonitor, OctaviaListener, OctaviaMember, OctaviaPool, PoolSpec } from '../../ports/octavia-port.js';
import type { PortPlan } from './load-balancer-spec.js';

export interface ListenerPlan {
  create: PortPlan[];
  update: Array<{ id: string; plan: PortPlan; settings: ListenerSettings }>;
  /** Listeners that already match, by port index. */
  matched: Map<number, OctaviaListener>;
  delete: OctaviaListener[];
}

const sameSet = (left: readonly string[], right: readonly string[]): boolean => {
  const a = [...new Set(left)].sort();
  const b = [...new Set(right)].sort();
  return a.length === b.length && a.every((value, index) => value === b[index]);
};

const sameRecord = (left: Readonly<Record<string, string>>, right: Readonly<Record<string, string>>): boolean =>
  sameSet(Object.entries(left).map(([key, value]) => `${key}=${value}`), Object.entries(right).map(([key, value]) => `${key}=${value}`));

/** Every client: upstream's default source range (`GetLoadBalancerSourceRanges`, `0.0.0.0/0` or `::/0`). */
const ALLOW_ALL = new Set(['0.0.0.0/0', '::/0']);

/**
 * Allowed CIDRs as Octavia applies them: a list of allow-all ranges only (what upstream sends for a
 * Service without ranges) lets every client in, as no list does (what we send): both are `[]`.
 */
const effectiveAllowedCidrs = (cidrs: readonly string[]): readonly string[] => (cidrs.every((cidr) => ALLOW_ALL.has(cidr)) ? [] : cidrs);

/** The listener fields that differ from the plan, as the settings to write; undefined when none. */
export function listenerUpdate(plan: PortPlan, observed: OctaviaListener): ListenerSettings | undefined {
  const desired = plan.listener;
  const differs =
    observed.name !== desired.name ||
    observed.connectionLimit !== desired.connectionLimit ||
    !sameSet(effectiveAllowedCidrs(observed.allowedCidrs), effectiveAllowedCidrs(desired.allowedCidrs)) ||
    (desired.timeoutClientData !== undefined && observed.timeoutClientData !== desired.timeoutClientData) ||
    (desired.timeoutMemberConnect !== undefined && observed.timeoutMemberConnect !== desired.timeoutMemberConnect) ||
    (desired.timeoutMemberData !== undefined && observed.timeoutMemberData !== desired.timeoutMemberData) ||
    (desired.timeoutTcpInspect !== undefined && observed.timeoutTcpInspect !== desired.timeoutTcpInspect) ||
    !sameRecord(observed.insertHeaders, desired.insertHeaders) ||
    !desired.tags.every((tag) => observed.tags.includes(tag));
  if (!differs) return undefined;
  const { protocol: _protocol, port: _port, ...settings } = desired;
  return { ...settings, tags: [...new Set([...observed.tags, ...desired.tags])] };
}

/**
 * Listeners matched to ports by protocol and port (upstream `listenerKey`); unmatched ones are
 * deleted when the load balancer's owner made them (tagged with its name, or untagged).
 */
export function planListeners(ports: readonly PortPlan[], observed: readonly OctaviaListener[], lbName: string): ListenerPlan {
  const byKey = new Map(observed.map((listener) => [`${listener.protocol}/${listener.port}`, listener]));
  const plan: ListenerPlan = { create: [], update: [], matched: new Map(), delete: [] };
  const used = new Set<string>();
  for (const port of ports) {
    const found = byKey.get(`${port.listener.protocol}/${port.listener.port}`);
    if (found === undefined) {
      plan.create.push(port);
      continue;
    }
    used.add(found.id);
    plan.matched.set(port.index, found);
    const settings = listenerUpdate(port, found);
    if (settings !== undefined) plan.update.push({ id: found.id, plan: port, settings });
  }
  plan.delete = observed.filter((listener) => !used.has(listener.id) && (listener.tags.length === 0 || listener.tags.includes(lbName)));
  return plan;
}

export type PoolAction = { kind: 'create' } | { kind: 'recreate'; id: string } | { kind: 'updateMethod'; id: string } | { kind: 'keep'; id: string };

export function planPool(desired: PoolSpec, observed: OctaviaPool | undefined): PoolAction {
  if (observed === undefined) return { kind: 'create' };
  if (observed.protocol !== desired.protocol || (observed.sessionPersistence?.type ?? '') !== (desired.sessionPersistence?.type ?? '')) return { kind: 'recreate', id: observed.id };
  if (observed.method !== desired.method) return { kind: 'updateMethod', id: observed.id };
  return { kind: 'keep', id: observed.id };
}

/** The address of a node for a member: its first InternalIP, else its first ExternalIP (upstream `nodeAddressForLB`). */
export function nodeAddressForMember(node: V1Node): string | undefined {
  const addresses = node.status?.addresses ?? [];
  return addresses.find((address) => address.type === 'InternalIP')?.address ?? addresses.find((address) => address.type === 'ExternalIP')?.address;
}

/** Nodes carrying every label of the selector (an empty value only needs the key). */
export function selectNodes(nodes: readonly V1Node[], selector: Readonly<Record<string, string>>): V1Node[] {
  const wanted = Object.entries(selector);
  return nodes.filter((node) => {
    const labels = node.metadata?.labels ?? {};
    return wanted.every(([key, value]) => Object.prototype.hasOwnProperty.call(labels, key) && (value === '' || labels[key] === value));
  });
}

/** The members of a port's pool: one per node with an address, on its node port (none when the node port is 0). */
export function desiredMembers(nodes: readonly V1Node[], port: PortPlan, memberSubnetId: string | undefined, healthCheckNodePort: number | undefined): OctaviaMember[] {
  if (port.nodePort === 0) return [];
  const members: OctaviaMember[] = [];
  for (const node of nodes) {
    const address = nodeAddressForMember(node);
    if (address === undefined) continue;
    members.push({
      name: node.metadata?.name ?? '',
      address,
      port: port.nodePort,
      ...(memberSubnetId === undefined ? {} : { subnetId: memberSubnetId }),
      ...(healthCheckNodePort === undefined || port.healthMonitor === undefined ? {} : { monitorPort: healthCheckNodePort }),
    });
  }
  return members.sort((a, b) => a.name.localeCompare(b.name));
}

const memberKey = (member: OctaviaMember): string => `${member.name}-${member.address}-${member.port}-${member.monitorPort ?? 0}`;

/** True when the batch update is needed: the set of (name, address, port, monitor port) differs. */
export function membersDiffer(desired: readonly OctaviaMember[], observed: readonly OctaviaMember[]): boolean {
  return !sameSet(desired.map(memberKey), observed.map(memberKey)) || desired.length !== observed.length;
}

/** A member's identity for serial calls: its address, port and monitor port (not its name). */
const serialMemberKey = (member: OctaviaMember): string => `${member.address}-${member.port}-${member.monitorPort ?? 0}`;

/**
 * Members to create and delete one by one (`provider-requires-serial-api-calls`), matched by
 * address, port and monitor port whatever their names: upstream's serial calls
 * (`SeriallyReconcilePoolMembers`) name members `member_<node>_<address>_<port>` and match them by
 * address and port, so the members it made are kept. Unlike upstream's, the monitor port counts
 * (upstream's serial members have none, so an `externalTrafficPolicy: Local` monitor never probes
 * the health check node port there).
 */
export function planSerialMembers(desired: readonly OctaviaMember[], observed: readonly OctaviaMember[]): { create: OctaviaMember[]; delete: OctaviaMember[] } {
  const have = new Set(observed.map(serialMemberKey));
  const want = new Set(desired.map(serialMemberKey));
  return { create: desired.filter((member) => !have.has(serialMemberKey(member))), delete: observed.filter((member) => !want.has(serialMemberKey(member))) };
}

export type HealthMonitorAction =
  | { kind: 'none' }
  | { kind: 'create'; spec: HealthMonitorSpec }
  | { kind: 'delete'; id: string }
  | { kind: 'recreate'; id: string; spec: HealthMonitorSpec }
  | { kind: 'update'; id: string; spec: HealthMonitorSpec };

export function planHealthMonitor(desired: HealthMonitorSpec | undefined, observed: OctaviaHealthMonitor | undefined): HealthMonitorAction {
  if (desired === undefined) return observed === undefined ? { kind: 'none' } : { kind: 'delete', id: observed.id };
  if (observed === undefined) return { kind: 'create', spec: desired };
  if (observed.type !== desired.type || (observed.urlPath ?? '') !== (desired.urlPath ?? '')) return { kind: 'recreate', id: observed.id, spec: desired };
  const same =
    observed.name === desired.name &&
    observed.delaySeconds === desired.delaySeconds &&
    observed.timeoutSeconds === desired.timeoutSeconds &&
    observed.maxRetries === desired.maxRetries &&
    observed.maxRetriesDown === desired.maxRetriesDown;
  return same ? { kind: 'none' } : { kind: 'update', id: observed.id, spec: desired };
}
