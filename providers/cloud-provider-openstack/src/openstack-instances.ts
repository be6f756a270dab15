/**
 * InstancesV2 of the OpenStack provider (upstream `instancesv2.go`), translating nodes into one
 * operation (`InstanceFacts`: the server by provider ID, else by node name, with its instance
 * type and ports) and its answer into core's types: exists unless the server is gone, shut down
 * when `SHUTOFF`, metadata with the provider ID, the flavor as instance type, the node addresses
 * from the server and its Neutron ports, the sanitized availability zone and the configured region.
 */
import type { V1Node } from '@kubernetes/client-node';
import { InstanceNotFoundError, type CloudCallOptions, type InstanceMetadata, type InstancesV2 } from '@ccm/core/provider';
import { isShutOff, providerIdOf, zoneOf, type InstanceFacts } from './operations/instance-facts.js';
import { nodeAddressesOf, type NodeAddressOptions } from './operations/node-addresses.js';

export { SERVER_STATUS_SHUTOFF } from './operations/instance-facts.js';

export interface OpenStackInstancesDependencies {
  facts: InstanceFacts;
  addressOptions: NodeAddressOptions;
  region: string;
  /** `openstack://<region>/<id>` provider IDs (`OS_CCM_REGIONAL=true`). */
  regionalProviderIds: boolean;
}

function notFound(node: V1Node): InstanceNotFoundError {
  return new InstanceNotFoundError(`instance not found for node ${JSON.stringify(node.metadata?.name ?? '')}`);
}

export class OpenStackInstances implements InstancesV2 {
  readonly #dependencies: OpenStackInstancesDependencies;

  constructor(dependencies: OpenStackInstancesDependencies) {
    this.#dependencies = dependencies;
  }

  async instanceExists(node: V1Node, options?: CloudCallOptions): Promise<boolean> {
    return (await this.#dependencies.facts.serverOfNode(node, options)) !== undefined;
  }

  /** Upstream answers `InstanceNotFound` when the node has no server. */
  async instanceShutdown(node: V1Node, options?: CloudCallOptions): Promise<boolean> {
    const server = await this.#dependencies.facts.serverOfNode(node, options);
    if (server === undefined) throw notFound(node);
    return isShutOff(server);
  }

  async instanceMetadata(node: V1Node, options?: CloudCallOptions): Promise<InstanceMetadata | undefined> {
    const facts = await this.#dependencies.facts.factsOfNode(node, options);
    if (facts === undefined) throw notFound(node);
    const { region, regionalProviderIds, addressOptions } = this.#dependencies;
    return {
      providerId: providerIdOf(facts.server, regionalProviderIds ? { region } : undefined),
      instanceType: facts.instanceType,
      nodeAddresses: nodeAddressesOf(facts.server, facts.ports, addressOptions),
      zone: zoneOf(facts.server),
      region,
    };
  }
}
