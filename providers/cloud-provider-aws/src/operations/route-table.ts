/**
 * Route table operations (upstream `aws_routes.go`). The cluster's table is the configured
 * `RouteTableID`, or the only route table carrying the cluster tag.
 */
import { CloudStateError } from '../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import { ec2Filter, type Ec2Port, type Ec2Route, type Ec2RouteTable } from '../ports/ec2-port.js';
import type { ClusterTagging } from '../tags.js';

export type RouteAction =
  | { kind: 'none'; reason: string }
  | { kind: 'create' }
  | { kind: 'replace'; reason: string };

/**
 * Pure: what to do so `cidr` routes to `instanceId`. Upstream deletes a blackhole route and
 * creates a new one; we replace any route for the CIDR in place (one atomic call) and leave a
 * route that already points at the instance alone.
 */
export function planRoute(table: Ec2RouteTable, cidr: string, instanceId: string): RouteAction {
  const existing = table.routes.find((route) => route.destinationCidrBlock === cidr);
  if (!existing) return { kind: 'create' };
  if (existing.state === 'blackhole') return { kind: 'replace', reason: 'blackhole route' };
  if (existing.instanceId === instanceId) return { kind: 'none', reason: 'route exists' };
  return { kind: 'replace', reason: `route points at ${describeTarget(existing)}` };
}

function describeTarget(route: Ec2Route): string {
  return route.instanceId ?? route.networkInterfaceId ?? route.gatewayId ?? 'another target';
}

export interface RouteTableDependencies {
  ec2: Ec2Port;
  tagging: ClusterTagging;
  /** `RouteTableID` of the config; empty: the cluster's tagged table. */
  routeTableId: string;
}

export class RouteTableOperations {
  readonly #dependencies: RouteTableDependencies;

  constructor(dependencies: RouteTableDependencies) {
    this.#dependencies = dependencies;
  }

  async findRouteTable(clusterName: string, options?: CallOptions): Promise<Ec2RouteTable> {
    let tables: Ec2RouteTable[];
    if (this.#dependencies.routeTableId !== '') {
      tables = await this.#dependencies.ec2.describeRouteTables({ filters: [ec2Filter('route-table-id', this.#dependencies.routeTableId)] }, options);
    } else {
      tables = (await this.#dependencies.ec2.describeRouteTables({}, options)).filter((table) => this.#dependencies.tagging.hasClusterTag(table.tags));
    }
    if (tables.length === 0) throw new CloudStateError(`unable to find route table for AWS cluster: ${clusterName}`);
    if (tables.length > 1) {
      throw new CloudStateError(
        `found multiple matching AWS route tables for AWS cluster: ${clusterName} (${tables.map((table) => table.routeTableId).join(', ')})`,
      );
    }
    return tables[0] as Ec2RouteTable;
  }
}
