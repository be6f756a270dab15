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

  it('reads the datacenter list once for a storm of new nodes on a cold cache, and their VMs in one batch', async () => {
    const vc = new FakeVcenter('vc1');
    const names = Array.from({ length: 30 }, (_, index) => vc.addVm({ name: `worker-${index}`, uuid: `uuid-${index}`, ip: `10.0.1.${index + 1}` }).name);
    const { instances, batches } = setup(ONE_VCENTER, [vc]);
    const found = await Promise.all(names.map((name) => instances.instanceExists(makeNode(name, { uninitialized: true }))));
    expect(found.every(Boolean)).toBe(true);
    expect(vc.count('listDatacenters')).toBe(1);
    expect(vc.count('findVmsByDnsName')).toBe(30);
    expect(batches).toEqual([30]);
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
