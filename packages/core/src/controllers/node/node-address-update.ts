/**
 * The pure part of upstream `updateNodeAddress`: which addresses a node should get from the
 * cloud's answer, and the status patch that writes them.
 */
import type { V1Node, V1NodeAddress } from '@kubernetes/client-node';
import { applyProvidedNodeIp, NodeAddressError, nodeAddressesChangeDetected } from '../../node-helpers/node-addresses.js';
import { hasUninitializedTaint } from '../../node-helpers/taints.js';
import type { NodeAddress } from '../../provider/node-address.js';

export type NodeAddressUpdatePlan =
  /** Still tainted (the initialization writes addresses), or the cloud returned none (the kubelet's stay). */
  | { action: 'skip'; reason: 'Tainted' | 'NoCloudAddresses' }
  /** The provided-node-ip annotation cannot be satisfied: log, do not patch. */
  | { action: 'error'; error: NodeAddressError }
  | { action: 'unchanged' }
  | { action: 'patch'; addresses: V1NodeAddress[] };

export function planNodeAddressUpdate(node: V1Node, cloudAddresses: readonly NodeAddress[]): NodeAddressUpdatePlan {
  if (hasUninitializedTaint(node)) return { action: 'skip', reason: 'Tainted' };
  if (cloudAddresses.length === 0) return { action: 'skip', reason: 'NoCloudAddresses' };
  let addresses: V1NodeAddress[] = cloudAddresses.map((address) => ({ type: address.type, address: address.address }));
  const current = node.status?.addresses ?? [];
  // Keep the kubelet's hostname when the cloud does not report one.
  if (!addresses.some((address) => address.type === 'Hostname')) {
    for (const address of current) if (address.type === 'Hostname') addresses.push({ type: address.type, address: address.address });
  }
  try {
    addresses = applyProvidedNodeIp(node, addresses);
  } catch (error) {
    if (error instanceof NodeAddressError) return { action: 'error', error };
    throw error;
  }
  // An identical list needs no patch. Checked first: the upstream change detection maps the old
  // list by type (last wins), so a node with two addresses of one type (dual-stack InternalIPs)
  // would otherwise always look changed.
  if (sameAddresses(current, addresses)) return { action: 'unchanged' };
  if (!nodeAddressesChangeDetected(current, addresses)) return { action: 'unchanged' };
  return { action: 'patch', addresses };
}

const sameAddresses = (left: readonly V1NodeAddress[], right: readonly V1NodeAddress[]) =>
  left.length === right.length && left.every((address, index) => address.type === right[index]?.type && address.address === right[index]?.address);

/**
 * A strategic merge patch of `status.addresses` (upstream `PatchNodeStatus`). Only called for a
 * changed list (`planNodeAddressUpdate` answers 'unchanged' for an identical one, so no patch is
 * sent). The field is wrongly tagged `patchStrategy=merge` by `type`, so the list is always sent
 * with the `$patch: replace` directive, also when the old list is empty: without it stale addresses
 * of other types would survive, and two addresses of one type (a dual-stack node's IPv4 and IPv6
 * InternalIPs) would collapse into one merge key and be rejected as `Duplicate value`.
 */
export function buildNodeAddressesPatch(newAddresses: readonly V1NodeAddress[]): { status: { addresses: unknown[] } } {
  const items = newAddresses.map((address) => ({ type: address.type, address: address.address }));
  return { status: { addresses: [{ $patch: 'replace' }, ...items] } };
}
