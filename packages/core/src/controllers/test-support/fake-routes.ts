/**
 * An in-memory Routes for route controller tests, modelled on upstream `fake/fake.go`: routes are
 * kept under `<cluster>-<node>-<cidr>` when created (seeded routes keep their own name), a second
 * create of the same key fails, deletes match on cluster, node and CIDR. Calls are logged; errors
 * can be injected per operation; in-flight operations are counted.
 */
import type { Route, Routes } from '../../provider/routes.js';

interface StoredRoute {
  clusterName: string;
  route: Route;
}

export class FakeRoutes implements Routes {
  /** Applied to created routes (the provider's per-route switch). */
  enableNodeAddresses = false;
  /** Error thrown by listRoutes until cleared. */
  listError: Error | undefined;
  /** Decides a create failure per route (undefined = success). */
  createError: ((route: Route, nameHint: string) => Error | undefined) | undefined;
  deleteError: ((route: Route) => Error | undefined) | undefined;
  /** Artificial latency of create/delete, in ms (real or fake timers). */
  operationDelayMs = 0;

  readonly calls: string[] = [];
  readonly nameHints: string[] = [];
  maxInFlight = 0;
  #inFlight = 0;
  readonly #routes = new Map<string, StoredRoute>();

  /** Adds an existing route (test setup); not logged. */
  seed(clusterName: string, route: Route): void {
    this.#routes.set(route.name, { clusterName, route: structuredClone(route) });
  }

  /** Current routes of `clusterName` (copies), without logging a call. */
  snapshot(clusterName: string): Route[] {
    return [...this.#routes.values()].filter((stored) => stored.clusterName === clusterName).map((stored) => structuredClone(stored.route));
  }

  async listRoutes(clusterName: string): Promise<Route[]> {
    this.calls.push('list-routes');
    if (this.listError !== undefined) throw this.listError;
    return this.snapshot(clusterName);
  }

  async createRoute(clusterName: string, nameHint: string, route: Route): Promise<void> {
    this.calls.push('create-route');
    this.nameHints.push(nameHint);
    await this.#operation(async () => {
      const failure = this.createError?.(route, nameHint);
      if (failure !== undefined) throw failure;
      const name = `${clusterName}-${route.targetNode}-${route.destinationCidr}`;
      if (this.#routes.has(name)) throw new Error(`route with name ${JSON.stringify(name)} already exists`);
      this.#routes.set(name, {
        clusterName,
        route: { ...structuredClone(route), name, enableNodeAddresses: this.enableNodeAddresses },
      });
    });
  }

  async deleteRoute(clusterName: string, route: Route): Promise<void> {
    this.calls.push('delete-route');
    await this.#operation(async () => {
      const failure = this.deleteError?.(route);
      if (failure !== undefined) throw failure;
      const entry = [...this.#routes.entries()].find(
        ([, stored]) => stored.clusterName === clusterName && stored.route.targetNode === route.targetNode && stored.route.destinationCidr === route.destinationCidr,
      );
      if (entry === undefined) throw new Error(`no route found for node:${route.targetNode} with DestinationCIDR== ${route.destinationCidr}`);
      this.#routes.delete(entry[0]);
    });
  }

  async #operation(work: () => Promise<void>): Promise<void> {
    this.#inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.#inFlight);
    try {
      if (this.operationDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.operationDelayMs));
      await work();
    } finally {
      this.#inFlight--;
    }
  }
}
