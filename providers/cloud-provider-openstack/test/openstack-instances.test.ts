import { isInstanceNotFound } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import { CloudStateError } from '../src/errors.js';
import { fakeError } from './fakes/fake-errors.js';
import { FakeCompute } from './fakes/fake-compute.js';
import { FakeNetwork } from './fakes/fake-network.js';
import { addNodeServer, cloudConf, createHarness, makeNode, NODE_NETWORK, NODE_NETWORK_ID, REGION } from './helpers.js';

describe('OpenStack InstancesV2', () => {
  it('returns the metadata of a node found by name: provider ID, flavor name, addresses, sanitized zone, region', async () => {
    const harness = await createHarness();
    const { id } = addNodeServer(harness, 'node-1', '10.0.0.5', { availabilityZone: 'zone one' });
    const metadata = await harness.cloud.instancesV2().instanceMetadata(makeNode('node-1'));
    expect(metadata).toEqual({
      providerId: `openstack:///${id}`,
      instanceType: 'm1.small',
      nodeAddresses: [{ type: 'InternalIP', address: '10.0.0.5' }],
      zone: 'zone-one',
      region: REGION,
    });
  });

  it('writes regional provider IDs with OS_CCM_REGIONAL=true', async () => {
    const harness = await createHarness({ cloud: { environment: { OS_CCM_REGIONAL: 'true' } } });
    const { id } = addNodeServer(harness, 'node-1', '10.0.0.5');
    expect((await harness.cloud.instancesV2().instanceMetadata(makeNode('node-1')))?.providerId).toBe(`openstack://${REGION}/${id}`);
  });

  it('uses the flavor original_name when Nova shows a valid one, and lists the flavors once', async () => {
    const harness = await createHarness();
    harness.compute.addServer('node-a', { flavorOriginalName: 'gp.large' });
    harness.compute.addServer('node-b');
    harness.compute.addServer('node-c');
    const instances = harness.cloud.instancesV2();
    expect((await instances.instanceMetadata(makeNode('node-a')))?.instanceType).toBe('gp.large');
    expect((await instances.instanceMetadata(makeNode('node-b')))?.instanceType).toBe('m1.small');
    expect((await instances.instanceMetadata(makeNode('node-c')))?.instanceType).toBe('m1.small');
    expect([harness.compute.callsOf('listFlavors'), harness.compute.callsOf('getFlavor')]).toEqual([1, 0]);
  });

  it('falls back to the flavor ID when the flavor name is not a label value', async () => {
    const harness = await createHarness();
    harness.compute.flavors.set('f-odd', { id: 'f-odd', name: 'big flavor!' });
    harness.compute.addServer('node-1', { flavorId: 'f-odd' });
    expect((await harness.cloud.instancesV2().instanceMetadata(makeNode('node-1')))?.instanceType).toBe('f-odd');
  });

  it('applies [Networking]: public networks as ExternalIP, internal-network-name, address-sort-order', async () => {
    const harness = await createHarness({ config: cloudConf('[Networking]\npublic-network-name = public\ninternal-network-name = nodes\naddress-sort-order = 192.168.0.0/16\n') });
    const server = harness.compute.addServer('node-1', {
      addresses: {
        nodes: [{ address: '10.0.0.5', version: 4, type: 'fixed' }, { address: '192.168.7.7', version: 4, type: 'fixed' }],
        public: [{ address: '172.24.4.9', version: 4, type: 'fixed' }],
        storage: [{ address: '10.9.9.9', version: 4, type: 'fixed' }],
      },
    });
    harness.network.addPort({ networkId: 'n1', deviceId: server.id, fixedIps: [{ subnetId: 's', ipAddress: '10.0.0.5' }, { subnetId: 's', ipAddress: '192.168.7.7' }] });
    harness.network.addPort({ networkId: 'n2', deviceId: server.id, fixedIps: [{ subnetId: 's2', ipAddress: '10.9.9.9' }] });
    expect((await harness.cloud.instancesV2().instanceMetadata(makeNode('node-1')))?.nodeAddresses).toEqual([
      { type: 'InternalIP', address: '192.168.7.7' },
      { type: 'InternalIP', address: '10.0.0.5' },
      { type: 'ExternalIP', address: '172.24.4.9' },
    ]);
  });

  it('exists for running and SHUTOFF servers, shut down only when SHUTOFF, gone when deleted', async () => {
    const harness = await createHarness();
    const { id } = addNodeServer(harness, 'node-1', '10.0.0.5');
    const instances = harness.cloud.instancesV2();
    const node = makeNode('node-1', { providerId: `openstack:///${id}` });
    await expect(instances.instanceExists(node)).resolves.toBe(true);
    await expect(instances.instanceShutdown(node)).resolves.toBe(false);
    (harness.compute.servers.get(id) as { status: string }).status = 'SHUTOFF';
    await expect(instances.instanceExists(node)).resolves.toBe(true);
    await expect(instances.instanceShutdown(node)).resolves.toBe(true);
    harness.compute.servers.delete(id);
    await expect(instances.instanceExists(node)).resolves.toBe(false);
    await expect(instances.instanceShutdown(node)).rejects.toSatisfy(isInstanceNotFound);
    await expect(instances.instanceMetadata(node)).rejects.toSatisfy(isInstanceNotFound);
  });

  it('finds a renamed server by its provider ID with GET /servers/{id}', async () => {
    const harness = await createHarness();
    const { id } = addNodeServer(harness, 'renamed-server', '10.0.0.5');
    const metadata = await harness.cloud.instancesV2().instanceMetadata(makeNode('node-1', { providerId: `openstack:///${id}` }));
    expect(metadata?.providerId).toBe(`openstack:///${id}`);
    expect(harness.compute.callsOf('getServer')).toBe(1);
  });

  it('refuses two servers with the node name, and a provider ID of another region', async () => {
    const harness = await createHarness();
    harness.compute.addServer('twin');
    harness.compute.addServer('twin');
    await expect(harness.cloud.instancesV2().instanceExists(makeNode('twin'))).rejects.toBeInstanceOf(CloudStateError);
    await expect(harness.cloud.instancesV2().instanceExists(makeNode('x', { providerId: 'openstack://RegionTwo/abc' }))).rejects.toThrow(/didn't match supported region "RegionOne"/);
    expect(harness.compute.calls).toEqual(['listServersByName']);
  });

  it('looks many new nodes up with one server list and one port list', async () => {
    const harness = await createHarness();
    const names = Array.from({ length: 40 }, (_, index) => `node-${index}`);
    for (const [index, name] of names.entries()) addNodeServer(harness, name, `10.0.1.${index + 1}`);
    const instances = harness.cloud.instancesV2();
    const all = await Promise.all(names.map((name) => instances.instanceMetadata(makeNode(name))));
    expect(all.map((metadata) => metadata?.nodeAddresses[0]?.address)).toEqual(names.map((_, index) => `10.0.1.${index + 1}`));
    expect(harness.compute.callsOf('listServersByName')).toBe(1);
    expect(harness.compute.nameLists[0]).toHaveLength(40);
    expect(harness.network.callsOf('listPorts')).toBe(1);
    expect(harness.network.deviceLists[0]).toHaveLength(40);
    expect([harness.compute.callsOf('listFlavors'), harness.compute.callsOf('getFlavor')]).toEqual([1, 0]);
    expect(harness.compute.callsOf('getServer')).toBe(0);
  });

  it('answers a storm of 200 new nodes with one server list, one port list and one flavor list, each node as when asked alone', async () => {
    const fakes = { compute: new FakeCompute(), network: new FakeNetwork() };
    const names = Array.from({ length: 200 }, (_, index) => `ccm-bench-node-${index}`);
    for (const [index, name] of names.entries()) {
      const server = fakes.compute.addServer(name, {
        addresses: { [NODE_NETWORK]: [{ address: `10.0.${index >> 8}.${index & 255}`, version: 4, type: 'fixed' }], public: [{ address: `172.24.${index >> 8}.${index & 255}`, version: 4, type: 'floating' }] },
        availabilityZone: index % 2 === 0 ? 'az one' : 'az-two',
      });
      fakes.network.addPort({ networkId: NODE_NETWORK_ID, deviceId: server.id, fixedIps: [{ subnetId: 'subnet-nodes', ipAddress: `10.0.${index >> 8}.${index & 255}` }] });
      if (index % 3 === 0) fakes.network.addPort({ networkId: 'net-storage', deviceId: server.id, fixedIps: [{ subnetId: 'subnet-storage', ipAddress: `10.9.${index >> 8}.${index & 255}` }] });
      if (index % 5 === 0) fakes.network.addPort({ networkId: 'net-down', deviceId: server.id, status: 'DOWN', fixedIps: [{ subnetId: 'subnet-down', ipAddress: `10.8.${index >> 8}.${index & 255}` }] });
    }
    fakes.network.addPort({ networkId: NODE_NETWORK_ID, deviceId: 'router-1', fixedIps: [{ subnetId: 'subnet-nodes', ipAddress: '10.0.255.1' }] });
    const storm = await createHarness(fakes);
    const together = await Promise.all(names.map((name) => storm.cloud.instancesV2().instanceMetadata(makeNode(name))));
    // 200 server IDs do not fit in one device_id query: one list of every port, kept per server.
    expect([fakes.compute.callsOf('listServersByName'), fakes.network.callsOf('listPorts'), fakes.compute.callsOf('listFlavors'), fakes.compute.callsOf('getFlavor')]).toEqual([1, 1, 1, 0]);
    expect(fakes.compute.nameLists[0]).toHaveLength(200);
    expect(fakes.network.deviceLists).toEqual([]);

    // Asked one at a time (a batch of one each: device_id lists), every kind of node (its index
    // modulo 2, 3 and 5) answers the same.
    const alone = await createHarness(fakes);
    for (const index of [...Array.from({ length: 30 }, (_, first) => first), 199]) expect(await alone.cloud.instancesV2().instanceMetadata(makeNode(names[index] as string))).toEqual(together[index]);
    expect(fakes.network.deviceLists.every((deviceIds) => deviceIds.length === 1)).toBe(true);
    // Node 15: its node port, its storage port, not its DOWN port, then the floating IP.
    expect(together[15]).toMatchObject({
      nodeAddresses: [
        { type: 'InternalIP', address: '10.0.0.15' },
        { type: 'InternalIP', address: '10.9.0.15' },
        { type: 'ExternalIP', address: '172.24.0.15' },
      ],
      instanceType: 'm1.small',
      zone: 'az-two',
    });
  });

  it('retries a transient Nova failure and answers', async () => {
    const harness = await createHarness();
    addNodeServer(harness, 'node-1', '10.0.0.5');
    harness.compute.failNext('listServersByName', fakeError('Unavailable', 'compute.listServersByName'));
    await expect(harness.cloud.instancesV2().instanceExists(makeNode('node-1'))).resolves.toBe(true);
    expect(harness.compute.callsOf('listServersByName')).toBe(2);
  });

  it('does not retry a NotFound flavor and reports it', async () => {
    const harness = await createHarness();
    harness.compute.addServer('node-1', { flavorId: 'gone' });
    await expect(harness.cloud.instancesV2().instanceMetadata(makeNode('node-1'))).rejects.toThrow(/fake NotFound/);
    expect(harness.compute.callsOf('getFlavor')).toBe(1);
  });

  it('never mutates the Node it is given', async () => {
    const harness = await createHarness();
    addNodeServer(harness, 'node-1', '10.0.0.5');
    const node = makeNode('node-1');
    const snapshot = structuredClone(node);
    await expect(harness.cloud.instancesV2().instanceMetadata(node)).resolves.toBeDefined();
    expect(node).toEqual(snapshot);
  });
});
