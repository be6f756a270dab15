import { InstanceNotFoundError } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import { LABEL_ZONE_ID } from '../src/aws-instances.js';
import { AwsProviderIdError } from '../src/provider-id.js';
import { addNodeInstance, CLUSTER_ID, createHarness, defined, makeNode, OFF_AWS_CONFIG } from './helpers.js';

describe('AwsInstances (InstancesV2)', () => {
  it('reports metadata exactly as upstream: provider ID, type, addresses, zone, CCM region, zone-id label', async () => {
    const { cloud, ec2 } = await createHarness();
    ec2.addInstance({
      instanceId: 'i-0abc',
      instanceType: 'm5.large',
      availabilityZone: 'us-west-2b',
      privateDnsName: 'ip-10-0-2-5.us-west-2.compute.internal',
      publicIpAddress: '54.1.2.3',
      publicDnsName: 'ec2-54-1-2-3.us-west-2.compute.amazonaws.com',
      networkInterfaces: [{ networkInterfaceId: 'eni-1', status: 'in-use', deviceIndex: 0, privateIpAddresses: ['10.0.2.5'], ipv6Addresses: [] }],
      tags: { [`kubernetes.io/cluster/${CLUSTER_ID}`]: 'owned' },
    });
    const metadata = defined(await cloud.instancesV2().instanceMetadata(makeNode('ip-10-0-2-5.us-west-2.compute.internal', { providerId: 'aws:///us-west-2b/i-0abc' })));
    expect(metadata).toEqual({
      providerId: 'aws:///us-west-2b/i-0abc',
      instanceType: 'm5.large',
      zone: 'us-west-2b',
      region: 'us-west-2',
      nodeAddresses: [
        { type: 'InternalIP', address: '10.0.2.5' },
        { type: 'ExternalIP', address: '54.1.2.3' },
        { type: 'InternalDNS', address: 'ip-10-0-2-5.us-west-2.compute.internal' },
        { type: 'Hostname', address: 'ip-10-0-2-5.us-west-2.compute.internal' },
        { type: 'ExternalDNS', address: 'ec2-54-1-2-3.us-west-2.compute.amazonaws.com' },
      ],
      additionalLabels: { [LABEL_ZONE_ID]: 'usw2-az1' },
    });
  });

  it('builds the provider ID when the node has none, finding the instance by private DNS name', async () => {
    const { cloud, ec2 } = await createHarness();
    const { instanceId } = addNodeInstance(ec2, { zone: 'us-west-2a', privateIp: '10.0.1.77' });
    const metadata = defined(await cloud.instancesV2().instanceMetadata(makeNode('ip-10-0-1-77.us-west-2.compute.internal')));
    expect(metadata.providerId).toBe(`aws:///us-west-2a/${instanceId}`);
  });

  it('finds resource-named nodes (i-xxx[.domain]) by ID', async () => {
    const { cloud, ec2 } = await createHarness();
    const { instanceId } = addNodeInstance(ec2);
    const metadata = defined(await cloud.instancesV2().instanceMetadata(makeNode(`${instanceId}.us-west-2.compute.internal`)));
    expect(metadata.providerId).toBe(`aws:///us-west-2a/${instanceId}`);
  });

  it('ignores instances without the cluster tag in DNS lookups', async () => {
    const { cloud, ec2 } = await createHarness();
    addNodeInstance(ec2, { privateIp: '10.0.1.88', tags: { 'kubernetes.io/cluster/other': 'owned' } });
    await expect(cloud.instancesV2().instanceMetadata(makeNode('ip-10-0-1-88.us-west-2.compute.internal'))).rejects.toBeInstanceOf(InstanceNotFoundError);
  });

  it('refuses two instances with one private DNS name', async () => {
    const { cloud, ec2 } = await createHarness();
    addNodeInstance(ec2, { privateIp: '10.0.1.99' });
    addNodeInstance(ec2, { privateIp: '10.0.1.99' });
    await expect(cloud.instancesV2().instanceMetadata(makeNode('ip-10-0-1-99.us-west-2.compute.internal'))).rejects.toThrow(/multiple instances/);
  });

  it('does not overwrite an existing zone-id label and caches zones', async () => {
    const { cloud, ec2 } = await createHarness();
    const first = addNodeInstance(ec2);
    const second = addNodeInstance(ec2);
    const labelled = makeNode('n', { providerId: first.node.spec?.providerID ?? '', labels: { [LABEL_ZONE_ID]: 'custom' } });
    expect(defined(await cloud.instancesV2().instanceMetadata(labelled)).additionalLabels).toBeUndefined();
    await cloud.instancesV2().instanceMetadata(first.node);
    await cloud.instancesV2().instanceMetadata(second.node);
    expect(ec2.log.count('ec2.describeAvailabilityZones')).toBe(1);
  });

  it('reports IPv6 addresses per NodeIPFamilies', async () => {
    const { cloud, ec2 } = await createHarness(`${OFF_AWS_CONFIG}NodeIPFamilies = ipv6\nNodeIPFamilies = ipv4\n`);
    ec2.addInstance({
      instanceId: 'i-v6',
      availabilityZone: 'us-west-2a',
      networkInterfaces: [{ networkInterfaceId: 'eni', status: 'in-use', deviceIndex: 0, privateIpAddresses: ['10.0.0.5'], ipv6Addresses: ['2600:1f14::5'] }],
    });
    const metadata = defined(await cloud.instancesV2().instanceMetadata(makeNode('n', { providerId: 'aws:///us-west-2a/i-v6' })));
    expect(metadata.nodeAddresses).toEqual([
      { type: 'InternalIP', address: '2600:1f14::5' },
      { type: 'InternalIP', address: '10.0.0.5' },
    ]);
  });

  it.each([
    ['running', true, false],
    ['pending', true, false],
    ['stopping', true, false],
    ['stopped', true, true],
    ['shutting-down', true, false],
    ['terminated', false, false],
  ])('state %s: exists %s, shutdown %s', async (state, exists, shutdown) => {
    const { cloud, ec2 } = await createHarness();
    const { node } = addNodeInstance(ec2, { state });
    expect(await cloud.instancesV2().instanceExists(node)).toBe(exists);
    expect(await cloud.instancesV2().instanceShutdown(node)).toBe(shutdown);
  });

  it('assumes a node created less than 2 minutes ago exists, without asking EC2 (upstream instanceExistsGracePeriod)', async () => {
    const { cloud, ec2 } = await createHarness();
    const young = makeNode('n', { providerId: 'aws:///us-west-2a/i-00000000000000404' });
    young.metadata = { ...young.metadata, creationTimestamp: new Date(Date.now() - 60_000) };
    const callsBefore = ec2.log.calls.length;
    expect(await cloud.instancesV2().instanceExists(young)).toBe(true);
    expect(ec2.log.calls.length).toBe(callsBefore);
    const old = makeNode('n', { providerId: 'aws:///us-west-2a/i-00000000000000404' });
    old.metadata = { ...old.metadata, creationTimestamp: new Date(Date.now() - 121_000) };
    expect(await cloud.instancesV2().instanceExists(old)).toBe(false);
  });

  it('takes a test-only grace period from CCM_AWS_INSTANCE_EXISTS_GRACE_PERIOD (conformance deletes seconds-old nodes), and names a bad value', async () => {
    const { cloud, logger } = await createHarness(OFF_AWS_CONFIG, { environment: { CCM_AWS_INSTANCE_EXISTS_GRACE_PERIOD: '0s' } });
    const young = makeNode('n', { providerId: 'aws:///us-west-2a/i-00000000000000404' });
    young.metadata = { ...young.metadata, creationTimestamp: new Date(Date.now() - 1_000) };
    expect(await cloud.instancesV2().instanceExists(young)).toBe(false);
    expect(logger.warnings().filter((message) => message.includes('CCM_AWS_INSTANCE_EXISTS_GRACE_PERIOD'))).toHaveLength(1);
    await expect(createHarness(OFF_AWS_CONFIG, { environment: { CCM_AWS_INSTANCE_EXISTS_GRACE_PERIOD: 'soon' } })).rejects.toThrow(/CCM_AWS_INSTANCE_EXISTS_GRACE_PERIOD="soon"/);
  });

  it('initializes a node whose zone has no zone ID without the zone-id label, warning once per zone (upstream fails the metadata)', async () => {
    const { cloud, ec2, logger } = await createHarness();
    ec2.zones = ec2.zones.filter((zone) => zone.zoneName !== 'us-west-2a');
    const first = addNodeInstance(ec2, { zone: 'us-west-2a', privateIp: '10.0.1.41' });
    const second = addNodeInstance(ec2, { zone: 'us-west-2a', privateIp: '10.0.1.42' });
    for (const node of [first.node, second.node, first.node]) {
      const metadata = defined(await cloud.instancesV2().instanceMetadata(node));
      expect(metadata.zone).toBe('us-west-2a');
      expect(metadata.additionalLabels?.[LABEL_ZONE_ID]).toBeUndefined();
    }
    expect(logger.warnings().filter((message) => message.includes('zone-id'))).toHaveLength(1);
  });

  it('treats an instance EC2 does not know as gone (exists false, shutdown false)', async () => {
    const { cloud } = await createHarness();
    const node = makeNode('n', { providerId: 'aws:///us-west-2a/i-00000000000000404' });
    expect(await cloud.instancesV2().instanceExists(node)).toBe(false);
    expect(await cloud.instancesV2().instanceShutdown(node)).toBe(false);
    await expect(cloud.instancesV2().instanceMetadata(node)).rejects.toBeInstanceOf(InstanceNotFoundError);
  });

  it('answers concurrent existence checks with one DescribeInstances call', async () => {
    const { cloud, ec2 } = await createHarness();
    const nodes = [addNodeInstance(ec2).node, addNodeInstance(ec2).node, addNodeInstance(ec2).node];
    ec2.log.clear();
    expect(await Promise.all(nodes.map((node) => cloud.instancesV2().instanceExists(node)))).toEqual([true, true, true]);
    expect(ec2.log.count('ec2.describeInstances')).toBe(1);
  });

  it('spends one DescribeInstances per new node without a provider ID: the instance found by name is reused', async () => {
    const { cloud, ec2 } = await createHarness();
    const { node, instanceId } = addNodeInstance(ec2);
    const unregistered = makeNode(node.metadata?.name ?? '');
    ec2.log.clear();
    const metadata = defined(await cloud.instancesV2().instanceMetadata(unregistered));
    expect(metadata.providerId).toBe(`aws:///us-west-2a/${instanceId}`);
    expect(ec2.log.count('ec2.describeInstances')).toBe(1);
    expect(ec2.log.inputs('ec2.describeInstances')[0]).toMatchObject({ filters: [{ name: 'private-dns-name', values: [node.metadata?.name] }, { name: 'instance-state-name' }] });
    ec2.log.clear();
    expect(await cloud.instancesV2().instanceExists(unregistered)).toBe(true);
    expect(await cloud.instancesV2().instanceShutdown(unregistered)).toBe(false);
    expect(ec2.log.count('ec2.describeInstances')).toBe(2);
  });

  it('spends one DescribeInstances for a resource-named node (i-xxx) without a provider ID', async () => {
    const { cloud, ec2 } = await createHarness();
    const { instanceId } = addNodeInstance(ec2);
    ec2.log.clear();
    const metadata = defined(await cloud.instancesV2().instanceMetadata(makeNode(`${instanceId}.us-west-2.compute.internal`)));
    expect(metadata.providerId).toBe(`aws:///us-west-2a/${instanceId}`);
    expect(ec2.log.inputs('ec2.describeInstances')).toEqual([{ instanceIds: [instanceId] }]);
  });

  it('initializes a storm of new nodes without provider IDs with one DescribeInstances per batch of names', async () => {
    const { cloud, ec2 } = await createHarness();
    const nodes = Array.from({ length: 150 }, (_, index) => makeNode(addNodeInstance(ec2, { privateIp: `10.0.100.${index + 1}` }).node.metadata?.name ?? ''));
    ec2.log.clear();
    const metadata = await Promise.all(nodes.map((node) => cloud.instancesV2().instanceMetadata(node)));
    expect(metadata.every((entry) => entry?.providerId.startsWith('aws:///us-west-2a/i-'))).toBe(true);
    expect(ec2.log.count('ec2.describeInstances')).toBe(1);
  });

  it('errors (does not say "gone") when a node without provider ID cannot be found by name', async () => {
    const { cloud } = await createHarness();
    await expect(cloud.instancesV2().instanceExists(makeNode('ip-10-9-9-9.us-west-2.compute.internal'))).rejects.toBeInstanceOf(InstanceNotFoundError);
  });

  it('rejects a provider ID that is not AWS', async () => {
    const { cloud } = await createHarness();
    await expect(cloud.instancesV2().instanceExists(makeNode('n', { providerId: 'gce://p/z/i-1' }))).rejects.toBeInstanceOf(AwsProviderIdError);
  });
});
