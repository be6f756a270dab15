/**
 * Node -> server (upstream `InstancesV2.getInstance`): by provider ID when the node has one
 * (`openstack:///<id>`, or the regional form checked against the configured region), else by
 * its name, which must match exactly one server. A node with a provider ID is first looked up in
 * the batched list by its name (the server of a node is nearly always named after it), and by
 * `GET /servers/{id}` only when that list has no server with its ID: one batched call per many
 * nodes instead of one call per node, with upstream's answer. The batching is the compute port's
 * coalesce stage (`serversNamed`, `ports/openstack-lookup-coalescing.ts`).
 */
import type { V1Node } from '@kubernetes/client-node';
import { CloudStateError, isOpenStackErrorKind } from '../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { ComputePort, OpenStackServer } from '../ports/compute-port.js';
import { serverIdOfProviderId } from '../provider-id.js';

export class InstanceLocator {
  readonly #compute: ComputePort;
  readonly #region: string;

  constructor(compute: ComputePort, options: { region: string }) {
    this.#compute = compute;
    this.#region = options.region;
  }

  /** The node's server, or undefined when there is none (upstream `InstanceNotFound`). */
  async serverOfNode(node: V1Node, options?: CallOptions): Promise<OpenStackServer | undefined> {
    const name = node.metadata?.name ?? '';
    const providerId = node.spec?.providerID ?? '';
    if (providerId === '') {
      const servers = await this.#compute.serversNamed(name, options);
      if (servers.length > 1) throw new CloudStateError(`getInstance: multiple instances found: ${servers.length} servers are named ${JSON.stringify(name)}`);
      return servers[0];
    }
    const serverId = serverIdOfProviderId(providerId, this.#region);
    if (name !== '') {
      const named = (await this.#compute.serversNamed(name, options)).find((server) => server.id === serverId);
      if (named !== undefined) return named;
    }
    try {
      return await this.#compute.getServer(serverId, options);
    } catch (error) {
      if (isOpenStackErrorKind(error, 'NotFound')) return undefined;
      throw error;
    }
  }
}
