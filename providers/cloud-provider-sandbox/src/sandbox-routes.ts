import type { CloudCallOptions, Route, Routes } from '@ccm/core/provider';
import type { RouteOperations } from './operations/route-operations.js';
import { callOptions } from './call-options.js';

/** Routes for the sandbox: entries of the cloud's route table tagged with the cluster identity. */
export class SandboxRoutes implements Routes {
  readonly #operations: RouteOperations;
  readonly #clusterIdentity: (clusterName: string) => string;

  constructor(operations: RouteOperations, clusterIdentity: (clusterName: string) => string) {
    this.#operations = operations;
    this.#clusterIdentity = clusterIdentity;
  }

  listRoutes(clusterName: string, options?: CloudCallOptions): Promise<Route[]> {
    return this.#operations.list(this.#clusterIdentity(clusterName), callOptions(options));
  }

  createRoute(clusterName: string, nameHint: string, route: Route, options?: CloudCallOptions): Promise<void> {
    return this.#operations.create(this.#clusterIdentity(clusterName), nameHint, route.targetNode, route.destinationCidr, callOptions(options));
  }

  deleteRoute(clusterName: string, route: Route, options?: CloudCallOptions): Promise<void> {
    return this.#operations.delete(this.#clusterIdentity(clusterName), route, callOptions(options));
  }
}
