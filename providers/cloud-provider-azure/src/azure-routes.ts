/**
 * Routes of the Azure provider (upstream `azure_routes.go`): the route table of the config, one
 * route per pod CIDR named `<node>____<cidr>`, next hop the node's private IP of the CIDR's
 * family, the VM looked up in the cluster's resource group and then in the node's
 * `kubernetes.azure.com/resource-group` label's. Listing maps route names back to node names; the
 * route controller deletes only routes inside the cluster CIDR whose node is gone.
 *
 * Nodes labelled `kubernetes.azure.com/managed=false` get no route in the table: their CIDRs are
 * kept in memory and listed, so the route controller does not retry them (upstream
 * `CreateRoute` / `DeleteRoute` "omitting unmanaged node", `ListRoutes` with `routeCIDRs`).
 */
import type { V1Node } from '@kubernetes/client-node';
import type { CloudApiObserver } from '@ccm/core/cloud';
import type { ObjectStore } from '@ccm/core/kube';
import type { Logger } from '@ccm/core/logging';
import type { CloudCallOptions, Route, Routes } from '@ccm/core/provider';
import { LABEL_MANAGED, resourceGroupsOf } from './azure-instances.js';
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

/** Upstream `IsNodeUnmanaged`: the node carries `kubernetes.azure.com/managed=false` (any case). */
function isUnmanagedByLabel(node: V1Node | undefined): boolean {
  return node?.metadata?.labels?.[LABEL_MANAGED]?.toLowerCase() === 'false';
}

export class AzureRoutes implements Routes {
  readonly #dependencies: AzureRoutesDependencies;
  /** The Nodes as the shared informer has them (upstream's node caches); none until `attachNodes`. */
  #nodes: ObjectStore<V1Node> | undefined;
  /** Pod CIDRs of unmanaged nodes, by node name (upstream `routeCIDRs`). */
  readonly #unmanagedRouteCidrs = new Map<string, string>();

  constructor(dependencies: AzureRoutesDependencies) {
    this.#dependencies = dependencies;
  }

  /** Reads node labels from the shared Node informer's store (the provider's `initialize`). */
  attachNodes(nodes: ObjectStore<V1Node>): void {
    this.#nodes = nodes;
  }

  async listRoutes(_clusterName: string, _options?: CloudCallOptions): Promise<Route[]> {
    const routes = await this.#dependencies.routeTable.listRoutes();
    const listed: Route[] = routes.map((route) => ({ name: route.name, targetNode: route.targetNodeName, destinationCidr: route.destinationCidr }));
    for (const [nodeName, destinationCidr] of this.#unmanagedRouteCidrs) {
      if (isUnmanagedByLabel(this.#nodeNamed(nodeName))) listed.push({ name: nodeName, targetNode: nodeName, destinationCidr });
    }
    return listed;
  }

  async createRoute(_clusterName: string, nameHint: string, route: Route, _options?: CloudCallOptions): Promise<void> {
    await this.#timed(AZURE_UPSTREAM_OPERATIONS.createRoute, route, () => this.#create(nameHint, route));
  }

  async #create(nameHint: string, route: Route): Promise<void> {
    const { locator, addresses, routeTable, logger, resourceGroup } = this.#dependencies;
    const node = this.#nodeNamed(route.targetNode);
    if (isUnmanagedByLabel(node)) {
      logger.verbose(2, `CreateRoute: omitting unmanaged node ${JSON.stringify(route.targetNode)}`);
      this.#unmanagedRouteCidrs.set(route.targetNode, route.destinationCidr);
      return;
    }
    const resourceGroups = resourceGroupsOf(node, resourceGroup);
    const vm = await locator.byNodeName(route.targetNode, resourceGroups);
    if (vm === undefined) throw new CloudStateError(`cannot create the route of node ${JSON.stringify(route.targetNode)}: its VM was not found in resource group ${resourceGroups.join(' or ')}`);
    const nextHop = nextHopFor(route.destinationCidr, await addresses.privateIpsOf(vm));
    if (nextHop === undefined) throw new CloudStateError(`cannot create the route of node ${JSON.stringify(route.targetNode)}: it has no private IP of the family of ${route.destinationCidr}`);
    logger.info('ensuring route', { node: route.targetNode, destinationCidr: route.destinationCidr, nextHop, nameHint });
    await routeTable.ensureRoute(route.targetNode, route.destinationCidr, nextHop);
  }

  async deleteRoute(_clusterName: string, route: Route, _options?: CloudCallOptions): Promise<void> {
    if (isUnmanagedByLabel(this.#nodeNamed(route.targetNode))) {
      this.#dependencies.logger.verbose(2, `DeleteRoute: omitting unmanaged node ${JSON.stringify(route.targetNode)}`);
      this.#unmanagedRouteCidrs.delete(route.targetNode);
      return;
    }
    this.#dependencies.logger.info('deleting route', { name: route.name, node: route.targetNode, destinationCidr: route.destinationCidr });
    await this.#timed(AZURE_UPSTREAM_OPERATIONS.deleteRoute, route, () => this.#dependencies.routeTable.deleteRoute(route.name));
  }

  #nodeNamed(name: string): V1Node | undefined {
    return this.#nodes?.get(name);
  }

  /** Runs `run` as upstream's operation `request`, its `source` the route's node. */
  #timed(request: string, route: Route, run: () => Promise<void>): Promise<void> {
    const observer = this.#dependencies.operationMetrics;
    return observer === undefined ? run() : observer.observe(request, run, [route.targetNode]);
  }
}
