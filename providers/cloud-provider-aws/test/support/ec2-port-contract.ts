/**
 * One contract for the Ec2Port, run on FakeEc2 (test/fakes/fake-ec2.ts) and on the SDK adapter
 * against moto (issue 23 point 4): every call the provider makes, what it answers, and what EC2
 * refuses (unknown and malformed IDs, duplicates, missing required fields, empty tag lists).
 */
import { describe, expect, it } from 'vitest';
import type { Ec2IpPermission, Ec2Port } from '../../src/ports/ec2-port.js';
import { ec2Filter } from '../../src/ports/ec2-port.js';
import { contractName, expectRefusal, useContractSide, type AwsContractSide, type ContractNetwork } from './aws-contract-target.js';

/** The port and the contract network behind it. */
export interface Ec2ContractWorld extends ContractNetwork {
  port: Ec2Port;
  region: string;
}

/** Well-formed IDs nothing has. */
const UNKNOWN = {
  instance: 'i-0123456789abcdef0',
  subnet: 'subnet-0123456789abcdef0',
  group: 'sg-0123456789abcdef0',
  routeTable: 'rtb-0123456789abcdef0',
};

const tcp = (port: number, cidr: string): Ec2IpPermission => ({ protocol: 'tcp', fromPort: port, toPort: port, ipv4Ranges: [{ cidr }], ipv6Ranges: [], groupPairs: [] });

export function describeEc2PortContract(side: AwsContractSide<Ec2ContractWorld>): void {
  describe(`Ec2Port contract (${side.target})`, () => {
    const world = useContractSide(side);
    let serial = 0;
    const unique = (prefix: string, length?: number) => contractName(prefix, ++serial, length);

    it('describes instances by ID and by filter; an unknown or malformed ID is InvalidInstanceID.NotFound', async () => {
      const { port, instanceIds, vpcId } = world();
      const [first, second] = instanceIds as [string, string];
      const byId = await port.describeInstances({ instanceIds: [first] });
      expect(byId.map((instance) => instance.instanceId)).toEqual([first]);
      expect(byId[0]).toMatchObject({ state: 'running', vpcId });
      expect(byId[0]?.privateDnsName).toMatch(/\S/);
      const filtered = await port.describeInstances({ filters: [ec2Filter('instance-id', second), ec2Filter('instance-state-name', 'running')] });
      expect(filtered.map((instance) => instance.instanceId)).toEqual([second]);
      const byDns = await port.describeInstances({ filters: [ec2Filter('private-dns-name', byId[0]?.privateDnsName ?? '')] });
      expect(byDns.map((instance) => instance.instanceId)).toEqual([first]);
      await expect(port.describeInstances({ filters: [ec2Filter('instance-id', UNKNOWN.instance)] })).resolves.toEqual([]);
      await expectRefusal(port.describeInstances({ instanceIds: [first, UNKNOWN.instance] }), 'InvalidInstanceID.NotFound', 'NotFound');
      // AWS says InvalidInstanceID.Malformed; moto and the fake, NotFound.
      await expectRefusal(port.describeInstances({ instanceIds: ['not-an-instance'] }), 'InvalidInstanceID.NotFound', 'NotFound');
    });

    it('lists the availability zones of the region with their zone IDs', async () => {
      const { port, region } = world();
      const zones = await port.describeAvailabilityZones();
      expect(zones.length).toBeGreaterThanOrEqual(2);
      for (const zone of zones) {
        expect(zone.zoneName.startsWith(region)).toBe(true);
        expect(zone.zoneId).toMatch(/\S/);
      }
    });

    it('describes subnets by ID and by VPC; an unknown subnet ID is InvalidSubnetID.NotFound', async () => {
      const { port, subnetIds, vpcId } = world();
      const byId = await port.describeSubnets({ subnetIds: [subnetIds[0] as string] });
      expect(byId.map((subnet) => subnet.subnetId)).toEqual([subnetIds[0]]);
      expect(byId[0]).toMatchObject({ vpcId });
      expect(byId[0]?.availabilityZone).toMatch(/\S/);
      const ofVpc = await port.describeSubnets({ filters: [ec2Filter('vpc-id', vpcId)] });
      expect(ofVpc.map((subnet) => subnet.subnetId).sort()).toEqual([...subnetIds].sort());
      await expectRefusal(port.describeSubnets({ subnetIds: [UNKNOWN.subnet] }), 'InvalidSubnetID.NotFound', 'NotFound');
    });

    it('describes route tables by filter; an unknown table ID filters to nothing', async () => {
      const { port, routeTableId, vpcId } = world();
      const tables = await port.describeRouteTables({ filters: [ec2Filter('route-table-id', routeTableId)] });
      expect(tables.map((table) => table.routeTableId)).toEqual([routeTableId]);
      expect(tables[0]?.vpcId).toBe(vpcId);
      await expect(port.describeRouteTables({ filters: [ec2Filter('route-table-id', UNKNOWN.routeTable)] })).resolves.toEqual([]);
    });

    it('creates, replaces and deletes a route to an instance; refuses a duplicate, a missing route and an unknown table', async () => {
      const { port, routeTableId, instanceIds } = world();
      const [first, second] = instanceIds as [string, string];
      const destinationCidrBlock = `10.200.${++serial}.0/24`;
      const routeTo = async () =>
        (await port.describeRouteTables({ filters: [ec2Filter('route-table-id', routeTableId)] }))[0]?.routes.find((route) => route.destinationCidrBlock === destinationCidrBlock);
      await port.createRoute({ routeTableId, destinationCidrBlock, instanceId: first });
      expect(await routeTo()).toMatchObject({ instanceId: first, state: 'active' });
      await expectRefusal(port.createRoute({ routeTableId, destinationCidrBlock, instanceId: second }), 'RouteAlreadyExists', 'Conflict');
      await port.replaceRoute({ routeTableId, destinationCidrBlock, instanceId: second });
      expect((await routeTo())?.instanceId).toBe(second);
      await port.deleteRoute({ routeTableId, destinationCidrBlock });
      expect(await routeTo()).toBeUndefined();
      await expectRefusal(port.deleteRoute({ routeTableId, destinationCidrBlock }), 'InvalidRoute.NotFound', 'NotFound');
      await expectRefusal(port.createRoute({ routeTableId: UNKNOWN.routeTable, destinationCidrBlock, instanceId: first }), 'InvalidRouteTableID.NotFound', 'NotFound');
      await expectRefusal(port.deleteRoute({ routeTableId: UNKNOWN.routeTable, destinationCidrBlock }), 'InvalidRouteTableID.NotFound', 'NotFound');
      await expectRefusal(port.replaceRoute({ routeTableId, destinationCidrBlock, instanceId: first }), 'InvalidParameterValue', 'Invalid');
      await expectRefusal(port.createRoute({ routeTableId, destinationCidrBlock: 'not-a-cidr', instanceId: first }), 'InvalidParameterValue', 'Invalid');
      await expectRefusal(port.createRoute({ routeTableId, destinationCidrBlock: `10.201.${serial}.0/24`, instanceId: UNKNOWN.instance }), 'InvalidInstanceID.NotFound', 'NotFound');
    });

    it('turns the source/destination check of an instance off and on; an unknown instance is InvalidInstanceID.NotFound', async () => {
      const { port, instanceIds } = world();
      const instanceId = instanceIds[1] as string;
      const check = async () => (await port.describeInstances({ instanceIds: [instanceId] }))[0]?.sourceDestCheck;
      await port.modifyInstanceSourceDestCheck({ instanceId, enabled: false });
      expect(await check()).toBe(false);
      await port.modifyInstanceSourceDestCheck({ instanceId, enabled: true });
      expect(await check()).toBe(true);
      await expectRefusal(port.modifyInstanceSourceDestCheck({ instanceId: UNKNOWN.instance, enabled: false }), 'InvalidInstanceID.NotFound', 'NotFound');
    });

    it('creates a security group with its tags, or with none (no TagSpecifications); refuses a duplicate name in the VPC', async () => {
      const { port, vpcId } = world();
      const groupName = unique('contract-sg');
      const groupId = await port.createSecurityGroup({ groupName, description: 'contract', vpcId, tags: { owner: 'contract', empty: '' } });
      expect(groupId).toMatch(/^sg-[0-9a-f]+$/);
      const [described] = await port.describeSecurityGroups({ groupIds: [groupId] });
      expect(described).toMatchObject({ groupId, groupName, description: 'contract', vpcId, ingress: [], tags: { owner: 'contract', empty: '' } });
      const byName = await port.describeSecurityGroups({ filters: [ec2Filter('group-name', groupName), ec2Filter('vpc-id', vpcId)] });
      expect(byName.map((group) => group.groupId)).toEqual([groupId]);
      const untagged = await port.createSecurityGroup({ groupName: unique('contract-untagged'), description: 'contract', vpcId, tags: {} });
      expect((await port.describeSecurityGroups({ groupIds: [untagged] }))[0]?.tags).toEqual({});
      await expectRefusal(port.createSecurityGroup({ groupName, description: 'again', vpcId, tags: {} }), 'InvalidGroup.Duplicate', 'Conflict');
    });

    it('refuses a security group without a description (MissingParameter)', async () => {
      const { port, vpcId } = world();
      await expectRefusal(port.createSecurityGroup({ groupName: unique('contract-nodescription'), description: '', vpcId, tags: {} }), 'MissingParameter', 'Invalid');
    });

    it('known moto gap: a security group without a name or with one over 255 characters (AWS: refused; moto creates it)', async () => {
      const { port, vpcId } = world();
      const nameless = port.createSecurityGroup({ groupName: '', description: 'contract', vpcId, tags: {} });
      const long = port.createSecurityGroup({ groupName: unique('contract-long', 256), description: 'contract', vpcId, tags: {} });
      if (side.target === 'moto') {
        await expect(nameless).resolves.toMatch(/^sg-/);
        await expect(long).resolves.toMatch(/^sg-/);
      } else {
        await expectRefusal(nameless, 'MissingParameter', 'Invalid');
        await expectRefusal(long, 'InvalidParameterValue', 'Invalid');
      }
    });

    it('describes security groups by ID; an unknown or malformed ID is InvalidGroup.NotFound (moto and the fake; AWS says InvalidGroupId.Malformed for the latter)', async () => {
      const { port } = world();
      await expectRefusal(port.describeSecurityGroups({ groupIds: [UNKNOWN.group] }), 'InvalidGroup.NotFound', 'NotFound');
      await expectRefusal(port.describeSecurityGroups({ groupIds: ['not-a-group'] }), 'InvalidGroup.NotFound', 'NotFound');
    });

    it('authorizes and revokes ingress rules; refuses a duplicate rule and a rule that is not there; an unknown group is InvalidGroup.NotFound', async () => {
      const { port, vpcId } = world();
      const groupId = await port.createSecurityGroup({ groupName: unique('contract-rules'), description: 'contract', vpcId, tags: {} });
      const source = await port.createSecurityGroup({ groupName: unique('contract-source'), description: 'contract', vpcId, tags: {} });
      const web: Ec2IpPermission = { ...tcp(80, '203.0.113.0/24'), ipv4Ranges: [{ cidr: '203.0.113.0/24', description: 'web' }] };
      const fromGroup: Ec2IpPermission = { protocol: '-1', ipv4Ranges: [], ipv6Ranges: [], groupPairs: [{ groupId: source }] };
      await port.authorizeSecurityGroupIngress({ groupId, permissions: [web, fromGroup] });
      const ingress = (await port.describeSecurityGroups({ groupIds: [groupId] }))[0]?.ingress ?? [];
      expect(ingress).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ protocol: 'tcp', fromPort: 80, toPort: 80, ipv4Ranges: [{ cidr: '203.0.113.0/24', description: 'web' }] }),
          expect.objectContaining({ protocol: '-1', groupPairs: [expect.objectContaining({ groupId: source })] }),
        ]),
      );
      expect((await port.describeSecurityGroups({ filters: [ec2Filter('ip-permission.group-id', source)] })).map((group) => group.groupId)).toEqual([groupId]);
      await expectRefusal(port.authorizeSecurityGroupIngress({ groupId, permissions: [tcp(80, '203.0.113.0/24')] }), 'InvalidPermission.Duplicate', 'Conflict');
      await port.revokeSecurityGroupIngress({ groupId, permissions: [tcp(80, '203.0.113.0/24')] });
      const after = (await port.describeSecurityGroups({ groupIds: [groupId] }))[0]?.ingress ?? [];
      expect(after.some((permission) => permission.ipv4Ranges.length > 0)).toBe(false);
      await expectRefusal(port.revokeSecurityGroupIngress({ groupId, permissions: [tcp(80, '203.0.113.0/24')] }), 'InvalidPermission.NotFound', 'NotFound');
      await expectRefusal(port.authorizeSecurityGroupIngress({ groupId: UNKNOWN.group, permissions: [tcp(443, '203.0.113.0/24')] }), 'InvalidGroup.NotFound', 'NotFound');
      await expectRefusal(port.revokeSecurityGroupIngress({ groupId: UNKNOWN.group, permissions: [tcp(443, '203.0.113.0/24')] }), 'InvalidGroup.NotFound', 'NotFound');
    });

    it('deletes a security group; an unknown one is InvalidGroup.NotFound', async () => {
      const { port, vpcId } = world();
      const groupId = await port.createSecurityGroup({ groupName: unique('contract-deleted'), description: 'contract', vpcId, tags: { owner: 'contract' } });
      await port.deleteSecurityGroup({ groupId });
      await expectRefusal(port.describeSecurityGroups({ groupIds: [groupId] }), 'InvalidGroup.NotFound', 'NotFound');
      await expectRefusal(port.deleteSecurityGroup({ groupId }), 'InvalidGroup.NotFound', 'NotFound');
      await expectRefusal(port.deleteSecurityGroup({ groupId: UNKNOWN.group }), 'InvalidGroup.NotFound', 'NotFound');
    });

    it('known moto gap: deleting a group that a rule of another group references (AWS: DependencyViolation; moto deletes it)', async () => {
      const { port, vpcId } = world();
      const referenced = await port.createSecurityGroup({ groupName: unique('contract-referenced'), description: 'contract', vpcId, tags: {} });
      const referencing = await port.createSecurityGroup({ groupName: unique('contract-referencing'), description: 'contract', vpcId, tags: {} });
      await port.authorizeSecurityGroupIngress({ groupId: referencing, permissions: [{ protocol: 'tcp', fromPort: 22, toPort: 22, ipv4Ranges: [], ipv6Ranges: [], groupPairs: [{ groupId: referenced }] }] });
      if (side.target === 'moto') {
        await port.deleteSecurityGroup({ groupId: referenced });
      } else {
        await expectRefusal(port.deleteSecurityGroup({ groupId: referenced }), 'DependencyViolation', 'DependencyViolation');
        await port.deleteSecurityGroup({ groupId: referencing });
        await port.deleteSecurityGroup({ groupId: referenced });
      }
      await expectRefusal(port.describeSecurityGroups({ groupIds: [referenced] }), 'InvalidGroup.NotFound', 'NotFound');
    });

    it('tags and untags an instance and a security group: only key=value pairs that match go', async () => {
      const { port, instanceIds, vpcId } = world();
      const instanceId = instanceIds[0] as string;
      const groupId = await port.createSecurityGroup({ groupName: unique('contract-tags'), description: 'contract', vpcId, tags: {} });
      await port.createTags({ resourceIds: [instanceId, groupId], tags: { team: 'blue', env: 'dev' } });
      expect((await port.describeInstances({ instanceIds: [instanceId] }))[0]?.tags).toMatchObject({ team: 'blue', env: 'dev' });
      expect((await port.describeSecurityGroups({ groupIds: [groupId] }))[0]?.tags).toEqual({ team: 'blue', env: 'dev' });
      await port.deleteTags({ resourceIds: [instanceId, groupId], tags: { team: 'blue', env: 'prod' } });
      expect((await port.describeSecurityGroups({ groupIds: [groupId] }))[0]?.tags).toEqual({ env: 'dev' });
      const instanceTags = (await port.describeInstances({ instanceIds: [instanceId] }))[0]?.tags ?? {};
      expect(instanceTags['team']).toBeUndefined();
      expect(instanceTags['env']).toBe('dev');
      await port.deleteTags({ resourceIds: [instanceId], tags: { env: 'dev' } });
      expect((await port.describeInstances({ instanceIds: [instanceId] }))[0]?.tags['env']).toBeUndefined();
    });

    it('refuses tags on an unknown security group (InvalidGroup.NotFound)', async () => {
      const { port } = world();
      await expectRefusal(port.createTags({ resourceIds: [UNKNOWN.group], tags: { team: 'blue' } }), 'InvalidGroup.NotFound', 'NotFound');
    });

    it('known moto gap: CreateTags on an unknown instance (AWS: InvalidInstanceID.NotFound; moto accepts it)', async () => {
      const { port } = world();
      const call = port.createTags({ resourceIds: [UNKNOWN.instance], tags: { team: 'blue' } });
      if (side.target === 'moto') await expect(call).resolves.toBeUndefined();
      else await expectRefusal(call, 'InvalidInstanceID.NotFound', 'NotFound');
    });

    it('known moto gap: CreateTags with an empty tag list (AWS: MissingParameter, Tags is required; moto accepts it)', async () => {
      const { port, instanceIds } = world();
      const call = port.createTags({ resourceIds: [instanceIds[0] as string], tags: {} });
      if (side.target === 'moto') await expect(call).resolves.toBeUndefined();
      else await expectRefusal(call, 'MissingParameter', 'Invalid');
    });

    it('known moto gap: DeleteTags with an empty tag list (AWS deletes every tag of the resource; moto deletes none)', async () => {
      const { port, vpcId } = world();
      const groupId = await port.createSecurityGroup({ groupName: unique('contract-untag-all'), description: 'contract', vpcId, tags: { team: 'blue', env: 'dev' } });
      await port.deleteTags({ resourceIds: [groupId], tags: {} });
      const tags = (await port.describeSecurityGroups({ groupIds: [groupId] }))[0]?.tags;
      expect(tags).toEqual(side.target === 'moto' ? { team: 'blue', env: 'dev' } : {});
    });

    it('known moto gap: DescribeInstanceTopology (AWS: no topology for an instance type without one; moto does not implement the call)', async () => {
      const { port, instanceIds } = world();
      const call = port.describeInstanceTopology({ instanceIds: [instanceIds[0] as string] });
      if (side.target === 'moto') await expect(call).rejects.toMatchObject({ name: 'AwsApiError', operation: 'ec2.describeInstanceTopology' });
      else await expect(call).resolves.toEqual([]);
    });
  });
}
