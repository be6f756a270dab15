/**
 * The members of an IP-based backend pool (`loadBalancerBackendPoolConfigurationType: nodeIP`,
 * upstream `azure_loadbalancer_backendpool.go` `backendPoolTypeNodeIP.EnsureHostsInPool`): the
 * nodes' InternalIP addresses of the pool's family, each named after its node, the pool naming
 * the cluster's virtual network. Addresses of nodes no longer wanted leave, unless that would
 * empty the pool (upstream `removeNodeIPAddressesFromBackendPool` keeps the last ones). Pure.
 */
import type { V1Node } from '@kubernetes/client-node';
import { parseIpAddress } from '@ccm/core/net';
import type { AzureBackendAddress, AzureBackendAddressPool } from '../../ports/network-port.js';
import type { IpFamily } from './load-balancer-names.js';

export interface NodeIpPoolPlan {
  /** The pool as it should be written. */
  pool: AzureBackendAddressPool;
  /** False: nothing to write. */
  changed: boolean;
  added: string[];
  removed: string[];
}

/** The node's first InternalIP of `family` (upstream `azure_utils.go` `getNodePrivateIPAddress`). */
export function nodePrivateAddress(node: V1Node, family: IpFamily): string | undefined {
  const wantedFamily = family === 'IPv6' ? 6 : 4;
  return (node.status?.addresses ?? []).find((address) => address.type === 'InternalIP' && parseIpAddress(address.address)?.family === wantedFamily)?.address;
}

export function planNodeIpPool(pool: AzureBackendAddressPool, nodes: readonly V1Node[], family: IpFamily, virtualNetworkId: string): NodeIpPoolPlan {
  const current = pool.backendAddresses ?? [];
  const wanted = new Map<string, string>();
  for (const node of nodes) {
    const address = nodePrivateAddress(node, family);
    if (address !== undefined && !wanted.has(address)) wanted.set(address, node.metadata?.name ?? '');
  }
  const present = new Set(current.map((entry) => entry.ipAddress));
  const additions: AzureBackendAddress[] = [...wanted.entries()].filter(([address]) => !present.has(address)).map(([address, name]) => ({ name, ipAddress: address }));
  const kept = current.filter((entry) => wanted.has(entry.ipAddress));
  let removed = current.filter((entry) => !wanted.has(entry.ipAddress)).map((entry) => entry.ipAddress);
  let next = [...kept, ...additions];
  // Upstream never empties the pool while reconciling hosts (a node list briefly empty would cut every Service).
  if (next.length === 0) {
    next = [...current];
    removed = [];
  }
  const changed = additions.length > 0 || removed.length > 0;
  return {
    pool: { ...pool, virtualNetworkId: pool.virtualNetworkId ?? virtualNetworkId, backendAddresses: next },
    changed,
    added: additions.map((entry) => entry.ipAddress),
    removed,
  };
}
