/**
 * Routes of the OpenStack provider (upstream `routes.go`): pod routes are extra routes of the
 * `[Route] router-id` router, next hop = the target node's InternalIP of the CIDR's family.
 * - list: every route of the router, named by its destination; its target is the node owning the
 *   next hop, else the next hop itself as a blackhole (core's route controller deletes blackholes
 *   inside the cluster CIDR only). A route to a node whose port (with port security) lacks the
 *   allowed address pair of the route is left out, so the controller creates it again; a route
 *   whose next hop no port holds is listed as it is, with a warning (it failed the whole list).
 * - create: the route, then the CIDR in the node port's `allowed_address_pairs`; a failure undoes
 *   the earlier steps.
 * - delete: the route (a blackhole by its listed next hop), then the address pair; same unwinding.
 */
import { isIPv6 } from 'node:net';
import type { CloudCallOptions, Route, Routes } from '@ccm/core/provider';
import type { Logger } from '@ccm/core/logging';
import { CloudStateError } from './errors.js';
import type { NodeDirectory } from './kube/node-addresses-directory.js';
import { unwind, type RouterRouteOperations, type Undo } from './operations/router-routes.js';

export interface OpenStackRoutesDependencies {
  router: RouterRouteOperations;
  nodes: NodeDirectory;
  logger: Logger;
}

const isV6Cidr = (cidr: string): boolean => isIPv6(cidr.split('/')[0] ?? '');

export class OpenStackRoutes implements Routes {
  readonly #router: RouterRouteOperations;
  readonly #nodes: NodeDirectory;
  readonly #logger: Logger;

  constructor(dependencies: OpenStackRoutesDependencies) {
    this.#router = dependencies.router;
    this.#nodes = dependencies.nodes;
    this.#logger = dependencies.logger;
  }

  async listRoutes(_clusterName: string, options?: CloudCallOptions): Promise<Route[]> {
    // Upstream ErrNoNodeInformer: without the nodes every route would look like a blackhole.
    if (!this.#nodes.ready()) throw new CloudStateError('the node informer has not synced yet: cannot tell node routes from blackholes');
    const { allowedAddressPairs } = await this.#router.features(options);
    const routes: Route[] = [];
    let networkIds: string[] | undefined;
    for (const item of await this.#router.routes(options)) {
      const nodeName = this.#nodes.nodeNameOfAddress(item.nexthop);
      if (nodeName !== undefined && allowedAddressPairs) {
        networkIds ??= await this.#router.routerNetworkIds(options);
        const port = await this.#router.portOfAddress(item.nexthop, networkIds, options);
        if (port === undefined) {
          // One route whose next hop has no port must not hide every other node's routes: it is
          // listed as it is (nothing to check), and the problem named.
          this.#logger.warn('no port holds the next hop of a route on the router\'s networks: its allowed address pair cannot be checked', {
            route: item.destination,
            nexthop: item.nexthop,
            router: this.#router.routerId,
          });
        } else if (port.portSecurityEnabled && !port.allowedAddressPairs.some((pair) => pair.ipAddress === item.destination)) {
          continue;
        }
      }
      routes.push({ name: item.destination, targetNode: nodeName ?? item.nexthop, destinationCidr: item.destination, blackhole: nodeName === undefined });
    }
    return routes;
  }

  async createRoute(_clusterName: string, _nameHint: string, route: Route, options?: CloudCallOptions): Promise<void> {
    const nexthop = this.#nodes.internalAddressOf(route.targetNode, isV6Cidr(route.destinationCidr));
    if (nexthop === '') throw new CloudStateError(`no ${isV6Cidr(route.destinationCidr) ? 'IPv6' : 'IPv4'} InternalIP found for node ${JSON.stringify(route.targetNode)}`);
    const undo: Undo[] = [];
    try {
      undo.push(await this.#router.addRoute({ destination: route.destinationCidr, nexthop }, options));
      await this.#updateAddressPairs('allow', nexthop, route.destinationCidr, undo, options);
    } catch (error) {
      await unwind(undo);
      throw error;
    }
  }

  async deleteRoute(_clusterName: string, route: Route, options?: CloudCallOptions): Promise<void> {
    const blackhole = route.blackhole === true;
    const nexthop = blackhole ? route.targetNode : this.#nodes.internalAddressOf(route.targetNode, isV6Cidr(route.destinationCidr));
    if (nexthop === '') throw new CloudStateError(`no ${isV6Cidr(route.destinationCidr) ? 'IPv6' : 'IPv4'} InternalIP found for node ${JSON.stringify(route.targetNode)}`);
    const undo: Undo[] = [];
    try {
      const removed = await this.#router.removeRoute({ destination: route.destinationCidr, nexthop }, options);
      // A blackhole has no port to update; a route that was not there leaves the port alone too.
      if (removed === undefined || blackhole) return;
      undo.push(removed);
      await this.#updateAddressPairs('disallow', nexthop, route.destinationCidr, undo, options);
    } catch (error) {
      await unwind(undo);
      throw error;
    }
  }

  async #updateAddressPairs(change: 'allow' | 'disallow', nexthop: string, cidr: string, undo: Undo[], options?: CloudCallOptions): Promise<void> {
    const port = await this.#router.portOfAddress(nexthop, await this.#router.routerNetworkIds(options), options);
    if (port === undefined) throw new CloudStateError(`no port holds ${nexthop} on the networks of router ${this.#router.routerId}`);
    if (!port.portSecurityEnabled) {
      this.#logger.warn('skipping the allowed_address_pairs update of a port without port security', { port: port.id });
      return;
    }
    if (!(await this.#router.features(options)).allowedAddressPairs) return;
    undo.push(change === 'allow' ? await this.#router.allowAddress(port, cidr, options) : await this.#router.disallowAddress(port, cidr, options));
  }
}
