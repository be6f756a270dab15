/** Routes of the GCE provider: translates core's calls into route operations. */
import type { CloudCallOptions, Route, Routes } from '@ccm/core/provider';
import type { RouteOperations } from './operations/route-operations.js';

export class GcpRoutes implements Routes {
  readonly #operations: RouteOperations;

  constructor(operations: RouteOperations) {
    this.#operations = operations;
  }

  listRoutes(clusterName: string, options?: CloudCallOptions): Promise<Route[]> {
    return this.#operations.list(clusterName, options);
  }

  createRoute(clusterName: string, nameHint: string, route: Route, options?: CloudCallOptions): Promise<void> {
    return this.#operations.create(clusterName, nameHint, route, options);
  }

  deleteRoute(clusterName: string, route: Route, options?: CloudCallOptions): Promise<void> {
    return this.#operations.delete(clusterName, route, options);
  }
}
