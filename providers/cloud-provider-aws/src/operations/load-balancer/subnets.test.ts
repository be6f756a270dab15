import { describe, expect, it } from 'vitest';
import type { Ec2RouteTable, Ec2Subnet } from '../../ports/ec2-port.js';
import { ClusterTagging } from '../../tags.js';
import { isSubnetPublic, selectSubnetsPerZone } from './subnets.js';

const subnet = (subnetId: string, zone: string, tags: Record<string, string> = {}): Ec2Subnet => ({ subnetId, availabilityZone: zone, ipv6CidrBlocks: [], tags });
const tables: Ec2RouteTable[] = [
  { routeTableId: 'rtb-public', associations: [{ subnetId: 'subnet-pub-a', main: false }, { subnetId: 'subnet-pub-a2', main: false }, { subnetId: 'subnet-pub-b', main: false }, { subnetId: 'subnet-pub-b2', main: false }, { subnetId: 'subnet-lz', main: false }], routes: [{ gatewayId: 'igw-1', destinationCidrBlock: '0.0.0.0/0' }], tags: {} },
  { routeTableId: 'rtb-private', associations: [{ subnetId: 'subnet-priv-a', main: false }], routes: [{ gatewayId: 'vgw-1', destinationCidrBlock: '0.0.0.0/0' }, { gatewayId: 'local' }], tags: {} },
  { routeTableId: 'rtb-main', associations: [{ main: true }], routes: [{ gatewayId: 'local' }], tags: {} },
];
const tagging = new ClusterTagging('c1');
const zoneTypes = new Map<string, string | undefined>([
  ['us-west-2a', 'availability-zone'],
  ['us-west-2b', 'availability-zone'],
  ['us-west-2-lax-1a', 'local-zone'],
]);

describe('isSubnetPublic', () => {
  it('looks for an internet gateway route in the associated (else main) table', () => {
    expect(isSubnetPublic(tables, 'subnet-pub-a')).toBe(true);
    expect(isSubnetPublic(tables, 'subnet-priv-a')).toBe(false);
    expect(isSubnetPublic(tables, 'subnet-unassociated')).toBe(false);
    expect(() => isSubnetPublic([], 'subnet-x')).toThrow('could not locate routing table for subnet subnet-x');
  });
});

describe('selectSubnetsPerZone', () => {
  it('skips private subnets for internet-facing load balancers, sorts by zone', () => {
    const subnets = [subnet('subnet-pub-b', 'us-west-2b'), subnet('subnet-priv-a', 'us-west-2a'), subnet('subnet-pub-a', 'us-west-2a')];
    expect(selectSubnetsPerZone(subnets, tables, false, tagging, zoneTypes).subnetIds).toEqual(['subnet-pub-a', 'subnet-pub-b']);
  });

  it('accepts private subnets for internal load balancers', () => {
    expect(selectSubnetsPerZone([subnet('subnet-priv-a', 'us-west-2a')], tables, true, tagging, zoneTypes).subnetIds).toEqual(['subnet-priv-a']);
  });

  it('breaks ties by role tag, then cluster tag, then lowest ID', () => {
    const role = { 'kubernetes.io/role/elb': '1' };
    const cluster = { 'kubernetes.io/cluster/c1': 'shared' };
    expect(selectSubnetsPerZone([subnet('subnet-pub-a', 'us-west-2a'), subnet('subnet-pub-a2', 'us-west-2a', role)], tables, false, tagging, zoneTypes).subnetIds).toEqual(['subnet-pub-a2']);
    expect(selectSubnetsPerZone([subnet('subnet-pub-a', 'us-west-2a', role), subnet('subnet-pub-a2', 'us-west-2a')], tables, false, tagging, zoneTypes).subnetIds).toEqual(['subnet-pub-a']);
    expect(selectSubnetsPerZone([subnet('subnet-pub-a', 'us-west-2a'), subnet('subnet-pub-a2', 'us-west-2a', cluster)], tables, false, tagging, zoneTypes).subnetIds).toEqual(['subnet-pub-a2']);
    expect(selectSubnetsPerZone([subnet('subnet-pub-b2', 'us-west-2b'), subnet('subnet-pub-b', 'us-west-2b')], tables, false, tagging, zoneTypes).subnetIds).toEqual(['subnet-pub-b']);
    const internalRole = { 'kubernetes.io/role/internal-elb': '1' };
    expect(selectSubnetsPerZone([subnet('subnet-pub-a', 'us-west-2a', role), subnet('subnet-pub-a2', 'us-west-2a', internalRole)], tables, true, tagging, zoneTypes).subnetIds).toEqual(['subnet-pub-a2']);
  });

  it('leaves out local and wavelength zones', () => {
    const selection = selectSubnetsPerZone([subnet('subnet-lz', 'us-west-2-lax-1a'), subnet('subnet-pub-a', 'us-west-2a')], tables, false, tagging, zoneTypes);
    expect(selection.subnetIds).toEqual(['subnet-pub-a']);
    expect(selection.notes).toContain('ignoring subnet subnet-lz in local-zone us-west-2-lax-1a');
  });
});
