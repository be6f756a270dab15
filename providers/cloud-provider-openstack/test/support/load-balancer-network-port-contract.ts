/**
 * One contract for the LoadBalancerNetworkPort (VIP ports, floating IPs, subnets), run on the
 * in-memory fake (test/fakes/fake-load-balancer-network.ts) and on the production adapter
 * (sdk-load-balancer-network-port.ts) against the real Neutron of @ccm/openstack-services
 * (issue 23 point 4), with what Neutron refuses: names over 255, an address outside the subnet or
 * already held, unknown subnets, ports and floating IPs, a floating IP address already allocated.
 */
import { expect, it } from 'vitest';
import type { LoadBalancerNetworkPort } from '../../src/ports/load-balancer-network-port.js';
import { NAME_OVER_255, refusalKind, UNKNOWN_UUID } from './refusal-kind.js';

export interface LoadBalancerNetworkPortContractFixture {
  port: LoadBalancerNetworkPort;
  /** The VIP network and its one IPv4 subnet, reachable from `floatingNetworkId` through a router. */
  networkId: string;
  subnet: { id: string; cidr: string };
  /** An address of the subnet no port holds, and one outside it. */
  freeAddress: string;
  outsideAddress: string;
  floatingNetworkId: string;
  /** Unique per run. */
  prefix: string;
}

export function describeLoadBalancerNetworkPortContract(fixture: () => LoadBalancerNetworkPortContractFixture): void {
  it('creates a port on the subnet, finds it by ID, name and address, deletes it; a deleted or unknown port is absent, its delete NotFound', async () => {
    const side = fixture();
    const name = `${side.prefix}-vip`;
    const created = await side.port.createPort({ name, description: 'contract', networkId: side.networkId, subnetId: side.subnet.id });
    expect(created).toMatchObject({ name, description: 'contract', networkId: side.networkId });
    expect(created.fixedIps).toHaveLength(1);
    expect(created.fixedIps[0]!.subnetId).toBe(side.subnet.id);
    const address = created.fixedIps[0]!.address;
    expect(await side.port.getPort(created.id)).toEqual(created);
    expect(await side.port.findPortsByName(name)).toEqual([created]);
    expect((await side.port.portsWithAddress(address)).map((port) => port.id)).toEqual([created.id]);
    await side.port.deletePort(created.id);
    expect(await side.port.getPort(created.id)).toBeUndefined();
    expect(await side.port.findPortsByName(name)).toEqual([]);
    expect(await side.port.getPort(UNKNOWN_UUID)).toBeUndefined();
    expect(await refusalKind(side.port.deletePort(created.id))).toBe('NotFound');
  });

  it('creates a port at a requested address; refuses an address outside the subnet (Invalid), one already held (Conflict), a name over 255 (Invalid), an unknown subnet (NotFound)', async () => {
    const side = fixture();
    const held = await side.port.createPort({ name: `${side.prefix}-fixed`, description: '', networkId: side.networkId, subnetId: side.subnet.id, address: side.freeAddress });
    expect(held.fixedIps).toEqual([{ subnetId: side.subnet.id, address: side.freeAddress }]);
    const spec = { name: `${side.prefix}-refused`, description: '', networkId: side.networkId, subnetId: side.subnet.id };
    expect(await refusalKind(side.port.createPort({ ...spec, address: side.outsideAddress }))).toBe('Invalid');
    expect(await refusalKind(side.port.createPort({ ...spec, address: side.freeAddress }))).toBe('Conflict');
    expect(await refusalKind(side.port.createPort({ ...spec, name: NAME_OVER_255 }))).toBe('Invalid');
    expect(await refusalKind(side.port.createPort({ ...spec, subnetId: UNKNOWN_UUID }))).toBe('NotFound');
    expect(await side.port.findPortsByName(spec.name)).toEqual([]);
    await side.port.deletePort(held.id);
  });

  it('creates a floating IP for a port, finds it by port and address, detaches, reattaches and deletes it', async () => {
    const side = fixture();
    const target = await side.port.createPort({ name: `${side.prefix}-fip-target`, description: '', networkId: side.networkId, subnetId: side.subnet.id });
    const floating = await side.port.createFloatingIp({ floatingNetworkId: side.floatingNetworkId, portId: target.id, description: 'contract floating IP' });
    expect(floating).toMatchObject({ floatingNetworkId: side.floatingNetworkId, portId: target.id, description: 'contract floating IP' });
    expect(await side.port.floatingIpsOfPort(target.id)).toEqual([floating]);
    expect(await side.port.floatingIpsByAddress(floating.address)).toEqual([floating]);
    expect((await side.port.attachFloatingIp(floating.id, undefined)).portId).toBeUndefined();
    expect(await side.port.floatingIpsOfPort(target.id)).toEqual([]);
    expect((await side.port.attachFloatingIp(floating.id, target.id)).portId).toBe(target.id);
    await side.port.deleteFloatingIp(floating.id);
    expect(await side.port.floatingIpsByAddress(floating.address)).toEqual([]);
    expect(await refusalKind(side.port.deleteFloatingIp(floating.id))).toBe('NotFound');
    await side.port.deletePort(target.id);
  });

  it('refuses a floating IP at an address already allocated (Conflict), for an unknown port (NotFound), and changes of an unknown floating IP (NotFound)', async () => {
    const side = fixture();
    const target = await side.port.createPort({ name: `${side.prefix}-fip-conflict`, description: '', networkId: side.networkId, subnetId: side.subnet.id });
    const floating = await side.port.createFloatingIp({ floatingNetworkId: side.floatingNetworkId, portId: target.id, description: '' });
    const other = await side.port.createPort({ name: `${side.prefix}-fip-other`, description: '', networkId: side.networkId, subnetId: side.subnet.id });
    expect(await refusalKind(side.port.createFloatingIp({ floatingNetworkId: side.floatingNetworkId, portId: other.id, address: floating.address, description: '' }))).toBe('Conflict');
    expect(await refusalKind(side.port.createFloatingIp({ floatingNetworkId: side.floatingNetworkId, portId: UNKNOWN_UUID, description: '' }))).toBe('NotFound');
    expect(await refusalKind(side.port.attachFloatingIp(UNKNOWN_UUID, other.id))).toBe('NotFound');
    expect(await refusalKind(side.port.attachFloatingIp(floating.id, UNKNOWN_UUID))).toBe('NotFound');
    expect(await side.port.floatingIpsOfPort(other.id)).toEqual([]);
    await side.port.deleteFloatingIp(floating.id);
    await side.port.deletePort(target.id);
    await side.port.deletePort(other.id);
  });

  it('reads the subnet by ID and among its network\'s; an unknown subnet is absent', async () => {
    const side = fixture();
    const expected = { id: side.subnet.id, networkId: side.networkId, cidr: side.subnet.cidr, ipVersion: 4 };
    expect(await side.port.getSubnet(side.subnet.id)).toEqual(expected);
    expect(await side.port.subnetsOfNetwork(side.networkId)).toEqual([expected]);
    expect(await side.port.getSubnet(UNKNOWN_UUID)).toBeUndefined();
    expect(await side.port.subnetsOfNetwork(UNKNOWN_UUID)).toEqual([]);
  });
}
