/**
 * The service controller as the runtime starts it: createServiceController + run(signal), with
 * informer-driven queues, workers, node syncs and retries.
 */
import { InMemoryKubeAccess } from '@ccm/testing/kube';
import { describe, expect, it, vi } from 'vitest';
import type { WorkQueue, WorkQueueOptions } from '../../kube/work-queue.js';
import { LOAD_BALANCER_CLEANUP_FINALIZER } from './service-helpers.js';
import { createServiceController, ServiceController } from './service-controller.js';
import { createTestControllerContext, waitFor } from './test-support/controller-context.js';
import { TestWorkQueue } from './test-support/test-work-queue.js';
import { makeNode, newService, tweakFinalizers, tweakName, tweakProviderId } from './test-support/builders.js';
import { fakeCloudProvider } from '../test-support/fake-cloud.js';
import { FakeLoadBalancer } from '../test-support/fake-load-balancer.js';

/** Lets the start-up node events (synthetic adds) be processed before the test acts. */
async function settle(context: ReturnType<typeof createTestControllerContext>): Promise<void> {
  await waitFor(() => context.queues.get('node')!.length() === 0, 2_000, 'node queue drained');
  await new Promise((resolve) => setTimeout(resolve, 5));
}

function start(kube = new InMemoryKubeAccess(), workers = 1) {
  const loadBalancer = new FakeLoadBalancer();
  const context = createTestControllerContext(fakeCloudProvider({ loadBalancer }), kube, { concurrentServiceSyncs: workers, clusterName: 'my-cluster' });
  const controller = createServiceController(context);
  if (!(controller instanceof ServiceController)) throw new Error('expected a controller');
  const abort = new AbortController();
  const running = controller.run(abort.signal);
  return { kube, loadBalancer, context, controller, abort, running };
}

describe('createServiceController', () => {
  it('is skipped when the provider has no load balancer support', () => {
    const context = createTestControllerContext(fakeCloudProvider({}), new InMemoryKubeAccess());
    expect(createServiceController(context)).toEqual({ skipped: 'the cloud provider does not support external load balancers' });
  });

  it('creates the "service" and "node" queues with 5 s..300 s backoff', () => {
    const context = createTestControllerContext(fakeCloudProvider({ loadBalancer: new FakeLoadBalancer() }), new InMemoryKubeAccess());
    createServiceController(context);
    expect([...context.queues.keys()].sort()).toEqual(['node', 'service']);
  });

  it('the "service" and "node" queues use only the per-item backoff, without the overall 10 qps bucket (upstream)', () => {
    const context = createTestControllerContext(fakeCloudProvider({ loadBalancer: new FakeLoadBalancer() }), new InMemoryKubeAccess());
    const created: WorkQueueOptions[] = [];
    const createQueue = context.createWorkQueue;
    context.createWorkQueue = <K extends string>(options: WorkQueueOptions): WorkQueue<K> => {
      created.push(options);
      return createQueue<K>(options);
    };
    createServiceController(context);
    expect(created.sort((left, right) => left.name.localeCompare(right.name))).toEqual([
      { name: 'node', baseDelayMs: 5_000, maxDelayMs: 300_000, overallQps: Infinity },
      { name: 'service', baseDelayMs: 5_000, maxDelayMs: 300_000, overallQps: Infinity },
    ]);
  });

  it('two controllers can share one metrics registry', () => {
    const kube = new InMemoryKubeAccess();
    const context = createTestControllerContext(fakeCloudProvider({ loadBalancer: new FakeLoadBalancer() }), kube);
    expect(() => {
      createServiceController(context);
      createServiceController(context);
    }).not.toThrow();
  });
});

describe('ServiceController.run', () => {
  it('creates, re-hosts and deletes a load balancer through the whole lifecycle', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addNode(makeNode(tweakName('node1')));
    const { loadBalancer, abort, running, context } = start(kube);
    await settle(context);

    kube.addService(newService('web', 'LoadBalancer'));
    await waitFor(() => (kube.getService('default', 'web')?.status?.loadBalancer?.ingress ?? []).length > 0, 2_000, 'ingress');
    expect(kube.getService('default', 'web')?.metadata?.finalizers).toEqual([LOAD_BALANCER_CLEANUP_FINALIZER]);
    expect(loadBalancer.ensureCalls.map((call) => call.hosts.map((node) => node.metadata?.name))).toEqual([['node1']]);

    // A node joins: only UpdateLoadBalancer, no new Ensure.
    kube.addNode(makeNode(tweakName('node2')));
    await waitFor(() => loadBalancer.updateCalls.length === 1, 2_000, 'update call');
    expect(loadBalancer.updateCalls[0]?.hosts.map((node) => node.metadata?.name)).toEqual(['node1', 'node2']);
    expect(loadBalancer.ensureCalls).toHaveLength(1);

    // Labels on a node do not trigger anything; the exclusion label does.
    const node2 = kube.getNode('node2')!;
    await kube.nodes.update({ ...node2, metadata: { ...node2.metadata, labels: { team: 'a' } } });
    const excluded = kube.getNode('node2')!;
    await kube.nodes.update({ ...excluded, metadata: { ...excluded.metadata, labels: { 'node.kubernetes.io/exclude-from-external-load-balancers': 'true' } } });
    await waitFor(() => loadBalancer.updateCalls.length === 2, 2_000, 'second update call');
    expect(loadBalancer.updateCalls[1]?.hosts.map((node) => node.metadata?.name)).toEqual(['node1']);

    // Deleting the service: the LB goes, then the finalizer, then the object.
    kube.deleteService('default', 'web');
    await waitFor(() => kube.getService('default', 'web') === undefined, 2_000, 'service gone');
    expect(loadBalancer.balancers.size).toBe(0);
    expect(kube.eventLog.find({ reason: 'DeletedLoadBalancer' })).toHaveLength(1);

    abort.abort();
    await running;
  });

  it('opts out entirely for a loadBalancerClass: no cloud call, no finalizer', async () => {
    const kube = new InMemoryKubeAccess();
    const { loadBalancer, abort, running, context } = start(kube);
    kube.addService(newService('classy', 'LoadBalancer', (service) => (service.spec!.loadBalancerClass = 'example.com/lb')));
    const serviceQueue = context.queues.get('service')!;
    await waitFor(() => serviceQueue.length() === 0, 2_000, 'queue drained');
    expect(loadBalancer.calls).toEqual([]);
    expect(kube.getService('default', 'classy')?.metadata?.finalizers ?? []).toEqual([]);
    abort.abort();
    await running;
  });

  it('retries a failed host update through a full Ensure', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addNode(makeNode(tweakName('node1')));
    const { loadBalancer, abort, running, context } = start(kube);
    await settle(context);
    kube.addService(newService('web', 'LoadBalancer'));
    await waitFor(() => loadBalancer.ensureCalls.length === 1, 2_000, 'first ensure');
    await waitFor(() => (kube.getService('default', 'web')?.status?.loadBalancer?.ingress ?? []).length > 0, 2_000, 'status');

    loadBalancer.errors.update = new Error('transient');
    kube.addNode(makeNode(tweakName('node2')));
    await waitFor(() => loadBalancer.ensureCalls.length === 2, 2_000, 'retry ensure');
    expect(loadBalancer.ensureCalls[1]?.hosts.map((node) => node.metadata?.name)).toEqual(['node1', 'node2']);
    expect(kube.eventLog.find({ reason: 'UpdateLoadBalancerFailed' })).toHaveLength(1);
    abort.abort();
    await running;
  });

  it('a providerID change triggers a host update (name -> providerID set changed)', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addNode(makeNode(tweakName('node1'), tweakProviderId('')));
    const { loadBalancer, abort, running, context } = start(kube);
    await settle(context);
    kube.addService(newService('web', 'LoadBalancer'));
    await waitFor(() => loadBalancer.ensureCalls.length === 1, 2_000, 'ensure');
    const node = kube.getNode('node1')!;
    await kube.nodes.update({ ...node, spec: { ...node.spec, providerID: 'fake://node1' } });
    await waitFor(() => loadBalancer.updateCalls.length === 1, 2_000, 'update');
    expect(loadBalancer.updateCalls[0]?.hosts[0]?.spec?.providerID).toBe('fake://node1');
    abort.abort();
    await running;
  });

  it('cleans up services that still need it on the 30 s resync and on start', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addService(newService('old', 'ClusterIP', tweakFinalizers(LOAD_BALANCER_CLEANUP_FINALIZER)));
    const { loadBalancer, abort, running, controller, context } = start(kube);
    await waitFor(() => (kube.getService('default', 'old')?.metadata?.finalizers ?? []).length === 0, 2_000, 'finalizer removed');
    // Delete path: GetLoadBalancer says nothing exists, so no delete call; the finalizer goes anyway.
    expect(loadBalancer.calls).toEqual(['get']);
    // The resync re-enqueues only services needing cleanup.
    kube.addService(newService('plain', 'LoadBalancer'));
    const serviceQueue = context.queues.get('service')!;
    await waitFor(() => serviceQueue.length() === 0 && loadBalancer.ensureCalls.length === 1, 2_000, 'plain ensured');
    controller.resyncServicesNeedingCleanup();
    expect(serviceQueue.length()).toBe(0);
    abort.abort();
    await running;
  });

  it('stops promptly when aborted, even with a queue full of work', async () => {
    const kube = new InMemoryKubeAccess();
    const { abort, running, loadBalancer } = start(kube, 2);
    loadBalancer.onEnsure = () => new Promise((resolve) => setTimeout(resolve, 20));
    for (let index = 0; index < 10; index++) kube.addService(newService(`s${index}`, 'LoadBalancer'));
    abort.abort();
    await running;
    expect(loadBalancer.ensureCalls.length).toBeLessThanOrEqual(2);
  });
});

describe('ServiceController worker resilience', () => {
  it('a worker loop that fails unexpectedly restarts after 1 s instead of spinning or dying', async () => {
    vi.useFakeTimers();
    try {
      const kube = new InMemoryKubeAccess();
      const loadBalancer = new FakeLoadBalancer();
      const context = createTestControllerContext(fakeCloudProvider({ loadBalancer }), kube);
      const createQueue = context.createWorkQueue;
      let failures = 0;
      context.createWorkQueue = <K extends string>(options: WorkQueueOptions): WorkQueue<K> => {
        const queue = createQueue<K>(options) as TestWorkQueue<K>;
        if (options.name !== 'service') return queue;
        const get = queue.get.bind(queue);
        queue.get = () => (failures++ === 0 ? Promise.reject(new Error('queue exploded')) : get());
        return queue;
      };
      const controller = createServiceController(context) as ServiceController;
      const abort = new AbortController();
      const running = controller.run(abort.signal);
      kube.addService(newService('web', 'LoadBalancer'));
      await vi.advanceTimersByTimeAsync(999);
      expect(loadBalancer.ensureCalls).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(loadBalancer.ensureCalls).toHaveLength(1);
      expect(failures).toBeGreaterThanOrEqual(2);
      abort.abort();
      await vi.advanceTimersByTimeAsync(0);
      await running;
    } finally {
      vi.useRealTimers();
    }
  });
});
