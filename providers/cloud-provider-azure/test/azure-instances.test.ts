import { describe, expect, it } from 'vitest';
import { addScaleSetVirtualMachine, addVirtualMachine, CONFIG, createHarness, node, RESOURCE_GROUP, SUBSCRIPTION } from './helpers.js';

const rgLower = RESOURCE_GROUP.toLowerCase();

describe('InstancesV2 over availability-set VMs', () => {
  it('finds a node by name and reports upstream metadata (lower-cased resource group, NIC addresses, VM size, fault domain)', async () => {
    const harness = await createHarness();
    addVirtualMachine(harness, 'node-a', '10.0.0.4', { publicIp: '20.1.2.3' });
    const metadata = await harness.cloud.instancesV2().instanceMetadata(node('node-a'));
    expect(metadata).toEqual({
      providerId: `azure:///subscriptions/${SUBSCRIPTION}/resourceGroups/${rgLower}/providers/Microsoft.Compute/virtualMachines/node-a`,
      instanceType: 'Standard_D2s_v3',
      nodeAddresses: [
        { type: 'InternalIP', address: '10.0.0.4' },
        { type: 'Hostname', address: 'node-a' },
        { type: 'ExternalIP', address: '20.1.2.3' },
      ],
      zone: '1',
      region: 'eastus',
    });
  });

  it('reports a zoned VM as <location>-<zone>, and of a dual-stack NIC only the primary configuration\'s address (upstream getIPForMachine)', async () => {
    const harness = await createHarness();
    addVirtualMachine(harness, 'node-z', '10.0.0.5', { zones: ['3'], location: 'WestEurope', ipv6: 'fd00::5' });
    const metadata = await harness.cloud.instancesV2().instanceMetadata(node('node-z'));
    expect(metadata?.zone).toBe('westeurope-3');
    expect(metadata?.region).toBe('westeurope');
    expect(metadata?.nodeAddresses).toEqual([
      { type: 'InternalIP', address: '10.0.0.5' },
      { type: 'Hostname', address: 'node-z' },
    ]);
  });

  it('nodeInstanceNotFoundGracePeriodInSeconds: a node younger than the period exists although its VM is not found; an older one, or without the key, does not (upstream #10604)', async () => {
    const graced = await createHarness({ ...CONFIG, nodeInstanceNotFoundGracePeriodInSeconds: 300 });
    const created = (secondsAgo: number) => ({ ...node('node-new'), metadata: { name: 'node-new', creationTimestamp: new Date(graced.clock.now - secondsAgo * 1000) } });
    expect(await graced.cloud.instancesV2().instanceExists(created(30))).toBe(true);
    expect(await graced.cloud.instancesV2().instanceExists(created(301))).toBe(false);
    expect(await graced.cloud.instancesV2().instanceExists(node('no-timestamp'))).toBe(false);
    const plain = await createHarness(CONFIG);
    plain.clock.now = graced.clock.now;
    expect(await plain.cloud.instancesV2().instanceExists(created(30))).toBe(false);
  });

  it('exists / shutdown follow the power and provisioning states; a deleted VM does not exist', async () => {
    const harness = await createHarness();
    const vm = addVirtualMachine(harness, 'node-b', '10.0.0.6');
    const instances = harness.cloud.instancesV2();
    const byId = node('node-b', { providerId: `azure://${vm.id}` });
    expect(await instances.instanceExists(byId)).toBe(true);
    expect(await instances.instanceShutdown(byId)).toBe(false);

    for (const [powerState, provisioningState, shutDown] of [
      ['deallocated', 'Succeeded', true],
      ['stopped', 'Succeeded', true],
      ['deallocating', 'Succeeded', true],
      ['stopped', 'Updating', false],
      ['starting', 'Succeeded', false],
    ] as const) {
      harness.compute.updateVirtualMachine(vm.id, { powerState, provisioningState });
      harness.clock.now += 61_000; // past vmCacheTTLInSeconds
      expect(await instances.instanceShutdown(byId), `${powerState}/${provisioningState}`).toBe(shutDown);
      expect(await instances.instanceExists(byId)).toBe(true);
    }

    harness.compute.removeVirtualMachine(vm.id);
    harness.clock.now += 61_000;
    expect(await instances.instanceExists(byId)).toBe(false);
  });

  it('answers many nodes from one list of the resource group, and lists again only after the refresh period', async () => {
    const harness = await createHarness();
    for (let index = 0; index < 20; index++) addVirtualMachine(harness, `node-${index}`, `10.0.1.${index}`);
    const instances = harness.cloud.instancesV2();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => instances.instanceExists(node(`node-${index}`))));
    expect(answers.every(Boolean)).toBe(true);
    expect(harness.compute.log.count('compute.listVirtualMachines')).toBe(1);
    // Metadata of all 20: one NIC list and one public IP list-free answer (no public IPs), no NIC GET.
    await Promise.all(Array.from({ length: 20 }, (_, index) => instances.instanceMetadata(node(`node-${index}`))));
    expect(harness.network.log.count('network.listNetworkInterfaces')).toBe(1);
    expect(harness.network.log.count('network.getNetworkInterface')).toBe(0);

    await instances.instanceExists(node('node-3'));
    expect(harness.compute.log.count('compute.listVirtualMachines')).toBe(1);
    harness.clock.now += 61_000;
    await instances.instanceExists(node('node-3'));
    expect(harness.compute.log.count('compute.listVirtualMachines')).toBe(2);
  });

  it('finds a VM created a moment after the last list: a miss lists again, never reports an existing VM as gone', async () => {
    const harness = await createHarness();
    addVirtualMachine(harness, 'node-old', '10.0.0.7');
    const instances = harness.cloud.instancesV2();
    expect(await instances.instanceExists(node('node-old'))).toBe(true);
    addVirtualMachine(harness, 'node-new', '10.0.0.8');
    harness.clock.now += 1_000;
    expect(await instances.instanceExists(node('node-new'))).toBe(true);
    expect(harness.compute.log.count('compute.listVirtualMachines')).toBe(2);
    // A VM that is really gone: one list taken after the question, then the answer.
    expect(await instances.instanceExists(node('node-gone'))).toBe(false);
    expect(harness.compute.log.count('compute.listVirtualMachines')).toBe(3);
  });

  it('answers a burst of misses with one list', async () => {
    const harness = await createHarness();
    addVirtualMachine(harness, 'node-old', '10.0.0.7');
    const instances = harness.cloud.instancesV2();
    expect(await instances.instanceExists(node('node-old'))).toBe(true);
    for (const name of ['node-a', 'node-b', 'node-c']) addVirtualMachine(harness, name, '10.0.0.9');
    harness.clock.now += 1_000;
    const answers = await Promise.all(['node-a', 'node-b', 'node-c', 'node-gone'].map((name) => instances.instanceExists(node(name))));
    expect(answers).toEqual([true, true, true, false]);
    expect(harness.compute.log.count('compute.listVirtualMachines')).toBe(2);
  });

  it('looks in the resource group of the kubernetes.azure.com/resource-group label too', async () => {
    const harness = await createHarness();
    addVirtualMachine(harness, 'node-other', '10.0.2.4', { resourceGroup: 'Other-RG' });
    const metadata = await harness.cloud.instancesV2().instanceMetadata(node('node-other', { labels: { 'kubernetes.azure.com/resource-group': 'Other-RG' } }));
    expect(metadata?.providerId).toBe(`azure:///subscriptions/${SUBSCRIPTION}/resourceGroups/other-rg/providers/Microsoft.Compute/virtualMachines/node-other`);
  });

  it('treats unmanaged nodes as existing, never shut down, without metadata, and makes no call', async () => {
    const harness = await createHarness();
    const instances = harness.cloud.instancesV2();
    for (const unmanaged of [node('edge-1', { labels: { 'kubernetes.azure.com/managed': 'false' } }), node('bare-1', { providerId: 'baremetal://rack-1/host-1' })]) {
      expect(await instances.instanceExists(unmanaged)).toBe(true);
      expect(await instances.instanceShutdown(unmanaged)).toBe(false);
      expect(await instances.instanceMetadata(unmanaged)).toBeUndefined();
    }
    expect(harness.compute.log.calls).toEqual([]);
  });
});

describe('InstancesV2 over uniform scale sets', () => {
  it('finds an instance by computer name and writes the scale-set provider ID and SKU', async () => {
    const harness = await createHarness();
    addScaleSetVirtualMachine(harness, 'pool1', '3', 'pool1000003', '10.1.0.7');
    const metadata = await harness.cloud.instancesV2().instanceMetadata(node('pool1000003'));
    expect(metadata).toEqual({
      providerId: `azure:///subscriptions/${SUBSCRIPTION}/resourceGroups/${rgLower}/providers/Microsoft.Compute/virtualMachineScaleSets/pool1/virtualMachines/3`,
      instanceType: 'Standard_D4s_v3',
      nodeAddresses: [
        { type: 'InternalIP', address: '10.1.0.7' },
        { type: 'Hostname', address: 'pool1000003' },
      ],
      zone: 'eastus-2',
      region: 'eastus',
    });
  });

  it('resolves a provider ID (also the <vmss>_<n> form) from the cached list of its scale set', async () => {
    const harness = await createHarness();
    addScaleSetVirtualMachine(harness, 'pool1', '3', 'pool1000003', '10.1.0.7', { powerState: 'deallocated' });
    const instances = harness.cloud.instancesV2();
    const base = `azure:///subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.Compute/virtualMachineScaleSets/pool1/virtualMachines`;
    expect(await instances.instanceShutdown(node('x', { providerId: `${base}/3` }))).toBe(true);
    expect(await instances.instanceExists(node('x', { providerId: `${base}/pool1_3` }))).toBe(true);
    expect(await instances.instanceExists(node('x', { providerId: `${base}/9` }))).toBe(false);
    // The miss of instance 9 lists the scale set again once (instance 9 could be a moment old).
    expect(harness.compute.log.count('compute.listScaleSetVirtualMachines')).toBe(2);
    expect(harness.compute.log.count('compute.listVirtualMachines')).toBe(0);
  });

  it('with vmType=standard never lists scale sets', async () => {
    const harness = await createHarness({ ...(await import('./helpers.js')).CONFIG, vmType: 'standard' });
    addScaleSetVirtualMachine(harness, 'pool1', '3', 'pool1000003', '10.1.0.7');
    expect(await harness.cloud.instancesV2().instanceExists(node('pool1000003'))).toBe(false);
    expect(harness.compute.log.count('compute.listScaleSets')).toBe(0);
  });
});

describe('InstancesV2 over flexible scale sets', () => {
  it('finds a flexible scale-set VM (listed with the resource group\'s VMs) by its computer name', async () => {
    const harness = await createHarness();
    addVirtualMachine(harness, 'flex_a1b2c3', '10.2.0.4', { computerName: 'flex000001', flexibleScaleSetId: `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.Compute/virtualMachineScaleSets/flex` });
    const metadata = await harness.cloud.instancesV2().instanceMetadata(node('flex000001'));
    expect(metadata?.providerId).toBe(`azure:///subscriptions/${SUBSCRIPTION}/resourceGroups/${rgLower}/providers/Microsoft.Compute/virtualMachines/flex_a1b2c3`);
  });
});

describe('a scale set created after the cached list of scale sets', () => {
  it('is found once the list is older than the minimum refresh interval', async () => {
    const harness = await createHarness();
    addScaleSetVirtualMachine(harness, 'pool1', '0', 'pool1000000', '10.1.0.4');
    const instances = harness.cloud.instancesV2();
    expect(await instances.instanceExists(node('pool1000000'))).toBe(true);
    addScaleSetVirtualMachine(harness, 'pool2', '0', 'pool2000000', '10.1.1.4');
    harness.clock.now += 6_000;
    expect(await instances.instanceExists(node('pool2000000'))).toBe(true);
    expect(harness.compute.log.count('compute.listScaleSets')).toBe(2);
  });
});
