/**
 * An in-memory NetworkPort with Neutron's semantics the operations rely on: port filters (values
 * of one field ORed, fields ANDed, `fixed_ips` by address), routers with their
 * extra routes (`add_extraroutes` ignores routes already there, `remove_extraroutes` ignores
 * missing ones, PUT replaces the list; NotFound for a missing router), allowed address pairs
 * rejected on ports without port security (Conflict, as Neutron's `AddressPairAndPortSecurityRequired`),
 * the extension list, and what Neutron refuses: a next hop outside the router's subnets, a
 * malformed allowed address (Invalid). It logs every call and lets a test inject failures.
 */
import type { NetworkPort, NeutronAllowedAddressPair, NeutronPort, NeutronRoute, NeutronRouter, PortFilter } from '../../src/ports/network-port.js';
import { addressInCidr, isAddressOrCidr } from './fake-addresses.js';
import { FakeCalls, fakeError } from './fake-errors.js';

type Method = keyof NetworkPort;

const sameRoute = (left: NeutronRoute, right: NeutronRoute): boolean => left.destination === right.destination && left.nexthop === right.nexthop;

export class FakeNetwork extends FakeCalls<Method> implements NetworkPort {
  readonly ports = new Map<string, NeutronPort>();
  readonly routers = new Map<string, { id: string; routes: NeutronRoute[]; connectedCidrs: readonly string[] }>();
  extensionAliases: string[] = ['extraroute', 'extraroute-atomic', 'allowed-address-pairs'];
  /** The device IDs asked for by each `listPorts` call with a device filter. */
  readonly deviceLists: string[][] = [];
  #nextId = 1;

  addPort(port: Partial<NeutronPort> & { networkId: string; deviceId: string; fixedIps: NeutronPort['fixedIps'] }): NeutronPort {
    const full: NeutronPort = {
      id: port.id ?? `port-${this.#nextId++}`,
      status: 'ACTIVE',
      macAddress: 'fa:16:3e:00:00:01',
      allowedAddressPairs: [],
      portSecurityEnabled: true,
      ...port,
    };
    this.ports.set(full.id, full);
    return structuredClone(full);
  }

  /** A router with interfaces on `connectedCidrs`: Neutron refuses a route whose next hop is in none of them. */
  addRouter(id: string, connectedCidrs: readonly string[], routes: NeutronRoute[] = []): void {
    this.routers.set(id, { id, routes: [...routes], connectedCidrs: [...connectedCidrs] });
  }

  async listPorts(filter: PortFilter): Promise<NeutronPort[]> {
    this.enter('listPorts');
    if (filter.deviceIds !== undefined) this.deviceLists.push([...filter.deviceIds]);
    return [...this.ports.values()]
      .filter((port) => filter.deviceIds === undefined || filter.deviceIds.includes(port.deviceId))
      .filter((port) => filter.networkIds === undefined || filter.networkIds.includes(port.networkId))
      .filter((port) => filter.ipAddresses === undefined || port.fixedIps.some((fixedIp) => filter.ipAddresses?.includes(fixedIp.ipAddress)))
      .map((port) => structuredClone(port));
  }

  /** Unbatched, as the SDK adapter: the port's coalesce stage answers it with `listPorts`. */
  portsOfDevice(deviceId: string): Promise<NeutronPort[]> {
    return this.listPorts({ deviceIds: [deviceId] });
  }

  async updatePortAllowedAddressPairs(portId: string, pairs: readonly NeutronAllowedAddressPair[]): Promise<NeutronPort> {
    this.enter('updatePortAllowedAddressPairs');
    if (pairs.some((pair) => !isAddressOrCidr(pair.ipAddress))) throw fakeError('Invalid', 'network.updatePortAllowedAddressPairs');
    const port = this.ports.get(portId);
    if (port === undefined) throw fakeError('NotFound', 'network.updatePortAllowedAddressPairs');
    if (!port.portSecurityEnabled && pairs.length > 0) throw fakeError('Conflict', 'network.updatePortAllowedAddressPairs');
    port.allowedAddressPairs = pairs.map((pair) => ({ ...pair }));
    return structuredClone(port);
  }

  #router(routerId: string, operation: string): { id: string; routes: NeutronRoute[]; connectedCidrs: readonly string[] } {
    const router = this.routers.get(routerId);
    if (router === undefined) throw fakeError('NotFound', `network.${operation}`);
    return router;
  }

  /** Neutron's `InvalidRoutes` (400): a next hop in no subnet of the router's interfaces. */
  #checkNexthops(router: { connectedCidrs: readonly string[] }, routes: readonly NeutronRoute[], operation: string): void {
    if (routes.some((route) => !router.connectedCidrs.some((cidr) => addressInCidr(route.nexthop, cidr)))) throw fakeError('Invalid', `network.${operation}`);
  }

  #answer(router: { id: string; routes: NeutronRoute[] }): NeutronRouter {
    return { id: router.id, routes: router.routes.map((route) => ({ ...route })) };
  }

  async getRouter(routerId: string): Promise<NeutronRouter> {
    this.enter('getRouter');
    return this.#answer(this.#router(routerId, 'getRouter'));
  }

  async addExtraRoutes(routerId: string, routes: readonly NeutronRoute[]): Promise<NeutronRouter> {
    this.enter('addExtraRoutes');
    const router = this.#router(routerId, 'addExtraRoutes');
    this.#checkNexthops(router, routes, 'addExtraRoutes');
    for (const route of routes) if (!router.routes.some((existing) => sameRoute(existing, route))) router.routes.push({ ...route });
    return this.#answer(router);
  }

  async removeExtraRoutes(routerId: string, routes: readonly NeutronRoute[]): Promise<NeutronRouter> {
    this.enter('removeExtraRoutes');
    const router = this.#router(routerId, 'removeExtraRoutes');
    router.routes = router.routes.filter((existing) => !routes.some((route) => sameRoute(existing, route)));
    return this.#answer(router);
  }

  async setRouterRoutes(routerId: string, routes: readonly NeutronRoute[]): Promise<NeutronRouter> {
    this.enter('setRouterRoutes');
    const router = this.#router(routerId, 'setRouterRoutes');
    this.#checkNexthops(router, routes, 'setRouterRoutes');
    router.routes = routes.map((route) => ({ ...route }));
    return this.#answer(router);
  }

  async listExtensionAliases(): Promise<string[]> {
    this.enter('listExtensionAliases');
    return [...this.extensionAliases];
  }
}
