import { describe, expect, it } from 'vitest';
import { sharedNodeDirectory } from '../src/kube/shared-node-directory.js';
import { addNodeInstance, createHarness, OFF_AWS_CONFIG, initializeContext } from './helpers.js';

describe('AwsRoutes', () => {
  it('creates a route to the instance and disables its source/destination check', async () => {
    const { cloud, ec2 } = await createHarness();
    const { node, instanceId } = addNodeInstance(ec2);
    await cloud.routes().createRoute('kubernetes', 'uid-1', { name: '', targetNode: node.metadata?.name ?? '', destinationCidr: '10.244.1.0/24' });
    expect(ec2.instances.get(instanceId)?.sourceDestCheck).toBe(false);
    expect(ec2.routeTables.get('rtb-main')?.routes).toContainEqual({ destinationCidrBlock: '10.244.1.0/24', instanceId, state: 'active', origin: 'CreateRoute' });
    expect(await cloud.routes().listRoutes('kubernetes')).toEqual([
      { name: 'kubernetes-10.244.1.0/24', destinationCidr: '10.244.1.0/24', targetNode: node.metadata?.name, blackhole: false },
    ]);
  });

  it('is idempotent and does not touch the source/destination check twice', async () => {
    const { cloud, ec2 } = await createHarness();
    const { node } = addNodeInstance(ec2);
    const route = { name: '', targetNode: node.metadata?.name ?? '', destinationCidr: '10.244.1.0/24' };
    await cloud.routes().createRoute('kubernetes', 'uid-1', route);
    ec2.log.clear();
    await cloud.routes().createRoute('kubernetes', 'uid-1', route);
    expect(ec2.log.mutations()).toEqual([]);
  });

  it('replaces a blackhole route for the same CIDR and lists blackholes', async () => {
    const { cloud, ec2 } = await createHarness();
    const { node, instanceId } = addNodeInstance(ec2);
    ec2.routeTables.get('rtb-main')?.routes.push({ destinationCidrBlock: '10.244.2.0/24', instanceId: 'i-gone', state: 'blackhole' });
    expect(await cloud.routes().listRoutes('c')).toContainEqual({ name: 'c-10.244.2.0/24', destinationCidr: '10.244.2.0/24', targetNode: '', blackhole: true });
    await cloud.routes().createRoute('c', 'uid', { name: '', targetNode: node.metadata?.name ?? '', destinationCidr: '10.244.2.0/24' });
    expect(ec2.log.operations()).toContain('ec2.replaceRoute');
    expect(ec2.routeTables.get('rtb-main')?.routes.find((route) => route.destinationCidrBlock === '10.244.2.0/24')).toMatchObject({ instanceId, state: 'active' });
  });

  it('lists only instance and blackhole routes, skipping unknown instances', async () => {
    const { cloud, ec2, logger } = await createHarness();
    ec2.routeTables.get('rtb-main')?.routes.push({ destinationCidrBlock: '10.244.3.0/24', instanceId: 'i-unknown', state: 'active' });
    ec2.routeTables.get('rtb-main')?.routes.push({ destinationIpv6CidrBlock: '2600::/64', gatewayId: 'igw-1', state: 'active' });
    expect(await cloud.routes().listRoutes('c')).toEqual([]);
    expect(logger.warnings()).toContain('unable to find instance of route');
  });

  it('maps instances to node names through the node directory when there is one', async () => {
    const { cloud, ec2 } = await createHarness(OFF_AWS_CONFIG, {
      createNodeDirectory: () => ({ providerIdOfNode: (name) => (name === 'custom-name' ? providerId : undefined), nodeNameOfInstance: (id) => (id === instanceId ? 'custom-name' : undefined) }),
    });
    const { instanceId, node } = addNodeInstance(ec2);
    const providerId = node.spec?.providerID ?? '';
    cloud.initialize(initializeContext());
    await cloud.routes().createRoute('c', 'uid', { name: '', targetNode: 'custom-name', destinationCidr: '10.244.4.0/24' });
    expect(await cloud.routes().listRoutes('c')).toEqual([{ name: 'c-10.244.4.0/24', destinationCidr: '10.244.4.0/24', targetNode: 'custom-name', blackhole: false }]);
  });

  it('keeps the node directory from the shared Node informer of the initialize context', async () => {
    const { cloud, ec2 } = await createHarness(OFF_AWS_CONFIG, { createNodeDirectory: sharedNodeDirectory });
    const { node } = addNodeInstance(ec2);
    const context = initializeContext();
    cloud.initialize(context);
    context.informers.nodes.deliverAdd('renamed-node', { ...node, metadata: { name: 'renamed-node' } });
    await cloud.routes().createRoute('c', 'uid', { name: '', targetNode: 'renamed-node', destinationCidr: '10.244.7.0/24' });
    expect(await cloud.routes().listRoutes('c')).toEqual([{ name: 'c-10.244.7.0/24', destinationCidr: '10.244.7.0/24', targetNode: 'renamed-node', blackhole: false }]);
  });

  it('deletes routes, and deleting a missing route succeeds', async () => {
    const { cloud, ec2 } = await createHarness();
    const { node } = addNodeInstance(ec2);
    const route = { name: '', targetNode: node.metadata?.name ?? '', destinationCidr: '10.244.5.0/24' };
    await cloud.routes().createRoute('c', 'uid', route);
    await cloud.routes().deleteRoute('c', route);
    await cloud.routes().deleteRoute('c', route);
    expect(await cloud.routes().listRoutes('c')).toEqual([]);
  });

  it('uses RouteTableID when configured', async () => {
    const { cloud, ec2 } = await createHarness(`${OFF_AWS_CONFIG}RouteTableID = rtb-public\n`);
    const { node } = addNodeInstance(ec2);
    await cloud.routes().createRoute('c', 'uid', { name: '', targetNode: node.metadata?.name ?? '', destinationCidr: '10.244.6.0/24' });
    expect(ec2.routeTables.get('rtb-public')?.routes.map((route) => route.destinationCidrBlock)).toContain('10.244.6.0/24');
  });

  it('refuses to guess between several cluster route tables, or none', async () => {
    const { cloud, ec2 } = await createHarness();
    ec2.addRouteTable({ routeTableId: 'rtb-second', vpcId: 'vpc-1', tags: { 'kubernetes.io/cluster/c1': 'shared' } });
    await expect(cloud.routes().listRoutes('c')).rejects.toThrow(/found multiple matching AWS route tables for AWS cluster: c \(rtb-main, rtb-second\)/);
    ec2.routeTables.clear();
    await expect(cloud.routes().listRoutes('c')).rejects.toThrow('unable to find route table for AWS cluster: c');
  });
});
