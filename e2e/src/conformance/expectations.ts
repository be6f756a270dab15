/**
 * What the upstream controllers would make of a given input, computed independently of
 * @ccm/core so the suite checks the CCM against the specification and not against itself.
 */
import { isIP } from 'node:net';
import { LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS, TAINT_TO_BE_DELETED_BY_CLUSTER_AUTOSCALER } from '@ccm/core/api';
import type { KubeNode, NodeAddress } from '../harness/kube-objects.js';

function hexGroups(text: string): number[] {
  return text === '' ? [] : text.split(':').map((group) => parseInt(group, 16));
}

/** 16 bytes for an IPv4 (as IPv4-mapped IPv6) or IPv6 address, or undefined when invalid. */
export function ipBytes(text: string): number[] | undefined {
  const family = isIP(text);
  const v4Bytes = (dotted: string): number[] => dotted.split('.').map(Number);
  if (family === 4) return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4Bytes(text)];
  if (family !== 6) return undefined;
  let body = text;
  let tail: number[] = [];
  const lastColon = body.lastIndexOf(':');
  const last = body.slice(lastColon + 1);
  if (last.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = v4Bytes(last);
    tail = [(a << 8) | b, (c << 8) | d];
    body = body.slice(0, lastColon + 1);
    if (!body.endsWith('::')) body = body.slice(0, -1);
  }
  const [head = '', rest] = body.split('::');
  const groups =
    rest === undefined
      ? [...hexGroups(head), ...tail]
      : (() => {
          const headGroups = hexGroups(head);
          const restGroups = hexGroups(rest);
          const zeros = new Array<number>(8 - headGroups.length - restGroups.length - tail.length).fill(0);
          return [...headGroups, ...zeros, ...restGroups, ...tail];
        })();
  if (groups.length !== 8) return undefined;
  return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

export function sameIp(left: string, right: string): boolean {
  const a = ipBytes(left);
  const b = ipBytes(right);
  return a !== undefined && b !== undefined && a.every((byte, index) => byte === b[index]);
}

/**
 * Upstream `GetNodeAddressesFromNodeIP`: for each annotated IP (in order) the cloud addresses
 * equal to it, then every cloud address whose type was not matched, in the cloud's order.
 * Throws when an annotated IP matches nothing.
 */
export function addressesForProvidedNodeIp(providedNodeIp: string, cloudAddresses: readonly NodeAddress[]): NodeAddress[] {
  const enforcedTypes = new Set<string>();
  const result: NodeAddress[] = [];
  for (const ip of providedNodeIp.split(',').map((part) => part.trim())) {
    const matched = cloudAddresses.filter((address) => sameIp(address.address, ip));
    if (matched.length === 0) throw new Error(`failed to get node address from cloud provider that matches ip: ${ip}`);
    for (const address of matched) {
      result.push({ type: address.type, address: address.address });
      enforcedTypes.add(address.type);
    }
  }
  for (const address of cloudAddresses) if (!enforcedTypes.has(address.type)) result.push({ type: address.type, address: address.address });
  return result;
}

/**
 * The `status.addresses` the node controller publishes: the cloud's list, the kubelet's
 * Hostname entries appended when the cloud has none, then the provided-node-ip filter.
 * An empty cloud list leaves the kubelet's addresses in place.
 */
export function expectedNodeAddresses(
  cloudAddresses: readonly NodeAddress[],
  kubeletAddresses: readonly NodeAddress[],
  providedNodeIp?: string,
): NodeAddress[] {
  if (cloudAddresses.length === 0) return [...kubeletAddresses];
  const addresses = cloudAddresses.map((address) => ({ type: address.type, address: address.address }));
  if (!addresses.some((address) => address.type === 'Hostname')) {
    for (const address of kubeletAddresses) if (address.type === 'Hostname') addresses.push({ ...address });
  }
  return providedNodeIp === undefined ? addresses : addressesForProvidedNodeIp(providedNodeIp, addresses);
}

/** Go's strconv.ParseBool; undefined for anything else. */
export function parseGoBool(value: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

/**
 * The service controller's stable node-set predicates: not being deleted, not excluded by the
 * exclude-from-external-load-balancers label (any value but a false boolean excludes), and
 * not tainted ToBeDeletedByClusterAutoscaler. Readiness does not matter.
 */
export function isLoadBalancerBackendEligible(node: KubeNode): boolean {
  if (node.metadata.deletionTimestamp) return false;
  const exclude = node.metadata.labels?.[LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS];
  if (exclude !== undefined && parseGoBool(exclude) !== false) return false;
  return !(node.spec?.taints ?? []).some((taint) => taint.key === TAINT_TO_BE_DELETED_BY_CLUSTER_AUTOSCALER);
}

export function eligibleBackendNames(nodes: readonly KubeNode[]): string[] {
  return nodes.filter(isLoadBalancerBackendEligible).map((node) => node.metadata.name ?? '').sort();
}
