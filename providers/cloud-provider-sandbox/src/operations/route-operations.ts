import type { Route } from '@ccm/core/provider';
import { isSandboxApiError } from '../ports/sandbox-api-error.js';
import type { CallOptions, SandboxCloudPort } from '../ports/sandbox-cloud-port.js';
import { SANDBOX_TAGS } from '../tags.js';
import type { InstanceOperations } from './instance-operations.js';

export class RouteTargetMissingError extends Error {
  constructor(nodeName: string) {
    super(`cannot create a route to node ${JSON.stringify(nodeName)}: no live instance has that name`);
    this.name = 'RouteTargetMissingError';
  }
}

export class RouteConflictError extends Error {
  constructor(destinationCidr: string) {
    super(`the route table already has a route for ${destinationCidr} that this cluster does not own or that leads elsewhere`);
    this.name = 'RouteConflictError';
  }
}

/** Routes of one cluster: the route table entries tagged with the cluster identity. */
export class RouteOperations {
  readonly #client: SandboxCloudPort;
  readonly #instances: InstanceOperations;

  constructor(client: SandboxCloudPort, instances: InstanceOperations) {
    this.#client = client;
    this.#instances = instances;
  }

  async list(clusterIdentity: string, options?: CallOptions): Promise<Route[]> {
    const routes = await this.#client.listRoutes({ [SANDBOX_TAGS.cluster]: clusterIdentity }, options);
    return routes.map((route) => {
      const listed: Route = { name: route.id, targetNode: route.targetInstanceName, destinationCidr: route.destinationCidr };
      if (route.blackhole) listed.blackhole = true;
      return listed;
    });
  }

  /** Creates the route; an identical route of ours that already exists counts as created. */
  async create(clusterIdentity: string, nameHint: string, targetNode: string, destinationCidr: string, options?: CallOptions): Promise<void> {
    const target = await this.#instances.findLiveByName(targetNode, options);
    if (target === undefined) throw new RouteTargetMissingError(targetNode);
    try {
      await this.#client.createRoute(
        {
          destinationCidr,
          targetInstanceId: target.id,
          description: nameHint,
          tags: { [SANDBOX_TAGS.cluster]: clusterIdentity, [SANDBOX_TAGS.node]: targetNode },
        },
        options,
      );
    } catch (error) {
      if (!isSandboxApiError(error, 'AlreadyExists')) throw error;
      const existing = (await this.#client.listRoutes({ [SANDBOX_TAGS.cluster]: clusterIdentity }, options)).find((route) => route.destinationCidr === destinationCidr);
      if (existing === undefined || existing.targetInstanceId !== target.id || existing.blackhole) throw new RouteConflictError(destinationCidr);
    }
  }

  /**
   * Deletes a route `list` returned; one already gone counts as deleted. The cloud refuses to
   * delete a route without this cluster's tag, so a stray route name can never remove a route
   * we do not own.
   */
  async delete(clusterIdentity: string, route: Route, options?: CallOptions): Promise<void> {
    try {
      await this.#client.deleteRoute(route.name, { [SANDBOX_TAGS.cluster]: clusterIdentity }, options);
    } catch (error) {
      if (!isSandboxApiError(error, 'NotFound')) throw error;
    }
  }
}
