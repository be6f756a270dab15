/**
 * Ports of upstream's node-sync tests (TestUpdateNodesInExternalLoadBalancer,
 * TestNodeChangesForStableNodeSetEnabled, TestNodeChangesInExternalLoadBalancer, TestNodesNotEqual,
 * TestSlowNodeSync) plus the parallelism, retry, event and metric rules.
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ImplementedElsewhereError } from '../../provider/cloud-errors.js';
import { registerServiceControllerMetrics, SERVICE_CONTROLLER_LATENCY_BUCKETS } from './service-metrics.js';
import {
  makeNode,
  newService,
  tweakDeleted,
  tweakExternalTrafficPolicy,
  tweakLabel,
  tweakName,
  tweakProviderId,
  tweakReady,
  tweakTaint,
} from './test-support/builders.js';
import type { UpdateBalancerCall } from '../test-support/fake-load-balancer.js';
import { createServiceHarness, metricValue } from './test-support/service-harness.js';

const names = (nodes: readonly V1Node[]) => nodes.map((node) => node.metadata?.name ?? '').sort();
const summary = (calls: readonly UpdateBalancerCall[]) => calls.map((call) => `${call.service.metadata?.name}:${names(call.hosts).join(',')}`).sort();
const expected = (entries: Array<[string, V1Node[]]>) => entries.map(([service, hosts]) => `${service}:${names(hosts).join(',')}`).sort();

const node1 = makeNode(tweakName('node1'));
const node2 = makeNode(tweakName('node2'));
const node3 = makeNode(tweakName('node3'));
const node4 = makeNode(tweakName('node4'));

/** A harness whose node lister returns `nodes.current` (or throws `nodes.error`). */
function listerHarness(workers = 1) {
  const nodes: { current: V1Node[]; error?: Error } = { current: [] };
  const harness = createServiceHarness({
    workers,
    listNodes: () => {
      if (nodes.error !== undefined) throw nodes.error;
      return nodes.current;
    },
  });
  return { ...harness, nodes };
}

describe('TestUpdateNodesInExternalLoadBalancer', () => {
  const all = [node1, node2, node3];
  it.each<[string, Array<V1Service | undefined>, string[], number]>([
    ['No services present: no calls should be made.', [], [], 1],
    ['Services do not have external load balancers: no calls should be made.', [newService('s0', 'ClusterIP'), newService('s1', 'NodePort')], [], 2],
    ['Services does have an external load balancer: one call should be made.', [newService('s0', 'LoadBalancer')], ['s0'], 3],
    ['Three services have an external load balancer: three calls.', ['s0', 's1', 's2'].map((name) => newService(name, 'LoadBalancer')), ['s0', 's1', 's2'], 4],
    [
      "Two services have an external load balancer and two don't: two calls.",
      [newService('s0', 'NodePort'), newService('s1', 'LoadBalancer'), newService('s3', 'LoadBalancer'), newService('s4', 'ClusterIP')],
      ['s1', 's3'],
      5,
    ],
    ['One service has an external load balancer and one is nil: one call.', [newService('s0', 'LoadBalancer'), undefined], ['s0'], 6],
    ['Four services have external load balancer with only 2 workers', ['s0', 's1', 's3', 's4'].map((name) => newService(name, 'LoadBalancer')), ['s0', 's1', 's3', 's4'], 2],
  ])('%s', async (_name, services, updated, workers) => {
    const harness = listerHarness();
    harness.nodes.current = all;
    const retry = await harness.controller.updateLoadBalancerHosts(services, workers);
    expect([...retry]).toEqual([]);
    expect(summary(harness.cloud.updateCalls)).toEqual(expected(updated.map((name) => [name, all])));
  });
});

describe('TestNodeChangesForStableNodeSetEnabled', () => {
  const ready = (name: string) => makeNode(tweakName(name), tweakReady(true));
  const n1 = ready('node1');
  const n2 = ready('node2');
  const n3 = ready('node3');
  const n2NotReady = makeNode(tweakName('node2'), tweakReady(false));
  const n2Tainted = makeNode(tweakName('node2'), tweakTaint('ToBeDeletedByClusterAutoscaler'), tweakReady(true));
  const n2Spurious = makeNode(tweakName('node2'), tweakTaint('Other'), tweakReady(true));
  const n2Excluded = makeNode(tweakName('node2'), tweakLabel('node.kubernetes.io/exclude-from-external-load-balancers', ''), tweakReady(true));
  const n2Deleted = makeNode(tweakName('node2'), tweakDeleted());
  const services = [
    newService('s0', 'LoadBalancer', tweakExternalTrafficPolicy('Local')),
    newService('s1', 'LoadBalancer', tweakExternalTrafficPolicy('Local')),
    newService('external-balancer', 'LoadBalancer'),
  ];
  const everyService = (hosts: V1Node[]) => expected(services.map((service) => [service.metadata!.name!, hosts]));

  it.each<[string, V1Node[], Array<{ nodes: V1Node[]; syncCallError?: boolean }>, string[]]>([
    ['No node changes', [n1, n2, n3], [{ nodes: [n1, n2, n3] }], []],
    ['1 new node gets added', [n1, n2], [{ nodes: [n1, n2, n3] }], everyService([n1, n2, n3])],
    ['1 new node gets added - with retries', [n1, n2], [{ nodes: [n1, n2, n3], syncCallError: true }, { nodes: [n1, n2, n3] }], everyService([n1, n2, n3])],
    ['1 node goes NotReady', [n1, n2, n3], [{ nodes: [n1, n2NotReady, n3] }], []],
    ['1 node gets Tainted', [n1, n2, n3], [{ nodes: [n1, n2Tainted, n3] }], everyService([n1, n3])],
    ['1 node goes Ready', [n1, n2NotReady, n3], [{ nodes: [n1, n2, n3] }], []],
    ['1 node get excluded', [n1, n2, n3], [{ nodes: [n1, n2Excluded, n3] }], everyService([n1, n3])],
    ['1 old node gets deleted', [n1, n2, n3], [{ nodes: [n1, n2] }], everyService([n1, n2])],
    ['1 node marked for deletion', [n1, n2, n3], [{ nodes: [n1, n2Deleted, n3] }], everyService([n1, n3])],
    ['1 spurious node update', [n1, n2, n3], [{ nodes: [n1, n2Spurious, n3] }], []],
  ])('%s', async (_name, initialState, stateChanges, updateCalls) => {
    const harness = listerHarness();
    for (const service of services) harness.controller.lastSyncedNodes.set(`default/${service.metadata!.name}`, initialState);
    for (const state of stateChanges) {
      harness.nodes.current = state.nodes;
      if (state.syncCallError) harness.cloud.errors.update = new Error('error please');
      await harness.controller.updateLoadBalancerHosts(services, 3);
      harness.cloud.errors.update = undefined;
    }
    expect(summary(harness.cloud.updateCalls)).toEqual(updateCalls);
  });
});

describe('TestNodeChangesInExternalLoadBalancer', () => {
  const services = ['s0', 's1', 's3', 's4'].map((name) => newService(name, 'LoadBalancer'));
  const keys = services.map((service) => `default/${service.metadata!.name}`).sort();
  // One controller for all steps, as upstream: each step compares against the previous one.
  const harness = listerHarness();
  it.each<[string, V1Node[], number, Error | undefined, string[], string[]]>([
    ['only 1 node', [node1], 3, undefined, expected(services.map((service) => [service.metadata!.name!, [node1]])), []],
    ['2 nodes', [node1, node2], 1, undefined, expected(services.map((service) => [service.metadata!.name!, [node1, node2]])), []],
    ['4 nodes', [node1, node2, node3, node4], 3, undefined, expected(services.map((service) => [service.metadata!.name!, [node1, node2, node3, node4]])), []],
    ['error occur during sync', [node1, node2, node3, node4], 3, new Error('random error'), [], keys],
    ['error occur during sync with 1 workers', [node1, node2, node3, node4], 1, new Error('random error'), [], keys],
  ])('%s', async (_name, nodes, workers, listerError, updateCalls, retry) => {
    harness.nodes.current = nodes;
    if (listerError === undefined) delete harness.nodes.error;
    else harness.nodes.error = listerError;
    const servicesToRetry = await harness.controller.updateLoadBalancerHosts(services, workers);
    expect([...servicesToRetry].sort()).toEqual(retry);
    expect(summary(harness.cloud.updateCalls)).toEqual(updateCalls);
    harness.cloud.clearCalls();
  });
});

describe('TestNodesNotEqual', () => {
  const services = [newService('s0', 'LoadBalancer'), newService('s1', 'LoadBalancer')];
  const bare = (name: string) => makeNode(tweakName(name), tweakProviderId(''));
  const withId = (name: string, id: string) => makeNode(tweakName(name), tweakProviderId(id));
  it.each<[string, V1Node[], V1Node[], boolean]>([
    ['Nodes with updated providerID', [bare('node1'), bare('node2')], [withId('node1', 'cumulus/1'), withId('node2', 'cumulus/2')], true],
    ['Nodes unchanged', [withId('node1', 'cumulus/1'), bare('node2')], [withId('node1', 'cumulus/1'), bare('node2')], false],
    ['Change node with empty providerID', [withId('node1', 'cumulus/1'), bare('node2')], [withId('node1', 'cumulus/1'), bare('node3')], true],
  ])('%s', async (_name, lastSynced, newNodes, expectUpdate) => {
    const harness = listerHarness();
    harness.nodes.current = newNodes;
    for (const service of services) harness.controller.lastSyncedNodes.set(`default/${service.metadata!.name}`, lastSynced);
    await harness.controller.updateLoadBalancerHosts(services, 5);
    expect(summary(harness.cloud.updateCalls)).toEqual(expectUpdate ? expected(services.map((service) => [service.metadata!.name!, newNodes])) : []);
  });
});

describe('TestSlowNodeSync', () => {
  it('a service sync racing with a slow node sync keeps the newest host set', async () => {
    const harness = createServiceHarness({ nodes: [node1, node2], services: [newService('service1', 'LoadBalancer'), newService('service2', 'LoadBalancer')] });
    const { controller, cloud, kube } = harness;
    for (const service of kube.listServices()) controller.cache.getOrCreate(`default/${service.metadata!.name}`).state = service;
    let raced = false;
    cloud.onUpdate = async (call) => {
      if (raced) return;
      raced = true;
      // While the first update is in flight: a node joins and the other service is synced.
      const other = call.service.metadata!.name === 'service1' ? 'service2' : 'service1';
      kube.addNode(node3);
      await controller.syncService(`default/${other}`);
    };
    await controller.syncNodes(1);

    expect(cloud.updateCalls).toHaveLength(1);
    expect(names(cloud.updateCalls[0]!.hosts)).toEqual(['node1', 'node2']);
    expect(cloud.ensureCalls).toHaveLength(1);
    expect(names(cloud.ensureCalls[0]!.hosts)).toEqual(['node1', 'node2', 'node3']);
    expect(cloud.ensureCalls[0]!.service.metadata?.name).not.toBe(cloud.updateCalls[0]!.service.metadata?.name);
  });
});

describe('node sync behaviour', () => {
  it('updates load balancers in parallel, at most `workers` at a time', async () => {
    const harness = listerHarness();
    harness.nodes.current = [node1];
    let inFlight = 0;
    let maxInFlight = 0;
    harness.cloud.onUpdate = async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
    };
    const services = ['a', 'b', 'c', 'd', 'e'].map((name) => newService(name, 'LoadBalancer'));
    await harness.controller.updateLoadBalancerHosts(services, 2);
    expect(harness.cloud.updateCalls).toHaveLength(5);
    expect(maxInFlight).toBe(2);
  });

  it('a failed update emits UpdateLoadBalancerFailed, counts an error and asks for a retry; the set is stored anyway', async () => {
    const harness = listerHarness();
    harness.nodes.current = [node1, node2];
    harness.cloud.exists = true;
    harness.cloud.errors.update = new Error('cloud says no');
    const service = newService('s0', 'LoadBalancer');
    const retry = await harness.controller.updateLoadBalancerHosts([service], 1);
    expect([...retry]).toEqual(['default/s0']);
    expect(harness.kube.eventLog.find({ reason: 'UpdateLoadBalancerFailed' }).map((event) => [event.type, event.message])).toEqual([
      ['Warning', 'Error updating load balancer with new hosts [node1 node2] [node names limited, total number of nodes: 2], error: cloud says no'],
    ]);
    expect(await metricValue(harness.registry, 'service_controller_nodesync_error_total')).toBe(1);
    expect(await metricValue(harness.registry, 'service_controller_loadbalancer_sync_total')).toBe(1);
    expect(await metricValue(harness.registry, 'service_controller_update_loadbalancer_host_latency_seconds')).toBe(1);
    expect(names(harness.controller.lastSyncedNodes.get('default/s0') ?? [])).toEqual(['node1', 'node2']);
  });

  it('limits node names in the failure event to 20', async () => {
    const harness = listerHarness();
    harness.nodes.current = Array.from({ length: 25 }, (_unused, index) => makeNode(tweakName(`n${String(index).padStart(2, '0')}`)));
    harness.cloud.exists = true;
    harness.cloud.errors.update = new Error('x');
    await harness.controller.updateLoadBalancerHosts([newService('s0', 'LoadBalancer')], 1);
    const message = harness.kube.eventLog.find({ reason: 'UpdateLoadBalancerFailed' })[0]?.message ?? '';
    expect(message).toContain('n19 <5 more>] [node names limited, total number of nodes: 25], error: x');
  });

  it('an update failure for a load balancer that no longer exists is a success', async () => {
    const harness = listerHarness();
    harness.nodes.current = [node1];
    harness.cloud.errors.update = new Error('gone');
    expect([...(await harness.controller.updateLoadBalancerHosts([newService('s0', 'LoadBalancer')], 1))]).toEqual([]);
    expect(harness.kube.eventLog.find({ reason: 'UpdateLoadBalancerFailed' })).toEqual([]);
  });

  it('a GetLoadBalancer error after a failed update keeps the failure', async () => {
    const harness = listerHarness();
    harness.nodes.current = [node1];
    harness.cloud.errors.update = new Error('update failed');
    harness.cloud.errors.get = new Error('get failed');
    expect([...(await harness.controller.updateLoadBalancerHosts([newService('s0', 'LoadBalancer')], 1))]).toEqual(['default/s0']);
  });

  it('ImplementedElsewhere from UpdateLoadBalancer is a silent success', async () => {
    const harness = listerHarness();
    harness.nodes.current = [node1];
    harness.cloud.errors.update = new ImplementedElsewhereError();
    expect([...(await harness.controller.updateLoadBalancerHosts([newService('s0', 'LoadBalancer')], 1))]).toEqual([]);
    expect(harness.kube.eventLog.events).toEqual([]);
  });

  it('emits UpdatedLoadBalancer, or UnAvailableLoadBalancer when no host is left', async () => {
    const harness = listerHarness();
    harness.nodes.current = [node1];
    await harness.controller.updateLoadBalancerHosts([newService('s0', 'LoadBalancer')], 1);
    harness.nodes.current = [makeNode(tweakName('node1'), tweakTaint('ToBeDeletedByClusterAutoscaler'))];
    await harness.controller.updateLoadBalancerHosts([newService('s0', 'LoadBalancer')], 1);
    expect(harness.kube.eventLog.events.map((event) => [event.type, event.reason, event.message])).toEqual([
      ['Normal', 'UpdatedLoadBalancer', 'Updated load balancer with new hosts'],
      ['Warning', 'UnAvailableLoadBalancer', 'There are no available nodes for LoadBalancer'],
    ]);
  });

  it('syncNodes covers every cached service and records its latency', async () => {
    const harness = listerHarness();
    harness.nodes.current = [node1];
    harness.controller.cache.getOrCreate('default/a').state = newService('a', 'LoadBalancer');
    harness.controller.cache.getOrCreate('default/b').state = newService('b', 'ClusterIP');
    harness.controller.cache.getOrCreate('default/pending');
    await harness.controller.syncNodes(1);
    expect(summary(harness.cloud.updateCalls)).toEqual(['a:node1']);
    expect(await metricValue(harness.registry, 'service_controller_nodesync_latency_seconds')).toBe(1);
  });
});

describe('service controller metrics', () => {
  it('are registered once per registry with upstream names and buckets', async () => {
    const registry = new Registry();
    expect(registerServiceControllerMetrics(registry)).toBe(registerServiceControllerMetrics(registry));
    expect(SERVICE_CONTROLLER_LATENCY_BUCKETS).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384]);
    const text = await registry.metrics();
    for (const name of [
      'service_controller_loadbalancer_sync_total',
      'service_controller_nodesync_error_total',
      'service_controller_nodesync_latency_seconds',
      'service_controller_update_loadbalancer_host_latency_seconds',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(text).toContain('service_controller_nodesync_latency_seconds_bucket{le="16384"} 0');
  });
});
