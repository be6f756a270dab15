/**
 * InstancesV2 of the OpenStack provider (upstream `instancesv2.go`), translating nodes into server
 * lookups (`InstanceLocator`: provider ID, else node name) and the answers into core's types:
 * exists unless the server is gone, shut down when `SHUTOFF`, metadata with the provider ID, the
 * flavor as instance type, the node addresses from the server and its Neutron ports, the
 * sanitized availability zone and the configured region.
 */
import type { V1Node } from '@kubernetes/client-node';
import { InstanceNotFoundError, type CloudCallOptions, type InstanceMetadata, type InstancesV2 } from '@ccm/core/provider';
import type { InstanceLocator } from './operations/instance-locator.js';
import type { InstanceTypes } from './operations/instance-type.js';
import { sanitizeLabelValue } from './operations/label-value.js';
import { nodeAddressesOf, type NodeAddressOptions } from './operations/node-addresses.js';
import type { ServerLookup } from './operations/server-lookup.js';
import type { OpenStackServer } from './ports/compute-port.js';
import { formatOpenStackProviderId } from './provider-id.js';

/** Upstream `instanceShutoff`: the only status in which a server is shut down. */
export const SERVER_STATUS_SHUTOFF = 'SHUTOFF';

export interface OpenStackInstancesDependencies {
  locator: InstanceLocator;
  lookup: ServerLookup;
  instanceTypes: InstanceTypes;
  addressOptions: NodeAddressOptions;
  region: string;
  /** `openstack://<region>/<id>` provider IDs (`OS_CCM_REGIONAL=true`). */
  regionalProviderIds: boolean;
}

export class OpenStackInstances implements InstancesV2 {
  readonly #dependencies: OpenStackInstancesDependencies;

  constructor(dependencies: OpenStackInstancesDependencies) {
    this.#dependencies = dependencies;
  }

  async instanceExists(node: V1Node, options?: CloudCallOptions): Promise<boolean> {
    return (await this.#dependencies.locator.serverOfNode(node, options)) !== undefined;
  }

  async instanceShutdown(node: V1Node, options?: CloudCallOptions): Promise<boolean> {
    return (await this.#serverOf(node, options)).status === SERVER_STATUS_SHUTOFF;
  }

  async instanceMetadata(node: V1Node, options?: CloudCallOptions): Promise<InstanceMetadata | undefined> {
    const server = await this.#serverOf(node, options);
    const [instanceType, ports] = await Promise.all([this.#dependencies.instanceTypes.instanceTypeOf(server, options), this.#dependencies.lookup.portsOfServer(server.id, options)]);
    return {
      providerId: formatOpenStackProviderId(server.id, this.#dependencies.regionalProviderIds ? { region: this.#dependencies.region } : undefined),
      instanceType,
      nodeAddresses: nodeAddressesOf(server, ports, this.#dependencies.addressOptions),
      zone: sanitizeLabelValue(server.availabilityZone),
      region: this.#dependencies.region,
    };
  }

  /** The node's server; upstream answers `InstanceNotFound` when there is none. */
  async #serverOf(node: V1Node, options?: CloudCallOptions): Promise<OpenStackServer> {
    const server = await this.#dependencies.locator.serverOfNode(node, options);
    if (server === undefined) throw new InstanceNotFoundError(`instance not found for node ${JSON.stringify(node.metadata?.name ?? '')}`);
    return server;
  }
}
