/** The cloud node controller as the runtime runs it: construction, informer wiring, workers, loops. */
import { describe, expect, it } from 'vitest';
import type { NodeAddress } from '../../provider/node-address.js';
import { CloudNodeController, createCloudNodeController } from './cloud-node-controller.js';
import { FakeCloud } from '../test-support/fake-cloud.js';
import { createNodeTestContext, makeNode, UNINITIALIZED_TAINT } from './test-support/node-test-context.js';

const cloudAddresses: NodeAddress[] = [{ type: 'InternalIP', address: '10.0.0.1' }];

async function waitUntil(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('createCloudNodeController', () => {
  it('skips with the upstream reason when the cloud supports neither Instances nor InstancesV2', () => {
    const harness = createNodeTestContext({ cloud: new FakeCloud({ enableInstances: false, enableInstancesV2: false }) });
    expect(createCloudNodeController(harness.context)).toEqual({ skipped: 'cloud provider does not support instances' });
  });

  it('builds the controller with either interface and registers its metrics once per registry', async () => {
    for (const cloud of [new FakeCloud({ enableInstancesV2: true, enableInstances: false }), new FakeCloud()]) {
      const harness = createNodeTestContext({ cloud });
      const first = createCloudNodeController(harness.context);
      const second = createCloudNodeController(harness.context);
      expect(first).toBeInstanceOf(CloudNodeController);
      expect(second).toBeInstanceOf(CloudNodeController);
      expect((first as CloudNodeController).name).toBe('cloud-node-controller');
      const text = await harness.metrics.metrics();
      expect(text).toContain('# TYPE node_controller_cloud_provider_taint_removal_delay_seconds histogram');
      expect(text).toContain('# TYPE node_controller_initial_node_sync_delay_seconds histogram');
      for (const bucket of ['1', '4', '16', '64', '256', '1024']) {
        expect(text).toContain(`node_controller_initial_node_sync_delay_seconds_bucket{le="${bucket}"} 0`);
      }
    }
  });
});

describe('CloudNodeController.run', () => {
  it('initializes nodes present at start and nodes added later, then stops on abort', async () => {
    const cloud = new FakeCloud({ enableInstancesV2: true, providerIds: { early: 'fake://1', late: 'fake://2' }, addresses: cloudAddresses });
    const harness = createNodeTestContext({ cloud, config: { concurrentNodeSyncs: 2 } });
    harness.kube.addNode(makeNode('early', { taints: [UNINITIALIZED_TAINT] }));
    const controller = createCloudNodeController(harness.context) as CloudNodeController;
    const abort = new AbortController();
    const running = controller.run(abort.signal);
    await waitUntil(() => harness.kube.getNode('early')?.spec?.providerID === 'fake://1');
    harness.kube.addNode(makeNode('late', { taints: [UNINITIALIZED_TAINT] }));
    await waitUntil(() => harness.kube.getNode('late')?.spec?.providerID === 'fake://2');
    expect(harness.kube.getNode('late')?.spec?.taints ?? []).toEqual([]);
    expect(harness.kube.getNode('late')?.status?.addresses).toEqual(cloudAddresses);
    expect(harness.kube.eventLog.find({ reason: 'Synced' }).map((event) => event.involvedObject.name).sort()).toEqual(['early', 'late']);
    abort.abort();
    await running;
  });

  it('requeues a failed sync with rate limiting and a log line, then forgets it after success', async () => {
    const cloud = new FakeCloud({ enableInstancesV2: true, providerIds: { node0: 'fake://1' }, metadataError: new Error('throttled') });
    const harness = createNodeTestContext({ cloud });
    harness.kube.addNode(makeNode('node0', { taints: [UNINITIALIZED_TAINT] }));
    const controller = new CloudNodeController(harness.context);
    const abort = new AbortController();
    const running = controller.run(abort.signal);
    const queue = harness.queues[0]!;
    await waitUntil(() => queue.rateLimited.length >= 2);
    expect(harness.logger.messages('error')).toContain("error syncing 'node0': failed to get instance metadata for node node0: throttled, requeuing");
    delete cloud.options.metadataError;
    await waitUntil(() => harness.kube.getNode('node0')?.spec?.providerID === 'fake://1');
    await waitUntil(() => queue.forgotten.includes('node0'));
    abort.abort();
    await running;
  });

  it('nil metadata is skipped without a requeue; the node stays tainted', async () => {
    const cloud = new FakeCloud({ enableInstancesV2: true, overrideInstanceMetadata: () => undefined });
    const harness = createNodeTestContext({ cloud, config: { nodeStatusUpdateFrequencyMs: 60_000 } });
    harness.kube.addNode(makeNode('node0', { taints: [UNINITIALIZED_TAINT] }));
    const controller = new CloudNodeController(harness.context);
    const abort = new AbortController();
    const running = controller.run(abort.signal);
    await waitUntil(() => harness.queues[0]!.forgotten.includes('node0'));
    expect(harness.queues[0]!.rateLimited).toEqual([]);
    expect(harness.kube.getNode('node0')?.spec?.taints).toEqual([UNINITIALIZED_TAINT]);
    expect(harness.logger.messages('info')).toContain('Skip sync node node0 because cloud provided nil metadata');
    abort.abort();
    await running;
  });

  it('runs the address refresh at once and then every --node-status-update-frequency', async () => {
    const cloud = new FakeCloud({ enableInstancesV2: true, addresses: cloudAddresses });
    const harness = createNodeTestContext({ cloud, config: { nodeStatusUpdateFrequencyMs: 20 } });
    harness.kube.addNode(makeNode('node0'));
    const controller = new CloudNodeController(harness.context);
    const abort = new AbortController();
    const running = controller.run(abort.signal);
    await waitUntil(() => harness.kube.getNode('node0')?.status?.addresses !== undefined);
    await waitUntil(() => cloud.callCount('instance-metadata', 'node0') >= 3);
    abort.abort();
    await running;
    const calls = cloud.callCount('instance-metadata', 'node0');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cloud.callCount('instance-metadata', 'node0')).toBe(calls);
  });
});
