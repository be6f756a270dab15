/**
 * Routes of the Azure provider (upstream `azure_routes.go`): the route table of the config, one
 * route per pod CIDR named `<node>____<cidr>`, next hop the node's private IP of the CIDR's
 * family. Listing maps route names back to node names; the route controller deletes only routes
 * inside the cluster CIDR whose node is gone.
 */
import type { CloudApiObserver } from '@ccm/core/cloud';
import type { Logger } from '@ccm/core/logging';
import type { CloudCallOptions, Route, Routes } from '@ccm/core/provider';
import { CloudStateError } from './errors.js';
import { AZURE_UPSTREAM_OPERATIONS } from './metrics/upstream-metrics.js';
import type { InstanceLocator } from './operations/instance-locator.js';
import type { NodeAddressOperations } from './operations/node-addresses.js';
import { nextHopFor, type RouteTableOperations } from './operations/route-table.js';

export interface AzureRoutesDependencies {
  routeTable: RouteTableOperations;
  locator: InstanceLocator;
  addresses: NodeAddressOperations;
  resourceGroup: string;
  logger: Logger;
  /** Times each create and delete into upstream's `cloudprovider_azure_op_*` series (none without metrics). */
  operationMetrics?: CloudApiObserver;
}

export class AzureRoutes implements Routes {
  readonly #dependencies: AzureRoutesDependencies;

  constructor(dependencies: AzureRoutesDependencies) {
    this.#dependencies = dependencies;
  }

  async listRoutes(_clusterName: string, _options?: CloudCallOptions): Promise<Route[]> {
    const routes = await this.#dependencies.routeTable.listRoutes();
    return routes.map((route) => ({ name: route.name, targetNode: route.targetNodeName, destinationCidr: route.destinationCidr }));
  }

  async createRoute(_clusterName: string, nameHint: string, route: Route, _options?: CloudCallOptions): Promise<void> {
    await this.#timed(AZURE_UPSTREAM_OPERATIONS.createRoute, route, () => this.#create(nameHint, route));
  }

  async #create(nameHint: string, route: Route): Promise<void> {
    const { locator, addresses, routeTable, logger, resourceGroup } = this.#dependencies;
    const vm = await locator.byNodeName(route.targetNode, [resourceGroup]);
    if (vm === undefined) throw new CloudStateError(`cannot create the route of node ${JSON.stringify(route.targetNode)}: its VM was not found in resource group ${resourceGroup}`);
    const nextHop = nextHopFor(route.destinationCidr, await addresses.privateIpsOf(vm));
    if (nextHop === undefined) throw new CloudStateError(`cannot create the route of node ${JSON.stringify(route.targetNode)}: it has no private IP of the family of ${route.destinationCidr}`);
    logger.info('ensuring route', { node: route.targetNode, destinationCidr: route.destinationCidr, nextHop, nameHint });
    await routeTable.ensureRoute(route.targetNode, route.destinationCidr, nextHop);
  }

  async deleteRoute(_clusterName: string, route: Route, _options?: CloudCallOptions): Promise<void> {
    this.#dependencies.logger.info('deleting route', { name: route.name, node: route.targetNode, destinationCidr: route.destinationCidr });
    await this.#timed(AZURE_UPSTREAM_OPERATIONS.deleteRoute, route, () => this.#dependencies.routeTable.deleteRoute(route.name));
  }

  /** Runs `run` as upstream's operation `request`, its `source` the route's node. */
  #timed(request: string, route: Route, run: () => Promise<void>): Promise<void> {
    const observer = this.#dependencies.operationMetrics;
    return observer === undefined ? run() : observer.observe(request, run, [route.targetNode]);
  }
}
