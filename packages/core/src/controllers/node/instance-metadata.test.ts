import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger.js';
import { InstanceNotFoundError, NotImplementedError } from '../../provider/cloud-errors.js';
import type { InstanceMetadata } from '../../provider/instances.js';
import type { NodeAddress } from '../../provider/node-address.js';
import { getInstanceMetadata, getInstanceNodeAddresses } from './instance-metadata.js';
import { FakeCloud, type FakeCloudOptions } from '../test-support/fake-cloud.js';
import { makeNode } from './test-support/node-test-context.js';

const addresses: NodeAddress[] = [
  { type: 'Hostname', address: 'node0.cloud.internal' },
  { type: 'InternalIP', address: '10.0.0.1' },
  { type: 'ExternalIP', address: '132.143.154.163' },
];
const zone = { failureDomain: 'us-west-1a', region: 'us-west' };

describe('TestGetInstanceMetadata (upstream)', () => {
  const cases: Array<{ name: string; cloud: FakeCloudOptions; providerId?: string; expected?: InstanceMetadata; error?: string }> = [
    {
      name: 'cloud implemented with Instances and provider ID',
      cloud: { instanceIds: { node0: '12345' }, instanceTypes: { 'fake://12345': 'my-instance-type' }, addresses, zone },
      expected: { providerId: 'fake://12345', instanceType: 'my-instance-type', nodeAddresses: addresses, zone: 'us-west-1a', region: 'us-west' },
    },
    {
      name: 'cloud implemented with Instances (providerID not implemented)',
      cloud: {
        instanceIdErrors: { node0: new NotImplementedError() },
        instanceTypes: { node0: 'my-instance-type' },
        instanceTypeByProviderIdError: new Error('empty provider ID'),
        addresses,
        zone,
      },
      expected: { providerId: '', instanceType: 'my-instance-type', nodeAddresses: addresses, zone: 'us-west-1a', region: 'us-west' },
    },
    {
      name: 'cloud implemented with Instances (providerID not implemented) and node with providerID',
      cloud: { instanceIdErrors: { node0: new NotImplementedError() }, instanceTypes: { 'fake://asdasd': 'my-instance-type' }, addresses, zone },
      providerId: 'fake://asdasd',
      expected: { providerId: 'fake://asdasd', instanceType: 'my-instance-type', nodeAddresses: addresses, zone: 'us-west-1a', region: 'us-west' },
    },
    {
      name: 'cloud implemented with Instances: InstanceNotFound is an error',
      cloud: { instanceIdErrors: { node0: new InstanceNotFoundError() }, addresses },
      error: 'instance not found',
    },
    {
      name: 'cloud implemented with Instances: other instance ID errors are wrapped',
      cloud: { instanceIdErrors: { node0: new Error('throttled') }, addresses },
      error: 'failed to get instance ID from cloud provider: throttled',
    },
    {
      name: 'cloud implemented with InstancesV2 (with providerID)',
      cloud: { enableInstancesV2: true, providerIds: { node0: 'fake://12345' }, instanceTypes: { node0: 'my-instance-type' }, addresses, zone },
      expected: { providerId: 'fake://12345', instanceType: 'my-instance-type', nodeAddresses: addresses, zone: 'us-west-1a', region: 'us-west' },
    },
    {
      name: 'cloud implemented with InstancesV2 (without providerID)',
      cloud: { enableInstancesV2: true, instanceTypes: { node0: 'my-instance-type' }, addresses, zone },
      error: 'cloud provider does not set node provider ID for node node0',
    },
    {
      name: 'cloud implemented with InstancesV2 (without providerID) and node with providerID',
      cloud: { enableInstancesV2: true, instanceTypes: { 'fake://asdasd': 'my-instance-type' }, addresses, zone },
      providerId: 'fake://asdasd',
      expected: { providerId: 'fake://asdasd', instanceType: 'my-instance-type', nodeAddresses: addresses, zone: 'us-west-1a', region: 'us-west' },
    },
  ];

  it.each(cases)('$name', async ({ cloud: cloudOptions, providerId, expected, error }) => {
    const cloud = new FakeCloud(cloudOptions);
    const node = makeNode('node0', providerId === undefined ? {} : { providerId });
    const result = getInstanceMetadata(cloud, node, silentLogger);
    if (error !== undefined) await expect(result).rejects.toThrow(error);
    else expect(await result).toEqual(expected);
  });
});

describe('getInstanceMetadata: Instances v1 fallbacks', () => {
  it('falls back from provider ID to node name for addresses and instance type', async () => {
    const cloud = new FakeCloud({
      instanceIds: { node0: 'i-1' },
      addresses,
      instanceTypes: { node0: 'by-name' },
      addressesByProviderIdError: new Error('no by id'),
      instanceTypeByProviderIdError: new Error('no by id'),
    });
    const metadata = await getInstanceMetadata(cloud, makeNode('node0'), silentLogger);
    expect(metadata).toMatchObject({ providerId: 'fake://i-1', instanceType: 'by-name', nodeAddresses: addresses });
    expect(cloud.callCount('node-addresses', 'node0')).toBe(1);
    expect(cloud.callCount('instance-type', 'node0')).toBe(1);
  });

  it.each([
    [
      'addresses',
      { addressesByProviderIdError: new Error('a'), addressesByNameError: new Error('b') },
      'error fetching node by provider ID: a, and error by node name: b',
    ],
    [
      'instance type',
      { instanceTypeByProviderIdError: new Error('a'), instanceTypeByNameError: new Error('b') },
      'InstanceType: Error fetching by providerID: a Error fetching by NodeName: b',
    ],
    [
      'zone',
      { zoneByProviderIdError: new Error('a'), zoneByNameError: new Error('b') },
      'failed to get zone from cloud provider: Zone: Error fetching by providerID: a Error fetching by NodeName: b',
    ],
  ])('fails when both %s lookups fail', async (_name, errors, message) => {
    const cloud = new FakeCloud({ instanceIds: { node0: 'i-1' }, addresses, ...errors });
    await expect(getInstanceMetadata(cloud, makeNode('node0'), silentLogger)).rejects.toThrow(message);
  });

  it('leaves zone and region unset without Zones support and never calls Zones with InstancesV2', async () => {
    const withoutZones = new FakeCloud({ instanceIds: { node0: 'i-1' }, addresses, zone, enableZones: false });
    expect(await getInstanceMetadata(withoutZones, makeNode('node0'), silentLogger)).toMatchObject({ zone: '', region: '' });
    const v2 = new FakeCloud({ enableInstancesV2: true, providerIds: { node0: 'fake://1' }, addresses, zone });
    await getInstanceMetadata(v2, makeNode('node0'), silentLogger);
    expect(v2.calls.map((call) => call.method)).toEqual(['instance-metadata']);
  });

  it('keeps an empty failure domain or region unset', async () => {
    const cloud = new FakeCloud({ instanceIds: { node0: 'i-1' }, addresses, zone: { failureDomain: '', region: 'r' } });
    expect(await getInstanceMetadata(cloud, makeNode('node0'), silentLogger)).toMatchObject({ zone: '', region: 'r' });
  });

  it('passes nil V2 metadata through (skip without requeue)', async () => {
    const cloud = new FakeCloud({ enableInstancesV2: true, overrideInstanceMetadata: () => undefined });
    expect(await getInstanceMetadata(cloud, makeNode('node0'), silentLogger)).toBeUndefined();
  });
});

describe('getInstanceNodeAddresses', () => {
  it('V1 asks by provider ID, falls back to the name and never fetches the instance type', async () => {
    const cloud = new FakeCloud({ addresses, addressesByProviderIdError: new Error('x') });
    expect(await getInstanceNodeAddresses(cloud, makeNode('node0', { providerId: 'fake://1' }))).toEqual(addresses);
    expect(cloud.calls).toEqual([
      { method: 'node-addresses-by-provider-id', target: 'fake://1' },
      { method: 'node-addresses', target: 'node0' },
    ]);
  });
  it('V2 makes one instanceMetadata call', async () => {
    const cloud = new FakeCloud({ enableInstancesV2: true, addresses });
    expect(await getInstanceNodeAddresses(cloud, makeNode('node0'))).toEqual(addresses);
    expect(cloud.calls).toEqual([{ method: 'instance-metadata', target: 'node0' }]);
  });
});
