/**
 * A NodeDirectory kept current from Node events (upstream: the Node informer with its
 * `instanceID` index, used to map instances back to node names and node names to provider IDs).
 */
import type { InformerHandlers, V1Node } from '@ccm/core/kube';
import type { NodeDirectory } from '../operations/node-directory.js';
import { parseAwsProviderId } from '../provider-id.js';

export class IndexedNodeDirectory implements NodeDirectory {
  readonly #providerIds = new Map<string, string>();
  readonly #nodeByInstance = new Map<string, string>();
  readonly #instanceByNode = new Map<string, string>();

  readonly handlers: InformerHandlers<V1Node> = {
    onAdd: (node) => this.#put(node),
    onUpdate: (_old, node) => this.#put(node),
    onDelete: (node) => this.#remove(node.metadata?.name ?? ''),
  };

  providerIdOfNode(nodeName: string): string | undefined {
    return this.#providerIds.get(nodeName);
  }

  nodeNameOfInstance(instanceId: string): string | undefined {
    return this.#nodeByInstance.get(instanceId);
  }

  #put(node: V1Node): void {
    const name = node.metadata?.name ?? '';
    if (name === '') return;
    this.#remove(name);
    const providerId = node.spec?.providerID ?? '';
    if (providerId === '') return;
    this.#providerIds.set(name, providerId);
    let instanceId: string;
    try {
      instanceId = parseAwsProviderId(providerId);
    } catch {
      return;
    }
    this.#nodeByInstance.set(instanceId, name);
    this.#instanceByNode.set(name, instanceId);
  }

  #remove(name: string): void {
    this.#providerIds.delete(name);
    const instanceId = this.#instanceByNode.get(name);
    if (instanceId !== undefined && this.#nodeByInstance.get(instanceId) === name) this.#nodeByInstance.delete(instanceId);
    this.#instanceByNode.delete(name);
  }
}
