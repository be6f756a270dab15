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
  if (!nodeAddressesChangeDetected(current, addresses)) return { action: 'unchanged' };
  return { action: 'patch', addresses };
}

const sameAddresses = (left: readonly V1NodeAddress[], right: readonly V1NodeAddress[]) =>
  left.length === right.length && left.every((address, index) => address.type === right[index]?.type && address.address === right[index]?.address);

/**
 * A strategic merge patch of `status.addresses` (upstream `PatchNodeStatus`). The field is wrongly
 * tagged `patchStrategy=merge` (by type), so a changed non-empty list is sent with the
 * `$patch: replace` directive; otherwise stale addresses of other types would survive.
 */
export function buildNodeAddressesPatch(oldAddresses: readonly V1NodeAddress[], newAddresses: readonly V1NodeAddress[]): { status: { addresses: unknown[] } } {
  const items = newAddresses.map((address) => ({ type: address.type, address: address.address }));
  if (oldAddresses.length > 0 && !sameAddresses(oldAddresses, newAddresses)) {
    return { status: { addresses: [{ $patch: 'replace' }, ...items] } };
  }
  return { status: { addresses: items } };
}
