/**
 * Node -> instance (upstream `getInstanceByName`, `InstanceExistsByProviderID`): by the provider
 * ID's zone and name when the node has one, else by the node name (cut at its first `.`) across
 * the managed zones. Answers with the instance found, so a new node costs one lookup.
 */
import type { V1Node } from '@kubernetes/client-node';
import type { CallOptions } from '@ccm/core/cloud';
import type { GceInstance } from '../ports/compute-port.js';
import { instanceNameOfNode, parseGceProviderId } from '../provider-id.js';
import type { InstanceLookup } from './instance-lookup.js';

export class InstanceLocator {
  readonly #lookup: InstanceLookup;

  constructor(lookup: InstanceLookup) {
    this.#lookup = lookup;
  }

  async instanceOfNode(node: V1Node, options?: CallOptions): Promise<GceInstance | undefined> {
    const providerId = node.spec?.providerID ?? '';
    if (providerId !== '') {
      const reference = parseGceProviderId(providerId);
      return this.#lookup.inZone(reference.zone, reference.name, options);
    }
    return this.instanceByNodeName(node.metadata?.name ?? '', options);
  }

  instanceByNodeName(nodeName: string, options?: CallOptions): Promise<GceInstance | undefined> {
    return this.#lookup.byName(instanceNameOfNode(nodeName), options);
  }
}
