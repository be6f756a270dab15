/**
 * The nodes the route capability needs (upstream reads its node informer's lister): which node
 * owns an address, and a node's InternalIP of a family. Fed by the controllers' shared Node
 * informer handed over in `initialize`; until then, or before it has synced, it answers from no
 * nodes and the route calls fail to be retried.
 */
import { isIPv4 } from 'node:net';
import type { V1Node } from '@kubernetes/client-node';
import type { SharedInformer } from '@ccm/core/kube';

export interface NodeDirectory {
  /** Whether the node list is complete (the informer has synced). */
  ready(): boolean;
  /** Upstream `getNodeNameByAddr`: the node with any address equal to `address`. */
  nodeNameOfAddress(address: string): string | undefined;
  /** Upstream `getAddrByNodeName`: the node's first InternalIP of the family, or ''. */
  internalAddressOf(nodeName: string, ipv6: boolean): string;
}

export function nodeNameOfAddress(nodes: readonly V1Node[], address: string): string | undefined {
  return nodes.find((node) => (node.status?.addresses ?? []).some((entry) => entry.address === address))?.metadata?.name;
}

export function internalAddressOf(nodes: readonly V1Node[], nodeName: string, ipv6: boolean): string {
  for (const node of nodes) {
    if (node.metadata?.name !== nodeName) continue;
    for (const entry of node.status?.addresses ?? []) {
      if (entry.type !== 'InternalIP') continue;
      const v4 = isIPv4(entry.address);
      if (!v4 && !entry.address.includes(':')) continue;
      if (ipv6 !== v4) return entry.address;
    }
  }
  return '';
}

/** A directory over a node list source (the shared informer's store, or a fixed list in tests). */
export class NodeListDirectory implements NodeDirectory {
  #source: { list(): V1Node[]; ready(): boolean } | undefined;

  constructor(source?: { list(): V1Node[]; ready(): boolean }) {
    this.#source = source;
  }

  /** Follows the controllers' shared Node informer. */
  attach(informer: SharedInformer<V1Node>): void {
    this.#source = { list: () => informer.store.list(), ready: () => informer.hasSynced() };
  }

  ready(): boolean {
    return this.#source?.ready() ?? false;
  }

  nodeNameOfAddress(address: string): string | undefined {
    return nodeNameOfAddress(this.#source?.list() ?? [], address);
  }

  internalAddressOf(nodeName: string, ipv6: boolean): string {
    return internalAddressOf(this.#source?.list() ?? [], nodeName, ipv6);
  }
}
