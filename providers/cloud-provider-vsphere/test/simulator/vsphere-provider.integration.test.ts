/**
 * The vSphere provider's InstancesV2 against the vCenter simulator: discovery, addresses,
 * instance type, zones from tags created over the vAPI REST endpoint, power state, deletion,
 * credential rotation through a Secret store, and one clear error for a wrong password.
 */
import { makeNode } from '@ccm/testing';
import { InMemoryInformer } from '@ccm/testing/kube';
import type { V1Node, V1Secret } from '@kubernetes/client-node';
import { VapiTaggingClient, createVsphereDispatcher } from '@ccm/vsphere-client';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { readVsphereConfig } from '../../src/config/read-vsphere-config.js';
import type { SecretState } from '../../src/credentials/secret-credentials.js';
import type { VcenterPort } from '../../src/ports/vcenter-port.js';
import { createVsphereClientVcenterPort } from '../../src/ports/sdk/vsphere-client-vcenter-port.js';
import { createVsphereCloud, type VsphereCloud } from '../../src/vsphere-cloud.js';
import { createVcsimCloud, recordingLogger, vcsimConfigYaml, type LogLine } from '../support/provider-fixture.js';
import { startVcsim, vcsimSuite, type Vcsim } from '../support/vcsim.js';

vcsimSuite('vsphere provider against vcsim', () => {
  let vcsim: Vcsim;
  const clouds: VsphereCloud[] = [];

  beforeAll(async () => {
    vcsim = await startVcsim();
  });
  afterEach(async () => {
    for (const cloud of clouds.splice(0)) await cloud.close();
  });
  afterAll(async () => {
    await vcsim?.stop();
  });

  async function cloudFor(text: string, logs: LogLine[] = [], secretStore?: { read(namespace: string, name: string): SecretState }): Promise<VsphereCloud> {
    const cloud = await createVcsimCloud(text, { logs, ...(secretStore ? { secretStore } : {}) });
    clouds.push(cloud);
    return cloud;
  }

  it('returns the providerID, instance type and guest addresses of a VM', async () => {
    const vm = await vcsim.admin.createVm({ name: 'metadata-node', numCpu: 4, memoryMB: 8192, guestId: 'ubuntu64Guest' });
    const instances = (await cloudFor(vcsimConfigYaml(vcsim))).instancesV2()!;
    const node = makeNode('metadata-node', { providerId: `vsphere://${vm.uuid}` });
    await expect(instances.instanceMetadata(node)).resolves.toEqual({
      providerId: `vsphere://${vm.uuid}`,
      instanceType: 'vsphere-vm.cpu-4.mem-8gb.os-ubuntu',
      nodeAddresses: [
        { type: 'Hostname', address: 'metadata-node' },
        { type: 'InternalIP', address: vm.ipAddress },
        { type: 'ExternalIP', address: vm.ipAddress },
      ],
      zone: '',
      region: '',
    });
    await expect(instances.instanceExists(node)).resolves.toBe(true);
    await expect(instances.instanceShutdown(node)).resolves.toBe(false);
  });

  it('finds a node without providerID by its guest hostname and by IP', async () => {
    const vm = await vcsim.admin.createVm({ name: 'by-name-node' });
    const instances = (await cloudFor(vcsimConfigYaml(vcsim))).instancesV2()!;
    const byName = await instances.instanceMetadata(makeNode('By-Name-Node', { uninitialized: true }));
    expect(byName?.providerId).toBe(`vsphere://${vm.uuid}`);
    await vcsim.admin.setGuest('by-name-node', { hostName: 'renamed-in-guest' });
    const byIp = await instances.instanceMetadata(makeNode('by-name-node', { uninitialized: true, providedNodeIp: vm.ipAddress }));
    expect(byIp?.providerId).toBe(`vsphere://${vm.uuid}`);
  });

  it('answers a storm of new nodes from one VM inventory read as VM by VM searches answer them, and searches for a VM created after the read', async () => {
    const names = Array.from({ length: 8 }, (_, index) => `storm-node-${index}`);
    for (const name of names) await vcsim.admin.createVm({ name, numCpu: 2, memoryMB: 4096, guestId: 'ubuntu64Guest' });
    // Counts the port's calls (the SDK port over vcsim, under the provider's pipeline).
    const calls = new Map<string, number>();
    const { config } = readVsphereConfig(vcsimConfigYaml(vcsim), 'vsphere.yaml', {});
    const counted = createVsphereCloud(config, {
      logger: recordingLogger([]),
      environment: {},
      createVcenterPort: (vcenter, credentials, logger) => {
        const port = createVsphereClientVcenterPort(vcenter, () => credentials.credentials(), logger);
        return new Proxy(port, {
          get: (target, property, receiver) => {
            const value: unknown = Reflect.get(target, property, receiver);
            if (typeof value !== 'function' || typeof property !== 'string') return value;
            return (...parameters: unknown[]) => {
              calls.set(property, (calls.get(property) ?? 0) + 1);
              return (value as (...inner: unknown[]) => unknown).apply(target, parameters);
            };
          },
        }) as VcenterPort;
      },
    });
    clouds.push(counted);
    const storm = await Promise.all(names.map((name) => counted.instancesV2().instanceMetadata(makeNode(name, { uninitialized: true }))));
    expect(calls.get('listVmIdentities')).toBe(1);
    expect(calls.get('findVmsByDnsName')).toBeUndefined();
    const alone = (await cloudFor(vcsimConfigYaml(vcsim))).instancesV2()!;
    const oneByOne = [];
    for (const name of names) oneByOne.push(await alone.instanceMetadata(makeNode(name, { uninitialized: true })));
    expect(storm).toEqual(oneByOne);
    expect(storm.map((metadata) => metadata?.instanceType)).toEqual(names.map(() => 'vsphere-vm.cpu-2.mem-4gb.os-ubuntu'));

    const late = await vcsim.admin.createVm({ name: 'storm-node-late' });
    await expect(counted.instancesV2().instanceMetadata(makeNode('storm-node-late', { uninitialized: true }))).resolves.toMatchObject({ providerId: `vsphere://${late.uuid}` });
    expect(calls.get('findVmsByDnsName')).toBe(1);
    expect(calls.get('listVmIdentities')).toBe(1);
  });

  it('selects addresses among several NICs by subnet, skipping non-vNICs, with guestinfo.metadata first', async () => {
    await vcsim.admin.createVm({ name: 'multi-nic-node' });
    await vcsim.admin.setGuest('multi-nic-node', {
      ipAddress: '192.168.50.10',
      net: [
        { network: 'DC0_DVPG0', ipAddress: ['192.168.50.10', 'fe80::1', '10.20.0.7'], deviceConfigId: 4000 },
        { network: '', ipAddress: ['10.244.3.1'], deviceConfigId: -1 },
        { network: 'Public', ipAddress: ['203.0.113.9', '203.0.113.10'], deviceConfigId: 4001 },
      ],
    });
    await vcsim.admin.setExtraConfig('multi-nic-node', {
      'guestinfo.metadata': Buffer.from('network:\n  version: 2\n  ethernets:\n    e:\n      addresses: [203.0.113.10/24]\n').toString('base64'),
      'guestinfo.metadata.encoding': 'base64',
    });
    const vm = await vcsim.admin.vm('multi-nic-node');
    const instances = (await cloudFor(vcsimConfigYaml(vcsim, { extra: 'nodes:\n  internalNetworkSubnetCidr: 10.0.0.0/8\n  externalVmNetworkName: public' }))).instancesV2()!;
    const metadata = await instances.instanceMetadata(makeNode('multi-nic-node', { providerId: `vsphere://${vm.uuid}` }));
    expect(metadata?.nodeAddresses).toEqual([
      { type: 'Hostname', address: 'multi-nic-node' },
      { type: 'InternalIP', address: '10.20.0.7' },
      { type: 'ExternalIP', address: '203.0.113.10' },
    ]);
  });

  it('reports powered-off and suspended VMs as shut down and destroyed VMs as gone', async () => {
    const vm = await vcsim.admin.createVm({ name: 'lifecycle-node' });
    const instances = (await cloudFor(vcsimConfigYaml(vcsim))).instancesV2()!;
    const node = makeNode('lifecycle-node', { providerId: `vsphere://${vm.uuid}` });
    await expect(instances.instanceShutdown(node)).resolves.toBe(false);
    await vcsim.admin.powerOff('lifecycle-node');
    await expect(instances.instanceExists(node)).resolves.toBe(true);
    await expect(instances.instanceShutdown(node)).resolves.toBe(true);
    await vcsim.admin.powerOn('lifecycle-node');
    await expect(instances.instanceShutdown(node)).resolves.toBe(false);
    await vcsim.admin.suspend('lifecycle-node');
    await expect(instances.instanceShutdown(node)).resolves.toBe(true);
    await vcsim.admin.destroy('lifecycle-node');
    await expect(instances.instanceExists(node)).resolves.toBe(false);
  });

  it('reads zone and region from tag categories on the host and datacenter, and fails without them', async () => {
    const tagging = new VapiTaggingClient({ server: vcsim.url, credentials: () => ({ username: vcsim.username, password: vcsim.password }), dispatcher: createVsphereDispatcher({ ca: vcsim.ca! }) });
    const inventory = await vcsim.admin.inventory();
    const host = inventory.hosts.find((candidate) => candidate.name === 'DC0_C0_H1')!;
    const datacenter = inventory.datacenters[0]!;
    const zoneCategory = await tagging.createCategory({ name: 'k8s-zone', associableTypes: ['HostSystem', 'ClusterComputeResource'] });
    const regionCategory = await tagging.createCategory({ name: 'k8s-region', associableTypes: ['Datacenter'] });
    await tagging.attachTag(await tagging.createTag({ name: 'zone-h1', categoryId: zoneCategory }), host.ref);
    await tagging.attachTag(await tagging.createTag({ name: 'region-dc0', categoryId: regionCategory }), datacenter.ref);
    await tagging.logout();

    const tagged = await vcsim.admin.createVm({ name: 'zoned-node', host: 'DC0_C0_H1' });
    const untagged = await vcsim.admin.createVm({ name: 'unzoned-node', host: 'DC0_H0' });
    const logs: LogLine[] = [];
    const cloud = await cloudFor(vcsimConfigYaml(vcsim, { labels: { zone: 'k8s-zone', region: 'k8s-region' } }), logs);
    const instances = cloud.instancesV2()!;
    await expect(instances.instanceMetadata(makeNode('zoned-node', { providerId: `vsphere://${tagged.uuid}` }))).resolves.toMatchObject({ zone: 'zone-h1', region: 'region-dc0' });
    await expect(instances.instanceMetadata(makeNode('unzoned-node', { providerId: `vsphere://${untagged.uuid}` }))).rejects.toMatchObject({
      kind: 'ZoneNotFound',
      message: expect.stringContaining('vSphere zone category "k8s-zone" does not match any tag'),
    });

    // A category that does not exist is reported once at startup.
    const missingLogs: LogLine[] = [];
    const misconfigured = await cloudFor(vcsimConfigYaml(vcsim, { labels: { zone: 'no-such-zone-category', region: 'k8s-region' } }), missingLogs);
    const controller = new AbortController();
    await misconfigured.initialize!({
      clientBuilder: { kubeConfig: () => { throw new Error('not used'); } },
      logger: recordingLogger([]),
      signal: controller.signal,
      informers: { nodes: new InMemoryInformer<V1Node>(), secrets: () => new InMemoryInformer<V1Secret>() },
      eventRecorder: () => ({ event: () => {} }),
    });
    await expect.poll(() => missingLogs.filter((line) => line.level === 'error').map((line) => line.message), { timeout: 10_000 }).toEqual([
      'tag category "no-such-zone-category" (labels.zone/labels.region) does not exist on vCenter "vcsim": nodes there cannot get a zone and stay uninitialized',
    ]);
    controller.abort();
  });

  it('reports a wrong password as one clear error, whatever the number of failing calls', async () => {
    const vm = (await vcsim.admin.inventory()).virtualMachines[0]!;
    const logs: LogLine[] = [];
    const instances = (await cloudFor(vcsimConfigYaml(vcsim, { password: 'not-the-password' }), logs)).instancesV2()!;
    const node = makeNode(vm.name, { providerId: `vsphere://${vm.uuid}` });
    for (let attempt = 0; attempt < 4; attempt++) {
      await expect(instances.instanceExists(node)).rejects.toMatchObject({
        kind: 'InvalidCredentials',
        message: expect.stringContaining(`refused the login: cannot log in to 127.0.0.1`),
      });
    }
    const errors = logs.filter((line) => line.level === 'error');
    expect(errors.map((line) => line.message)).toEqual([expect.stringMatching(/^vCenter "vcsim" \(127\.0\.0\.1\) refused the login: cannot log in to 127\.0\.0\.1:\d+ as "administrator@vsphere\.local": the user name or password is wrong \(InvalidLogin\)$/)]);
    expect(JSON.stringify(logs)).not.toContain('not-the-password');
  });

  it('uses a rotated password from the credential Secret without a restart', async () => {
    const vm = await vcsim.admin.createVm({ name: 'rotation-node' });
    const server = '127.0.0.1';
    let data = new Map([
      [`${server}.username`, vcsim.username],
      [`${server}.password`, vcsim.password],
    ]);
    const secretStore = { read: (): SecretState => ({ status: 'present', data }) };
    const logs: LogLine[] = [];
    const instances = (await cloudFor(vcsimConfigYaml(vcsim, { credentials: 'secret' }), logs, secretStore)).instancesV2()!;
    const node = makeNode('rotation-node', { providerId: `vsphere://${vm.uuid}` });
    try {
      await expect(instances.instanceExists(node)).resolves.toBe(true);
      // The vCenter password changes and the sessions end; the Secret still has the old one.
      await vcsim.admin.setCredentials(vcsim.username, 'rotated-Passw0rd');
      await vcsim.admin.terminateSessions();
      await expect(instances.instanceExists(node)).rejects.toMatchObject({ kind: 'InvalidCredentials' });
      // The Secret is updated: the next call logs in with the new password.
      data = new Map([
        [`${server}.username`, vcsim.username],
        [`${server}.password`, 'rotated-Passw0rd'],
      ]);
      await expect(instances.instanceExists(node)).resolves.toBe(true);
      expect(logs.filter((line) => line.level === 'error')).toHaveLength(1);
      expect(logs.filter((line) => line.level === 'info' && line.message === 'Problem resolved')).toHaveLength(1);
    } finally {
      await vcsim.admin.setCredentials(vcsim.username, vcsim.password);
    }
  });
});
