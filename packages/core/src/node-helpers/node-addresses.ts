/**
 * Node address rules (upstream `node/helpers/address.go`, component-helpers
 * `ParseNodeIPAnnotation`, and the cloud node controller's change detection).
 */
import type { V1Node } from '@kubernetes/client-node';
import { ANNOTATION_PROVIDED_NODE_IP } from '../api/well-known.js';
import { formatIp, ipEqual, isIpv4, isUnspecifiedIp, parseIp, type IpBytes } from '../net/ip-address.js';
import { errorMessage } from '../util/error-message.js';

/** Structurally both core/v1 `NodeAddress` and the provider interface's `NodeAddress`. */
export interface AddressLike {
  type: string;
  address: string;
}

export type NodeAddressErrorKind = 'InvalidProvidedNodeIp' | 'ProvidedNodeIpNotFound';

/** The provided-node-ip annotation cannot be parsed, or does not match the cloud's addresses. */
export class NodeAddressError extends Error {
  readonly kind: NodeAddressErrorKind;
  constructor(kind: NodeAddressErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NodeAddressError';
    this.kind = kind;
  }
}

/**
 * Parses the `alpha.kubernetes.io/provided-node-ip` value strictly: one IP, or a comma-separated
 * dual-stack pair (one IPv4, one IPv6), no whitespace trimming, no `0.0.0.0`/`::` inside a pair.
 */
export function parseNodeIpAnnotation(value: string): IpBytes[] {
  const ips: IpBytes[] = [];
  for (const part of value.split(',')) {
    const ip = parseIp(part);
    if (ip === undefined) throw new NodeAddressError('InvalidProvidedNodeIp', `could not parse ${JSON.stringify(part)}`);
    ips.push(ip);
  }
  const [first, second] = ips;
  if (ips.length > 2 || (first !== undefined && second !== undefined && isIpv4(first) === isIpv4(second))) {
    throw new NodeAddressError('InvalidProvidedNodeIp', 'must contain either a single IP or a dual-stack pair of IPs');
  }
  if (first !== undefined && second !== undefined && (isUnspecifiedIp(first) || isUnspecifiedIp(second))) {
    throw new NodeAddressError('InvalidProvidedNodeIp', "dual-stack node IP cannot include '0.0.0.0' or '::'");
  }
  return ips;
}

/**
 * Orders and filters the cloud's addresses by the provided node IP(s) (upstream
 * `GetNodeAddressesFromNodeIP`): for each annotated IP, in annotation order, every cloud address
 * equal to it comes first and its type becomes "enforced"; then every cloud address whose type is
 * not enforced, in the cloud's order. Other addresses of an enforced type are dropped. Throws
 * NodeAddressError when the value does not parse or an annotated IP matches no cloud address.
 */
export function getNodeAddressesFromNodeIp<A extends AddressLike>(providedNodeIp: string, cloudAddresses: readonly A[]): A[] {
  let nodeIps: IpBytes[];
  try {
    nodeIps = parseNodeIpAnnotation(providedNodeIp);
  } catch (error) {
    const reason = errorMessage(error);
    throw new NodeAddressError('InvalidProvidedNodeIp', `failed to parse node IP ${JSON.stringify(providedNodeIp)}: ${reason}`, { cause: error });
  }
  const enforced: A[] = [];
  const enforcedTypes = new Set<string>();
  for (const nodeIp of nodeIps) {
    let matched = false;
    for (const address of cloudAddresses) {
      const parsed = parseIp(address.address);
      if (parsed !== undefined && ipEqual(parsed, nodeIp)) {
        enforced.push({ ...address });
        enforcedTypes.add(address.type);
        matched = true;
      }
    }
    if (!matched) {
      throw new NodeAddressError('ProvidedNodeIpNotFound', `failed to get node address from cloud provider that matches ip: ${formatIp(nodeIp)}`);
    }
  }
  for (const address of cloudAddresses) if (!enforcedTypes.has(address.type)) enforced.push({ ...address });
  return enforced;
}

/** Applies `getNodeAddressesFromNodeIp` when the node carries the provided-node-ip annotation. */
export function applyProvidedNodeIp<A extends AddressLike>(node: V1Node, addresses: readonly A[]): A[] {
  const providedNodeIp = node.metadata?.annotations?.[ANNOTATION_PROVIDED_NODE_IP];
  if (providedNodeIp === undefined) return [...addresses];
  return getNodeAddressesFromNodeIp(providedNodeIp, addresses);
}

/** Returns `addresses` followed by each of `toAdd` not already present (same type and address). */
export function addToNodeAddresses<A extends AddressLike>(addresses: readonly A[], ...toAdd: readonly A[]): A[] {
  const result = [...addresses];
  for (const candidate of toAdd) {
    if (!result.some((existing) => existing.type === candidate.type && existing.address === candidate.address)) result.push(candidate);
  }
  return result;
}

/**
 * Upstream `nodeAddressesChangeDetected`: different lengths are a change; otherwise each new
 * address is looked up by type in a type->address map of the old list (last value per type wins).
 */
export function nodeAddressesChangeDetected(oldAddresses: readonly AddressLike[], newAddresses: readonly AddressLike[]): boolean {
  if (oldAddresses.length !== newAddresses.length) return true;
  const byType = new Map<string, string>();
  for (const address of oldAddresses) byType.set(address.type, address.address);
  return newAddresses.some((address) => (byType.get(address.type) ?? '') !== address.address);
}
