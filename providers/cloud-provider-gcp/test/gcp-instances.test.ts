import { isInstanceNotFound } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import { fakeError } from './fakes/fake-compute.js';
import { createHarness, gceConf, makeNode, OTHER_ZONE, PROJECT, ZONE } from './helpers.js';

describe('GCE InstancesV2', () => {
  it('answers metadata with the provider ID, machine type, zone, region and upstream addresses', async () => {
    const { cloud, compute } = await createHarness();
    compute.addInstance(ZONE, 'node-1', {
      machineType: 'n2-standard-4',
      networkInterfaces: [
        { networkIP: '10.0.0.5', ipv6Address: 'fd20::5', accessConfigs: [{ natIP: '34.1.2.3' }], ipv6AccessConfigs: [] },
        { networkIP: '10.1.0.5', accessConfigs: [], ipv6AccessConfigs: [] },
      ],
    });
    const metadata = await cloud.instancesV2().instanceMetadata(makeNode('node-1.c.test-project.internal'));
    expect(metadata).toEqual({
      providerId: `gce://${PROJECT}/${ZONE}/node-1`,
      instanceType: 'n2-standard-4',
      zone: ZONE,
      region: 'us-central1',
      nodeAddresses: [
        { type: 'InternalIP', address: '10.0.0.5' },
        { type: 'ExternalIP', address: '34.1.2.3' },
        { type: 'InternalIP', address: '10.1.0.5' },
        { type: 'InternalIP', address: 'fd20::5' },
      ],
    });
  });

  it('lists IPv6 first with stack-type IPV6, and uses the external IPv6 of an EXTERNAL interface', async () => {
    const { cloud, compute } = await createHarness({ config: gceConf('stack-type = IPV6\n') });
    compute.addInstance(ZONE, 'node-6', {
      networkInterfaces: [{ networkIP: '10.0.0.6', ipv6AccessType: 'EXTERNAL', accessConfigs: [], ipv6AccessConfigs: [{ externalIpv6: '2600::6' }] }],
    });
    const metadata = await cloud.instancesV2().instanceMetadata(makeNode('node-6'));
    expect(metadata?.nodeAddresses).toEqual([
      { type: 'InternalIP', address: '2600::6' },
      { type: 'InternalIP', address: '10.0.0.6' },
    ]);
  });

  it('batches concurrent lookups of many new nodes into one instances.list', async () => {
    const { cloud, compute } = await createHarness();
    for (let index = 0; index < 50; index++) compute.addInstance(ZONE, `node-${index}`);
    const results = await Promise.all(Array.from({ length: 50 }, (_, index) => cloud.instancesV2().instanceMetadata(makeNode(`node-${index}`))));
    expect(results.map((result) => result?.providerId)).toEqual(Array.from({ length: 50 }, (_, index) => `gce://${PROJECT}/${ZONE}/node-${index}`));
    expect(compute.calls).toEqual(['listInstances']);
  });

  it('looks nodes up by provider ID in the provider ID zone, and by name across the region with multizone', async () => {
    const { cloud, compute } = await createHarness({ config: gceConf('multizone = true\n') });
    compute.addInstance(OTHER_ZONE, 'node-c');
    compute.addInstance('europe-west1-b', 'node-c');
    expect((await cloud.instancesV2().instanceMetadata(makeNode('node-c')))?.providerId).toBe(`gce://${PROJECT}/${OTHER_ZONE}/node-c`);
    expect(await cloud.instancesV2().instanceExists(makeNode('x', { providerId: `gce://${PROJECT}/europe-west1-b/node-c` }))).toBe(true);
    expect(await cloud.instancesV2().instanceExists(makeNode('x', { providerId: `gce://${PROJECT}/${ZONE}/node-c` }))).toBe(false);
  });

  it('keeps a stopped instance existing and reports it shut down; a missing one does not exist', async () => {
    const { cloud, compute } = await createHarness();
    compute.addInstance(ZONE, 'node-t', { status: 'TERMINATED' });
    compute.addInstance(ZONE, 'node-r');
    expect(await cloud.instancesV2().instanceExists(makeNode('node-t'))).toBe(true);
    expect(await cloud.instancesV2().instanceShutdown(makeNode('node-t'))).toBe(true);
    expect(await cloud.instancesV2().instanceShutdown(makeNode('node-r'))).toBe(false);
    expect(await cloud.instancesV2().instanceExists(makeNode('gone'))).toBe(false);
    await expect(cloud.instancesV2().instanceMetadata(makeNode('gone'))).rejects.toSatisfy(isInstanceNotFound);
  });

  it('retries a transient failure through the pipeline and surfaces a permanent one', async () => {
    const { cloud, compute } = await createHarness();
    compute.addInstance(ZONE, 'node-1');
    compute.failNext('listInstances', fakeError('Unavailable', 'listInstances'));
    expect(await cloud.instancesV2().instanceExists(makeNode('node-1'))).toBe(true);
    expect(compute.callsOf('listInstances')).toBe(2);
    compute.failNext('listInstances', fakeError('Unauthorized', 'listInstances'));
    await expect(cloud.instancesV2().instanceExists(makeNode('node-2'))).rejects.toThrow(/Unauthorized/);
  });

  it('rejects a malformed provider ID', async () => {
    const { cloud } = await createHarness();
    await expect(cloud.instancesV2().instanceExists(makeNode('n', { providerId: 'aws:///us-east-1a/i-1' }))).rejects.toThrow(/invalid GCE provider ID/);
  });
});
