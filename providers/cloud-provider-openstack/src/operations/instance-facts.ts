/**
 * Everything the provider reports about the server of a node, gathered in one operation
 * (upstream `InstanceMetadata`: `getInstance`, then `srvInstanceType` and `getAttachedPorts`):
 * the server (`InstanceLocator`), its instance type (`InstanceTypes`) and its Neutron ports (the
 * network port's `portsOfDevice`, batched by its coalesce stage), the last two read together.
 * The pure facts of a server (shut down, provider ID, zone) sit beside it.
 */
import type { V1Node } from '@kubernetes/client-node';
import type { CallOptions } from '@ccm/core/cloud';
import type { OpenStackServer } from '../ports/compute-port.js';
import type { NetworkPort, NeutronPort } from '../ports/network-port.js';
import { formatOpenStackProviderId } from '../provider-id.js';
import type { InstanceLocator } from './instance-locator.js';
import type { InstanceTypes } from './instance-type.js';
import { sanitizeLabelValue } from './label-value.js';

/** Upstream `instanceShutoff`: the only status in which a server is shut down. */
export const SERVER_STATUS_SHUTOFF = 'SHUTOFF';

export interface ServerFacts {
  server: OpenStackServer;
  instanceType: string;
  /** The ports whose `device_id` is the server, in Neutron's order. */
  ports: NeutronPort[];
}

export function isShutOff(server: OpenStackServer): boolean {
  return server.status === SERVER_STATUS_SHUTOFF;
}

/** `openstack:///<id>`, or `openstack://<region>/<id>` with regional provider IDs. */
export function providerIdOf(server: OpenStackServer, regional: { region: string } | undefined): string {
  return formatOpenStackProviderId(server.id, regional);
}

/** The availability zone as a label value (upstream `util.SanitizeLabel`). */
export function zoneOf(server: OpenStackServer): string {
  return sanitizeLabelValue(server.availabilityZone);
}

export class InstanceFacts {
  readonly #locator: InstanceLocator;
  readonly #instanceTypes: InstanceTypes;
  readonly #network: NetworkPort;

  constructor(dependencies: { locator: InstanceLocator; instanceTypes: InstanceTypes; network: NetworkPort }) {
    this.#locator = dependencies.locator;
    this.#instanceTypes = dependencies.instanceTypes;
    this.#network = dependencies.network;
  }

  /** The node's server, or undefined when there is none (upstream `InstanceNotFound`). */
  serverOfNode(node: V1Node, options?: CallOptions): Promise<OpenStackServer | undefined> {
    return this.#locator.serverOfNode(node, options);
  }

  /** The node's server with its instance type and ports, or undefined when there is no server. */
  async factsOfNode(node: V1Node, options?: CallOptions): Promise<ServerFacts | undefined> {
    const server = await this.#locator.serverOfNode(node, options);
    if (server === undefined) return undefined;
    const [instanceType, ports] = await Promise.all([this.#instanceTypes.instanceTypeOf(server, options), this.#network.portsOfDevice(server.id, options)]);
    return { server, instanceType, ports };
  }
}
