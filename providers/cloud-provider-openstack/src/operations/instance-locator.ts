/**
 * Node -> server (upstream `InstancesV2.getInstance`): by provider ID when the node has one
 * (`openstack:///<id>`, or the regional form checked against the configured region), else by
 * its name, which must match exactly one server. A node with a provider ID is first looked up in
 * the batched list by its name (the server of a node is nearly always named after it), and by
 * `GET /servers/{id}` only when that list has no server with its ID: one batched call per many
 * nodes instead of one call per node, with upstream's answer.
 */
import type { V1Node } from '@kubernetes/client-node';
import { CloudStateError } from '../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { OpenStackServer } from '../ports/compute-port.js';
import { serverIdOfProviderId } from '../provider-id.js';
import type { ServerLookup } from './server-lookup.js';

export class InstanceLocator {
  readonly #lookup: ServerLookup;
  readonly #region: string;

  constructor(lookup: ServerLookup, options: { region: string }) {
    this.#lookup = lookup;
    this.#region = options.region;
  }

  /** The node's server, or undefined when there is none (upstream `InstanceNotFound`). */
  async serverOfNode(node: V1Node, options?: CallOptions): Promise<OpenStackServer | undefined> {
    const name = node.metadata?.name ?? '';
    const providerId = node.spec?.providerID ?? '';
    if (providerId === '') {
      const servers = await this.#lookup.serversNamed(name, options);
      if (servers.length > 1) throw new CloudStateError(`getInstance: multiple instances found: ${servers.length} servers are named ${JSON.stringify(name)}`);
      return servers[0];
    }
    const serverId = serverIdOfProviderId(providerId, this.#region);
    if (name !== '') {
      const named = (await this.#lookup.serversNamed(name, options)).find((server) => server.id === serverId);
      if (named !== undefined) return named;
    }
    return this.#lookup.serverById(serverId, options);
  }
}
