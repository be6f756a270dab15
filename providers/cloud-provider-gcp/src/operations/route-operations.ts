/**
 * Pod routes (upstream `gce_routes.go`): one global route per pod CIDR, named
 * `<cluster name[:26]>-<name hint>` with description `k8s-node-route`, `nextHopInstance` the node's
 * instance, priority 1000, on the network of the instance's first interface (upstream; the cluster
 * network when the instance shows none), in the network project. Only routes carrying the
 * cluster's name prefix and the description on the cluster network are listed, so only those are
 * ever deleted. Dual-stack: the core route controller gives both pod CIDRs of a node the same
 * name hint; upstream would name both routes alike and silently lose the IPv6 one to the 409, so
 * an IPv6 route is named `<cluster name[:26]>-<hint without dashes>-v6` (IPv4 routes keep the
 * upstream name, so existing routes are adopted).
 */
import { InstanceNotFoundError, type Route } from '@ccm/core/provider';
import { isGceErrorKind } from '../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { ComputePort } from '../ports/compute-port.js';
import type { InstanceLocator } from './instance-locator.js';
import { nameOfLink, type ResourceLinks } from './resource-links.js';

export const ROUTE_DESCRIPTION = 'k8s-node-route';
export const ROUTE_PRIORITY = 1000;
/** Upstream `truncateClusterName`: at most 26 characters of the cluster name in route names. */
export const ROUTE_CLUSTER_NAME_LENGTH = 26;

/** GCE resource names are at most 63 characters. */
export const MAX_ROUTE_NAME_LENGTH = 63;
export const IPV6_ROUTE_SUFFIX = '-v6';

export function routeNamePrefix(clusterName: string): string {
  return `${clusterName.slice(0, ROUTE_CLUSTER_NAME_LENGTH)}-`;
}

/** Upstream `<cluster name[:26]>-<name hint>` for IPv4; for IPv6 the hint without dashes and `-v6` (a node UID fits: 26 + 1 + 32 + 3 = 62). */
export function routeName(clusterName: string, nameHint: string, destinationCidr: string): string {
  if (!destinationCidr.includes(':')) return `${routeNamePrefix(clusterName)}${nameHint}`;
  const room = MAX_ROUTE_NAME_LENGTH - routeNamePrefix(clusterName).length - IPV6_ROUTE_SUFFIX.length;
  return `${routeNamePrefix(clusterName)}${nameHint.replaceAll('-', '').slice(0, room)}${IPV6_ROUTE_SUFFIX}`;
}

export class RouteOperations {
  readonly #compute: ComputePort;
  readonly #locator: InstanceLocator;
  readonly #links: ResourceLinks;
  readonly #networkName: string;

  constructor(parts: { compute: ComputePort; locator: InstanceLocator; links: ResourceLinks; networkName: string }) {
    this.#compute = parts.compute;
    this.#locator = parts.locator;
    this.#links = parts.links;
    this.#networkName = parts.networkName;
  }

  async list(clusterName: string, options?: CallOptions): Promise<Route[]> {
    const routes = await this.#compute.listRoutes({ namePrefix: routeNamePrefix(clusterName), network: this.#links.network(this.#networkName), description: ROUTE_DESCRIPTION }, options);
    return routes.map((route) => ({
      name: route.name,
      targetNode: route.nextHopInstance === undefined ? '' : nameOfLink(route.nextHopInstance),
      destinationCidr: route.destRange,
      ...(route.nextHopInstance === undefined ? { blackhole: true } : {}),
    }));
  }

  async create(clusterName: string, nameHint: string, route: Route, options?: CallOptions): Promise<void> {
    const instance = await this.#locator.instanceByNodeName(route.targetNode, options);
    if (instance === undefined) throw new InstanceNotFoundError(`cannot route ${route.destinationCidr}: no instance found for node ${route.targetNode}`);
    try {
      await this.#compute.insertRoute(
        {
          name: routeName(clusterName, nameHint, route.destinationCidr),
          network: instance.networkInterfaces[0]?.network ?? this.#links.network(this.#networkName),
          destRange: route.destinationCidr,
          nextHopInstance: instance.selfLink === '' ? this.#links.instance(instance.zone, instance.name) : instance.selfLink,
          priority: ROUTE_PRIORITY,
          description: ROUTE_DESCRIPTION,
        },
        options,
      );
    } catch (error) {
      if (!isGceErrorKind(error, 'AlreadyExists')) throw error;
    }
  }

  async delete(clusterName: string, route: Route, options?: CallOptions): Promise<void> {
    if (!route.name.startsWith(routeNamePrefix(clusterName))) throw new Error(`refusing to delete route ${route.name}: it does not belong to cluster ${clusterName}`);
    try {
      await this.#compute.deleteRoute(route.name, options);
    } catch (error) {
      if (!isGceErrorKind(error, 'NotFound')) throw error;
    }
  }
}
