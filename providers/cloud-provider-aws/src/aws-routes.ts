/**
 * Routes for AWS (upstream `aws_routes.go`): one route per pod CIDR in the cluster's route table,
 * pointing at the node's instance, with the source/destination check disabled on that instance.
 */
import type { Logger } from '@ccm/core/logging';
import type { CloudCallOptions, Route, Routes } from '@ccm/core/provider';
import { AwsApiError } from './errors.js';
import type { Ec2Instance, Ec2Port } from './ports/ec2-port.js';
import type { InstanceLocator } from './operations/instance-locator.js';
import { planRoute, type RouteTableOperations } from './operations/route-table.js';

export interface AwsRoutesDependencies {
  ec2: Ec2Port;
  routeTables: RouteTableOperations;
  locator: InstanceLocator;
  logger: Logger;
}

export class AwsRoutes implements Routes {
  readonly #dependencies: AwsRoutesDependencies;

  constructor(dependencies: AwsRoutesDependencies) {
    this.#dependencies = dependencies;
  }

  /**
   * Instance routes with their node name, and blackhole routes with `blackhole: true`. Routes to
   * gateways, interfaces or unknown instances are not ours and are left out.
   */
  async listRoutes(clusterName: string, options?: CloudCallOptions): Promise<Route[]> {
    const { routeTables, locator, logger } = this.#dependencies;
    const table = await routeTables.findRouteTable(clusterName, options);
    const instanceIds = [...new Set(table.routes.flatMap((route) => (route.instanceId ? [route.instanceId] : [])))];
    const instances = new Map<string, Ec2Instance>();
    await Promise.all(
      instanceIds.map(async (instanceId) => {
        const instance = await locator.lookup.byId(instanceId, options);
        if (instance) instances.set(instanceId, instance);
      }),
    );
    const routes: Route[] = [];
    for (const route of table.routes) {
      const cidr = route.destinationCidrBlock ?? '';
      if (cidr === '') continue;
      const base = { name: `${clusterName}-${cidr}`, destinationCidr: cidr };
      if (route.state === 'blackhole') {
        routes.push({ ...base, targetNode: '', blackhole: true });
        continue;
      }
      if (!route.instanceId) continue;
      const instance = instances.get(route.instanceId);
      if (!instance) {
        logger.warn('unable to find instance of route', { instanceId: route.instanceId, destinationCidr: cidr });
        continue;
      }
      routes.push({ ...base, targetNode: locator.nodeNameOfInstance(instance), blackhole: false });
    }
    return routes;
  }

  async createRoute(clusterName: string, nameHint: string, route: Route, options?: CloudCallOptions): Promise<void> {
    const { ec2, routeTables, locator, logger } = this.#dependencies;
    const instance = await locator.instanceOfNodeName(route.targetNode, options);
    // Pod traffic is addressed to IPs that are not the instance's own: turn the check off.
    if (instance.sourceDestCheck !== false) {
      await ec2.modifyInstanceSourceDestCheck({ instanceId: instance.instanceId, enabled: false }, options);
    }
    const table = await routeTables.findRouteTable(clusterName, options);
    const action = planRoute(table, route.destinationCidr, instance.instanceId);
    const request = { routeTableId: table.routeTableId, destinationCidrBlock: route.destinationCidr, instanceId: instance.instanceId };
    switch (action.kind) {
      case 'none':
        return;
      case 'replace':
        logger.info('replacing route', { destinationCidr: route.destinationCidr, instanceId: instance.instanceId, reason: action.reason, nameHint });
        await ec2.replaceRoute(request, options);
        return;
      case 'create':
        logger.info('creating route', { destinationCidr: route.destinationCidr, instanceId: instance.instanceId, nameHint });
        await ec2.createRoute(request, options);
        return;
    }
  }

  /** Deleting a route that is already gone succeeds. */
  async deleteRoute(clusterName: string, route: Route, options?: CloudCallOptions): Promise<void> {
    const { ec2, routeTables, logger } = this.#dependencies;
    const table = await routeTables.findRouteTable(clusterName, options);
    logger.info('deleting route', { destinationCidr: route.destinationCidr, routeTableId: table.routeTableId });
    try {
      await ec2.deleteRoute({ routeTableId: table.routeTableId, destinationCidrBlock: route.destinationCidr }, options);
    } catch (error) {
      if (AwsApiError.hasKind(error, 'NotFound')) return;
      throw error;
    }
  }
}
