/**
 * One contract for the NetworkPort (instances and routes), run on the in-memory fake
 * (test/fakes/fake-network.ts) and on the production adapter (sdk-network-port.ts) against the
 * real Neutron of @ccm/openstack-services (issue 23 point 4): port filters, allowed address pairs,
 * router extra routes, and what Neutron refuses (unknown ports and routers, pairs on a port
 * without port security, a malformed address, a next hop outside the router's subnets).
 */
import { expect, it } from 'vitest';
import type { NetworkPort, NeutronPort } from '../../src/ports/network-port.js';
import { refusalKind, UNKNOWN_UUID } from './refusal-kind.js';

export interface NetworkPortContractFixture {
  port: NetworkPort;
  /** The network the ports are made in. */
  networkId: string;
  /** A port on that network with one fixed IP, owned by `deviceId`. */
  createPort(deviceId: string, options?: { portSecurityEnabled?: boolean }): Promise<NeutronPort>;
  /** A router with an interface on the network's subnet, no routes. */
  createRouter(): Promise<{ id: string }>;
  /** Two addresses inside the network's subnet (next hops) and one outside every subnet of the router. */
  nexthops: { inside: [string, string]; outside: string };
  /** Unique per run. */
  prefix: string;
}

export function describeNetworkPortContract(fixture: () => NetworkPortContractFixture): void {
  it('lists ports by device, by fixed address and by network (fields ANDed, values ORed)', async () => {
    const side = fixture();
    const first = await side.createPort(`${side.prefix}-device-a`);
    const second = await side.createPort(`${side.prefix}-device-b`);
    const address = first.fixedIps[0]!.ipAddress;
    expect((await side.port.portsOfDevice(`${side.prefix}-device-a`)).map((port) => port.id)).toEqual([first.id]);
    expect((await side.port.listPorts({ deviceIds: [`${side.prefix}-device-a`, `${side.prefix}-device-b`] })).map((port) => port.id).sort()).toEqual([first.id, second.id].sort());
    expect((await side.port.listPorts({ ipAddresses: [address], networkIds: [side.networkId] })).map((port) => port.id)).toEqual([first.id]);
    expect(await side.port.listPorts({ ipAddresses: [address], deviceIds: [`${side.prefix}-device-b`] })).toEqual([]);
    expect(await side.port.portsOfDevice(`${side.prefix}-nobody`)).toEqual([]);
    const [read] = await side.port.portsOfDevice(`${side.prefix}-device-a`);
    expect(read).toMatchObject({ networkId: side.networkId, deviceId: `${side.prefix}-device-a`, portSecurityEnabled: true, allowedAddressPairs: [] });
  });

  it('replaces the allowed address pairs; refuses them on an unknown port (NotFound), a malformed address (Invalid) and a port without port security (Conflict)', async () => {
    const side = fixture();
    const port = await side.createPort(`${side.prefix}-pairs`);
    const updated = await side.port.updatePortAllowedAddressPairs(port.id, [{ ipAddress: '10.244.1.0/24' }]);
    expect(updated.allowedAddressPairs.map((pair) => pair.ipAddress)).toEqual(['10.244.1.0/24']);
    const replaced = await side.port.updatePortAllowedAddressPairs(port.id, [{ ipAddress: '10.244.2.0/24' }, { ipAddress: '10.244.3.0/24' }]);
    expect(replaced.allowedAddressPairs.map((pair) => pair.ipAddress)).toEqual(['10.244.2.0/24', '10.244.3.0/24']);
    expect((await side.port.updatePortAllowedAddressPairs(port.id, [])).allowedAddressPairs).toEqual([]);
    expect(await refusalKind(side.port.updatePortAllowedAddressPairs(UNKNOWN_UUID, [{ ipAddress: '10.244.1.0/24' }]))).toBe('NotFound');
    expect(await refusalKind(side.port.updatePortAllowedAddressPairs(port.id, [{ ipAddress: 'not-an-address' }]))).toBe('Invalid');
    const open = await side.createPort(`${side.prefix}-no-security`, { portSecurityEnabled: false });
    expect(open.portSecurityEnabled).toBe(false);
    expect(await refusalKind(side.port.updatePortAllowedAddressPairs(open.id, [{ ipAddress: '10.244.1.0/24' }]))).toBe('Conflict');
  });

  it('adds and removes extra routes (a route already there or already gone is no error) and replaces the list', async () => {
    const side = fixture();
    const router = await side.createRouter();
    const [hopA, hopB] = side.nexthops.inside;
    const routeA = { destination: '10.244.1.0/24', nexthop: hopA };
    const routeB = { destination: '10.244.2.0/24', nexthop: hopB };
    expect((await side.port.getRouter(router.id)).routes).toEqual([]);
    expect((await side.port.addExtraRoutes(router.id, [routeA])).routes).toEqual([routeA]);
    expect((await side.port.addExtraRoutes(router.id, [routeA, routeB])).routes).toEqual(expect.arrayContaining([routeA, routeB]));
    expect((await side.port.getRouter(router.id)).routes).toHaveLength(2);
    expect((await side.port.removeExtraRoutes(router.id, [routeA])).routes).toEqual([routeB]);
    expect((await side.port.removeExtraRoutes(router.id, [routeA])).routes).toEqual([routeB]);
    expect((await side.port.setRouterRoutes(router.id, [routeA])).routes).toEqual([routeA]);
    expect((await side.port.setRouterRoutes(router.id, [])).routes).toEqual([]);
  });

  it('refuses routes through a next hop outside the router\'s subnets (Invalid) and calls on an unknown router (NotFound)', async () => {
    const side = fixture();
    const router = await side.createRouter();
    const stray = { destination: '10.244.9.0/24', nexthop: side.nexthops.outside };
    expect(await refusalKind(side.port.addExtraRoutes(router.id, [stray]))).toBe('Invalid');
    expect(await refusalKind(side.port.setRouterRoutes(router.id, [stray]))).toBe('Invalid');
    expect((await side.port.getRouter(router.id)).routes).toEqual([]);
    expect(await refusalKind(side.port.getRouter(UNKNOWN_UUID))).toBe('NotFound');
    expect(await refusalKind(side.port.addExtraRoutes(UNKNOWN_UUID, [{ destination: '10.244.1.0/24', nexthop: side.nexthops.inside[0] }]))).toBe('NotFound');
    expect(await refusalKind(side.port.removeExtraRoutes(UNKNOWN_UUID, []))).toBe('NotFound');
  });

  it('lists the extensions the routes and address pairs need', async () => {
    const side = fixture();
    expect(await side.port.listExtensionAliases()).toEqual(expect.arrayContaining(['extraroute', 'extraroute-atomic', 'allowed-address-pairs']));
  });
}
