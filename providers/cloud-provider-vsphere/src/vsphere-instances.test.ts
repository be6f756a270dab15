import type { Logger } from '@ccm/core/logging';
import { isInstanceNotFound } from '@ccm/core/provider';
import { makeNode } from '@ccm/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeVcenter } from '../test/fakes/fake-vcenter.js';
import { readVsphereConfig } from './config/read-vsphere-config.js';
import { VsphereApiError, VsphereProviderError } from './errors.js';
import { createVsphereCloud, type VsphereCloud } from './vsphere-cloud.js';

const UUID = '422e4956-ad22-1139-6d72-59cc8f26bc90';
const SWAPPED = '56492e42-22ad-3911-6d72-59cc8f26bc90';

interface LogLine {
  level: string;
  message: string;
  fields: Record<string, unknown> | undefined;
}

function recordingLogger(lines: LogLine[]): Logger {
  const logger: Logger = {
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
    warn: (message, fields) => lines.push({ level: 'warn', message, fields }),
    info: (message, fields) => lines.push({ level: 'info', message, fields }),
    verbose: () => undefined,
    child: () => logger,
  };
  return logger;
}

const clouds: VsphereCloud[] = [];
afterEach(async () => {
  for (const cloud of clouds.splice(0)) await cloud.close();
});

function setup(configText: string, vcenters: FakeVcenter[], environment: Record<string, string> = {}) {
  const logs: LogLine[] = [];
  const batches: number[] = [];
  const { config } = readVsphereConfig(configText, 'vsphere.conf', environment);
  const cloud = createVsphereCloud(config, {
    logger: recordingLogger(logs),
    environment,
    createVcenterPort: (vcenter) => {
      const fake = vcenters.find((candidate) => candidate.name === vcenter.name);
      if (fake === undefined) throw new Error(`no fake for ${vcenter.name}`);
      return fake;
    },
    lookup: { batchWindowMs: 5, onBatch: (_vcenter, size) => batches.push(size) },
    // The fakes answer at once: retries of their injected transient failures need not wait.
    retry: { sleep: async () => {} },
  });
  clouds.push(cloud);
  return { cloud, instances: cloud.instancesV2()!, logs, batches };
}

const ONE_VCENTER = 'global:\n  user: u\n  password: p\nvcenter:\n  vc1: {}\n';

describe('VsphereInstances', () => {
  it('returns metadata for a node with a providerID', async () => {
    const vc = new FakeVcenter('vc1');
    vc.addVm({ name: 'worker-1', uuid: UUID, numCpu: 4, memorySizeMB: 8192, guestId: 'ubuntu64Guest', ip: '10.0.0.21' });
    const { instances, cloud } = setup(ONE_VCENTER, [vc]);
    expect(cloud.loadBalancer?.()).toBeUndefined();
    expect(cloud.routes?.()).toBeUndefined();
    const node = makeNode('worker-1', { providerId: `vsphere://${UUID}` });
    await expect(instances.instanceMetadata(node)).resolves.toEqual({
      providerId: `vsphere://${UUID}`,
      instanceType: 'vsphere-vm.cpu-4.mem-8gb.os-ubuntu',
      nodeAddresses: [
        { type: 'Hostname', address: 'worker-1' },
        { type: 'InternalIP', address: '10.0.0.21' },
        { type: 'ExternalIP', address: '10.0.0.21' },
      ],
      zone: '',
      region: '',
    });
    await expect(instances.instanceExists(node)).resolves.toBe(true);
    await expect(instances.instanceShutdown(node)).resolves.toBe(false);
  });

  it('adds the --node-labels to every node as additional labels (upstream AdditionalLabels)', async () => {
    const vc = new FakeVcenter('vc1');
    vc.addVm({ name: 'worker-1', uuid: UUID });
    const { config } = readVsphereConfig(ONE_VCENTER, 'vsphere.conf', {});
    const cloud = createVsphereCloud(config, {
      logger: recordingLogger([]),
      environment: {},
      createVcenterPort: () => vc,
      retry: { sleep: async () => {} },
      nodeLabels: { 'node.foo.bar': 'vsphere', 'foo.bar/mapi': '' },
    });
    clouds.push(cloud);
    const metadata = await cloud.instancesV2().instanceMetadata(makeNode('worker-1', { providerId: `vsphere://${UUID}` }));
    expect(metadata?.additionalLabels).toEqual({ 'node.foo.bar': 'vsphere', 'foo.bar/mapi': '' });
    // Without the flag: no additional labels at all.
    const { instances } = setup(ONE_VCENTER, [vc]);
    expect((await instances.instanceMetadata(makeNode('worker-1', { providerId: `vsphere://${UUID}` })))?.additionalLabels).toBeUndefined();
  });

  it('finds the VM by the byte-swapped UUID a kubelet may report', async () => {
    const vc = new FakeVcenter('vc1');
    vc.addVm({ name: 'photon-1', uuid: UUID });
    const { instances } = setup(ONE_VCENTER, [vc]);
    await expect(instances.instanceExists(makeNode('photon-1', { providerId: `vsphere://${SWAPPED}` }))).resolves.toBe(true);
    // Metadata too (upstream indexes its node map by the swapped UUID and finds no entry): the Node keeps its providerID.
    const metadata = await instances.instanceMetadata(makeNode('photon-1', { providerId: `vsphere://${SWAPPED}` }));
    expect(metadata?.providerId).toBe(`vsphere://${SWAPPED}`);
    expect(metadata?.nodeAddresses.length).toBeGreaterThan(0);
  });

  it('finds a node without providerID by lower-cased guest hostname, then by IP, and sets the providerID', async () => {
    const vc = new FakeVcenter('vc1');
    vc.addVm({ name: 'vm-a', uuid: UUID, guestHostName: 'worker-a' });
    vc.addVm({ name: 'vm-b', uuid: SWAPPED.replace('5', '6'), guestHostName: 'something-else', ip: '10.0.0.77' });
    const { instances } = setup(ONE_VCENTER, [vc]);
    const byName = await instances.instanceMetadata(makeNode('Worker-A', { uninitialized: true }));
    expect(byName?.providerId).toBe(`vsphere://${UUID}`);
    const byIp = await instances.instanceMetadata(makeNode('10.0.0.77', { uninitialized: true }));
    expect(byIp?.providerId).toBe(`vsphere://${SWAPPED.replace('5', '6')}`);
    expect(vc.calls).toContain('findVmByIp');
  });

  it('sets the providerID of a new node to vsphere:// and the UUID exactly as vCenter reports it (upstream getProviderID)', async () => {
    const vc = new FakeVcenter('vc1');
    vc.addVm({ name: 'vm-upper', uuid: '422E4956-AD22-1139-6D72-59CC8F26BC90', guestHostName: 'worker-upper' });
    const { instances } = setup(ONE_VCENTER, [vc]);
    const metadata = await instances.instanceMetadata(makeNode('worker-upper', { uninitialized: true }));
    expect(metadata?.providerId).toBe('vsphere://422E4956-AD22-1139-6D72-59CC8F26BC90');
  });

  it('finds a storm of new nodes in one VM inventory read (datacenter list once, no search per node), their VMs in one batch', async () => {
    const vc = new FakeVcenter('vc1');
    const names = Array.from({ length: 30 }, (_, index) => vc.addVm({ name: `worker-${index}`, uuid: `uuid-${index}`, ip: `10.0.1.${index + 1}` }).name);
    const { instances, batches } = setup(ONE_VCENTER, [vc]);
    const metadata = await Promise.all(names.map((name) => instances.instanceMetadata(makeNode(name, { uninitialized: true }))));
    expect(metadata.map((entry) => entry?.providerId)).toEqual(names.map((_, index) => `vsphere://uuid-${index}`));
    expect(metadata.map((entry) => entry?.nodeAddresses[1]?.address)).toEqual(names.map((_, index) => `10.0.1.${index + 1}`));
    expect(vc.count('listDatacenters')).toBe(1);
    expect(vc.count('listVmIdentities')).toBe(1);
    expect(vc.count('findVmsByDnsName')).toBe(0);
    expect(batches).toEqual([30]);
    // Later nodes of the same storm reuse the inventory.
    const later = await Promise.all(names.slice(0, 5).map((name) => instances.instanceExists(makeNode(name, { uninitialized: true }))));
    expect(later.every(Boolean)).toBe(true);
    expect(vc.count('listVmIdentities')).toBe(1);
    expect(vc.count('findVmsByDnsName')).toBe(0);
  });

  it('gives a storm the same answers from the inventory as VM by VM searches give (names, IPs, UUIDs, ambiguous names, misses)', async () => {
    const build = (): FakeVcenter => {
      const vc = new FakeVcenter('vc1');
      vc.addVm({ name: 'a', uuid: 'uuid-a', guestHostName: 'node-a', ip: '10.0.2.1' });
      vc.addVm({ name: 'b', uuid: 'uuid-b', guestHostName: 'other-b', ip: '10.0.2.2' });
      vc.addVm({ name: 'c', uuid: UUID, guestHostName: 'node-c', ip: '10.0.2.3', powerState: 'poweredOff' });
      vc.addVm({ name: 'd1', uuid: 'uuid-d1', guestHostName: 'twin', ip: '10.0.2.4' });
      vc.addVm({ name: 'd2', uuid: 'uuid-d2', guestHostName: 'twin', ip: '10.0.2.5' });
      return vc;
    };
    const nodes = [
      makeNode('Node-A', { uninitialized: true }),
      makeNode('10.0.2.2', { uninitialized: true }),
      makeNode('node-c', { providerId: `vsphere://${SWAPPED}` }),
      makeNode('node-c2', { providerId: `vsphere://${UUID}` }),
      makeNode('twin', { uninitialized: true }),
      makeNode('ghost', { uninitialized: true }),
      makeNode('gone', { providerId: 'vsphere://uuid-gone' }),
    ];
    const settle = (promise: Promise<unknown>): Promise<unknown> =>
      promise.then(
        (value) => value,
        (error: unknown) => `error ${(error as { kind?: string }).kind ?? ''} ${(error as Error).message}`,
      );
    const answersFor = async (instances: ReturnType<typeof setup>['instances'], node: (typeof nodes)[number]): Promise<unknown[]> => [
      await settle(instances.instanceExists(node)),
      await settle(instances.instanceShutdown(node)),
      await settle(instances.instanceMetadata(node)),
    ];
    // One by one (no storm: VM by VM searches, as upstream) and all at once (a storm: the inventory).
    const alone = setup(ONE_VCENTER, [build()]);
    const oneByOne: unknown[] = [];
    for (const node of nodes) oneByOne.push(...(await answersFor(alone.instances, node)));
    const stormVcenter = build();
    const storm = setup(ONE_VCENTER, [stormVcenter]);
    const together = (await Promise.all(nodes.map((node) => answersFor(storm.instances, node)))).flat();
    expect(together).toEqual(oneByOne);
    expect(stormVcenter.count('listVmIdentities')).toBe(1);
    expect(oneByOne.slice(0, 3)).toEqual([true, false, expect.objectContaining({ providerId: 'vsphere://uuid-a' })]);
    expect(String(oneByOne[12])).toContain('2 VMs in datacenter /dc-1');
    expect(oneByOne.slice(18)).toEqual([false, false, expect.stringContaining('no VM found')]);
    // Searched: only what the inventory has no sure VM for (the IP-named node's name, the ambiguous name, the unknown name), 3 calls each.
    expect(stormVcenter.count('findVmsByDnsName')).toBe(9);
  });

  it('finds a VM created after the inventory was read by searching for it, without reading the inventory again', async () => {
    const vc = new FakeVcenter('vc1');
    const names = Array.from({ length: 6 }, (_, index) => vc.addVm({ name: `early-${index}`, uuid: `uuid-early-${index}` }).name);
    const { instances } = setup(ONE_VCENTER, [vc]);
    await Promise.all(names.map((name) => instances.instanceExists(makeNode(name, { uninitialized: true }))));
    expect(vc.count('listVmIdentities')).toBe(1);
    vc.addVm({ name: 'late', uuid: 'uuid-late', ip: '10.0.3.9' });
    const metadata = await instances.instanceMetadata(makeNode('late', { uninitialized: true }));
    expect(metadata?.providerId).toBe('vsphere://uuid-late');
    expect(vc.count('findVmsByDnsName')).toBe(1);
    expect(vc.count('listVmIdentities')).toBe(1);
  });

  it('searches again when the VM the inventory named is gone or renamed since', async () => {
    const vc = new FakeVcenter('vc1');
    const vms = Array.from({ length: 6 }, (_, index) => vc.addVm({ name: `vm-${index}`, uuid: `uuid-${index}` }));
    const { instances } = setup(ONE_VCENTER, [vc]);
    // Read the inventory with a storm of other lookups.
    await Promise.all(vms.slice(2).map((vm) => instances.instanceExists(makeNode(vm.name, { providerId: `vsphere://${vm.uuid}` }))));
    expect(vc.count('listVmIdentities')).toBe(1);
    // vm-0 is recreated under the same hostname (a new VM), vm-1 renamed.
    vc.remove(vms[0]!.ref);
    const recreated = vc.addVm({ name: 'vm-0', uuid: 'uuid-0-new' });
    vc.update(vms[1]!.ref, { guestHostName: 'renamed' });
    const zero = await instances.instanceMetadata(makeNode('vm-0', { uninitialized: true }));
    expect(zero?.providerId).toBe(`vsphere://${recreated.uuid}`);
    await expect(instances.instanceExists(makeNode('vm-1', { uninitialized: true }))).rejects.toMatchObject({ kind: 'VmNotFound' });
    expect(vc.count('findVmsByDnsName')).toBe(2);
    // A VM with a providerID that the inventory still lists but is deleted now: gone, after a search says so.
    vc.remove(vms[2]!.ref);
    const before = vc.count('findVmByUuid');
    await expect(instances.instanceExists(makeNode(vms[2]!.name, { providerId: `vsphere://${vms[2]!.uuid}` }))).resolves.toBe(false);
    expect(vc.count('findVmByUuid') - before).toBe(1);
    expect(vc.count('listVmIdentities')).toBe(1);
  });

  it('searches VM by VM for lookups that come alone (no inventory read for fewer than four)', async () => {
    const vc = new FakeVcenter('vc1');
    vc.addVm({ name: 'worker-1', uuid: UUID });
    vc.addVm({ name: 'worker-2', uuid: 'uuid-2' });
    const { instances } = setup(ONE_VCENTER, [vc]);
    await Promise.all(['worker-1', 'worker-2'].map((name) => instances.instanceExists(makeNode(name, { uninitialized: true }))));
    expect(vc.count('listVmIdentities')).toBe(0);
    expect(vc.count('findVmsByDnsName')).toBe(2);
  });

  it('searches VM by VM when the inventory cannot be read, and reports it', async () => {
    const vc = new FakeVcenter('vc1');
    const names = Array.from({ length: 5 }, (_, index) => vc.addVm({ name: `worker-${index}`, uuid: `uuid-${index}` }).name);
    vc.fail = (method) => (method === 'listVmIdentities' ? new VsphereApiError('NoPermission', { code: 'NoPermission', operation: 'CreateContainerView', retryable: false }) : undefined);
    const { instances, logs } = setup(ONE_VCENTER, [vc]);
    const found = await Promise.all(names.map((name) => instances.instanceExists(makeNode(name, { uninitialized: true }))));
    expect(found.every(Boolean)).toBe(true);
    expect(vc.count('findVmsByDnsName')).toBe(5);
    expect(logs.some((line) => line.message.includes('cannot read the VM inventory of datacenter /dc-1'))).toBe(true);
  });

  it('fails for a node without providerID that matches no VM (it is not reported as gone)', async () => {
    const vc = new FakeVcenter('vc1');
    const { instances } = setup(ONE_VCENTER, [vc]);
    const error = await instances.instanceExists(makeNode('ghost', { uninitialized: true })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VsphereProviderError);
    expect(error).toMatchObject({ kind: 'VmNotFound' });
  });

  it('reports a powered-off VM as existing and shut down, a deleted one as gone', async () => {
    const vc = new FakeVcenter('vc1');
    const vm = vc.addVm({ name: 'worker-1', uuid: UUID });
    const { instances } = setup(ONE_VCENTER, [vc]);
    const node = makeNode('worker-1', { providerId: `vsphere://${UUID}` });
    vc.update(vm.ref, { powerState: 'poweredOff' });
    await expect(instances.instanceExists(node)).resolves.toBe(true);
    await expect(instances.instanceShutdown(node)).resolves.toBe(true);
    vc.update(vm.ref, { powerState: 'suspended' });
    await expect(instances.instanceShutdown(node)).resolves.toBe(true);
    vc.remove(vm.ref);
    await expect(instances.instanceExists(node)).resolves.toBe(false);
    await expect(instances.instanceShutdown(node)).resolves.toBe(false);
    const metadataError = await instances.instanceMetadata(node).catch((caught: unknown) => caught);
    expect(isInstanceNotFound(metadataError)).toBe(true);
  });

  it('never reports a VM as gone while a vCenter cannot be searched', async () => {
    const vc1 = new FakeVcenter('vc1');
    const vc2 = new FakeVcenter('vc2');
    const { instances, logs } = setup('global:\n  user: u\n  password: p\nvcenter:\n  vc1: {}\n  vc2: {}\n', [vc1, vc2]);
    vc2.fail = () => new VsphereApiError('FindByUuid: cannot reach vc2:443: connect ECONNREFUSED', { code: 'Transport', operation: 'FindByUuid', retryable: true });
    const node = makeNode('worker-1', { providerId: `vsphere://${UUID}` });
    const error = await instances.instanceExists(node).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'VcenterUnavailable' });
    expect((error as Error).message).toContain('vCenter "vc2" (vc2) is not available');
    // The VM on the healthy vCenter is still found.
    vc1.addVm({ name: 'worker-1', uuid: UUID });
    await expect(instances.instanceExists(node)).resolves.toBe(true);
    expect(logs.filter((line) => line.level === 'error')).toHaveLength(1);
  });

  it.each(['true', 'false', ''])('keeps nodes whose VM is gone when SKIP_NODE_DELETION is present (value %j: presence counts, as upstream LookupEnv)', async (value) => {
    const vc = new FakeVcenter('vc1');
    const { instances } = setup(ONE_VCENTER, [vc], { SKIP_NODE_DELETION: value });
    await expect(instances.instanceExists(makeNode('worker-1', { providerId: `vsphere://${UUID}` }))).rejects.toMatchObject({ kind: 'NodeDeletionSkipped' });
  });

  it('reports a node whose VM is gone as not existing when SKIP_NODE_DELETION is absent', async () => {
    const vc = new FakeVcenter('vc1');
    const { instances } = setup(ONE_VCENTER, [vc], {});
    await expect(instances.instanceExists(makeNode('worker-1', { providerId: `vsphere://${UUID}` }))).resolves.toBe(false);
  });

  it('searches only the configured datacenters and reports an unknown one once', async () => {
    const vc = new FakeVcenter('vc1', ['dc-1', 'dc-2']);
    vc.addVm({ name: 'worker-1', uuid: UUID, datacenter: 'dc-2' });
    const { instances, logs } = setup('global:\n  user: u\n  password: p\nvcenter:\n  vc1:\n    datacenters: [dc-1, dc-9]\n', [vc]);
    const node = makeNode('worker-1', { providerId: `vsphere://${UUID}` });
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(instances.instanceExists(node)).rejects.toThrow('cannot tell whether a VM with UUID 422e4956-ad22-1139-6d72-59cc8f26bc90 exists: vCenter "vc1": datacenter "dc-9" does not exist');
    }
    expect(logs.filter((line) => line.level === 'error').map((line) => line.message)).toEqual(['datacenter "dc-9" (configured for vCenter "vc1") does not exist there; existing: /dc-1, /dc-2']);
  });

  it('prefers the first configured vCenter when two have the VM', async () => {
    const vc1 = new FakeVcenter('vc1');
    const vc2 = new FakeVcenter('vc2');
    vc2.addVm({ name: 'on-vc2', uuid: UUID, numCpu: 8 });
    vc1.addVm({ name: 'on-vc1', uuid: UUID, numCpu: 1 });
    const { instances } = setup('global:\n  user: u\n  password: p\nvcenter:\n  vc1: {}\n  vc2: {}\n', [vc1, vc2]);
    const metadata = await instances.instanceMetadata(makeNode('n', { providerId: `vsphere://${UUID}` }));
    expect(metadata?.instanceType).toBe('vsphere-vm.cpu-1.mem-4gb.os-ubuntu');
  });

  it('reads the properties of many nodes in one batched call and reuses known locations', async () => {
    const vc = new FakeVcenter('vc1');
    const uuids = Array.from({ length: 20 }, (_, index) => `422e4956-ad22-1139-6d72-${String(index).padStart(12, '0')}`);
    for (const [index, uuid] of uuids.entries()) vc.addVm({ name: `worker-${index}`, uuid });
    const { instances, batches } = setup(ONE_VCENTER, [vc]);
    const nodes = uuids.map((uuid, index) => makeNode(`worker-${index}`, { providerId: `vsphere://${uuid}` }));
    await Promise.all(nodes.map((node) => instances.instanceExists(node)));
    expect(batches).toEqual([20]);
    expect(vc.count('retrieveVms')).toBe(1);
    const searches = vc.count('findVmByUuid');
    await Promise.all(nodes.map((node) => instances.instanceShutdown(node)));
    expect(vc.count('findVmByUuid')).toBe(searches);
    expect(vc.count('retrieveVms')).toBe(2);
  });

  it('falls back to one call per VM when the batched call fails', async () => {
    const vc = new FakeVcenter('vc1');
    vc.addVm({ name: 'a', uuid: UUID });
    vc.addVm({ name: 'b', uuid: SWAPPED });
    const { instances } = setup(ONE_VCENTER, [vc]);
    const original = vc.retrieveVms.bind(vc);
    vc.retrieveVms = async (refs) => {
      if (refs.length > 1) throw new Error('batch too large');
      return original(refs);
    };
    const results = await Promise.all([UUID, SWAPPED].map((uuid) => instances.instanceExists(makeNode(uuid, { providerId: `vsphere://${uuid}` }))));
    expect(results).toEqual([true, true]);
  });

  it('fails metadata with a clear error when the guest reports no hostname', async () => {
    const vc = new FakeVcenter('vc1');
    vc.addVm({ name: 'worker-1', uuid: UUID, guestHostName: '' });
    const { instances } = setup(ONE_VCENTER, [vc]);
    await expect(instances.instanceMetadata(makeNode('worker-1', { providerId: `vsphere://${UUID}` }))).rejects.toThrow(
      `VM worker-1 of node worker-1 [${UUID}] on vCenter "vc1": the VM reports no guest hostname (VMware Tools must run in the guest)`,
    );
  });

  it('fails metadata, so core writes no addresses, when the guest reports a hostname but no NICs', async () => {
    const vc = new FakeVcenter('vc1');
    vc.addVm({ name: 'worker-1', uuid: UUID, guestNet: [] });
    const { instances } = setup(ONE_VCENTER, [vc]);
    const node = makeNode('worker-1', { providerId: `vsphere://${UUID}` });
    await expect(instances.instanceMetadata(node)).rejects.toMatchObject({
      kind: 'NoSuitableAddress',
      message: expect.stringContaining('VM GuestNicInfo is empty'),
    });
    await expect(instances.instanceExists(node)).resolves.toBe(true);
  });

  it('logs a refused login once, however many calls fail, and once more when it recovers', async () => {
    const vc = new FakeVcenter('vc1');
    vc.addVm({ name: 'worker-1', uuid: UUID });
    let refused = true;
    vc.fail = () =>
      refused
        ? new VsphereApiError('cannot log in to vc1:443 as "u": the user name or password is wrong (InvalidLogin)', { code: 'InvalidLogin', operation: 'Login', retryable: false })
        : undefined;
    const { instances, logs } = setup(ONE_VCENTER, [vc]);
    const node = makeNode('worker-1', { providerId: `vsphere://${UUID}` });
    for (let attempt = 0; attempt < 5; attempt++) await expect(instances.instanceExists(node)).rejects.toMatchObject({ kind: 'InvalidCredentials' });
    expect(logs.filter((line) => line.level === 'error').map((line) => line.message)).toEqual([
      'vCenter "vc1" (vc1) refused the login: cannot log in to vc1:443 as "u": the user name or password is wrong (InvalidLogin)',
    ]);
    refused = false;
    await expect(instances.instanceExists(node)).resolves.toBe(true);
    expect(logs.filter((line) => line.level === 'info').map((line) => line.fields?.['problem'])).toEqual(['vcenter "vc1"']);
  });
});

describe('VsphereInstances zones', () => {
  const LABELS = `${ONE_VCENTER}labels:\n  zone: k8s-zone\n  region: k8s-region\n`;

  it('takes the nearest tag of each category on the host and its ancestors', async () => {
    const vc = new FakeVcenter('vc1');
    vc.addVm({ name: 'worker-1', uuid: UUID });
    vc.addTag('k8s-region', 'region-dc', vc.datacenterRef('dc-1'));
    vc.addTag('k8s-zone', 'zone-cluster', vc.clusterRef('dc-1'));
    vc.addTag('k8s-zone', 'zone-dc', vc.datacenterRef('dc-1'));
    vc.addTag('other', 'ignored', vc.hostRef('dc-1'));
    const { instances } = setup(LABELS, [vc]);
    const metadata = await instances.instanceMetadata(makeNode('worker-1', { providerId: `vsphere://${UUID}` }));
    expect(metadata).toMatchObject({ zone: 'zone-cluster', region: 'region-dc' });
  });

  it('falls back to the VM itself when the host chain has no tags, and caches tag names', async () => {
    const vc = new FakeVcenter('vc1');
    const vm = vc.addVm({ name: 'worker-1', uuid: UUID });
    vc.addTag('k8s-zone', 'zone-vm', vm.ref);
    vc.addTag('k8s-region', 'region-vm', vm.ref);
    const { instances } = setup(LABELS, [vc]);
    const node = makeNode('worker-1', { providerId: `vsphere://${UUID}` });
    await expect(instances.instanceMetadata(node)).resolves.toMatchObject({ zone: 'zone-vm', region: 'region-vm' });
    const tagReads = vc.count('getTag');
    await instances.instanceMetadata(node);
    expect(vc.count('getTag')).toBe(tagReads);
  });

  it('fails metadata when a configured category has no tag (the node stays uninitialized)', async () => {
    const vc = new FakeVcenter('vc1');
    vc.addVm({ name: 'worker-1', uuid: UUID });
    vc.addTag('k8s-zone', 'zone-a', vc.hostRef('dc-1'));
    const { instances } = setup(LABELS, [vc]);
    await expect(instances.instanceMetadata(makeNode('worker-1', { providerId: `vsphere://${UUID}` }))).rejects.toThrow(
      `vSphere region category "k8s-region" does not match any tag on the host, resource pool or VM of node worker-1 [${UUID}] or their ancestors on vCenter "vc1"`,
    );
  });

  it.each([
    ['zone only', `${ONE_VCENTER}labels:\n  zone: k8s-zone\n`],
    ['region only', `${ONE_VCENTER}labels:\n  region: k8s-region\n`],
  ])('with %s configured, gives no zone or region, reads no tag and warns once (upstream needs both)', async (_name, configText) => {
    const vc = new FakeVcenter('vc1');
    vc.addVm({ name: 'worker-1', uuid: UUID });
    // A tag of the configured category exists only for the one side; a lookup would fail on the other.
    vc.addTag('k8s-zone', 'zone-a', vc.hostRef('dc-1'));
    const { instances, logs } = setup(configText, [vc]);
    const node = makeNode('worker-1', { providerId: `vsphere://${UUID}` });
    await expect(instances.instanceMetadata(node)).resolves.toMatchObject({ zone: '', region: '' });
    await instances.instanceMetadata(node);
    expect(vc.count('listAttachedTags')).toBe(0);
    expect(logs.filter((line) => line.level === 'warn' && line.message.startsWith('labels: only one of zone and region is set'))).toHaveLength(1);
  });

  it('does not read tags without labels', async () => {
    const vc = new FakeVcenter('vc1');
    vc.addVm({ name: 'worker-1', uuid: UUID });
    const { instances } = setup(ONE_VCENTER, [vc]);
    await instances.instanceMetadata(makeNode('worker-1', { providerId: `vsphere://${UUID}` }));
    expect(vc.count('listAttachedTags')).toBe(0);
  });
});
