/**
 * TestHandleNodeUpdate at the controller level: node events start an early reconcile (at most
 * one per 10 s), unrelated updates do not; the period still applies.
 */
import type { V1Node } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRouteHarness, ROUTE_TEST_CLUSTER } from './test-support/route-harness.js';

const node = (name: string, cidr: string, address: string): V1Node => ({
  metadata: { name, uid: `uid-${name}` },
  spec: { podCIDRs: [cidr] },
  status: { addresses: [{ type: 'InternalIP', address }] },
});

describe('RouteController.run (TestHandleNodeUpdate)', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('reconciles on start, on relevant node events and every period', async () => {
    const { kube, cloud, controller } = createRouteHarness({ nodes: [node('node-1', '10.120.0.0/24', '10.0.0.1')], reconciliationPeriodMs: 60_000 });
    const abort = new AbortController();
    const running = controller.run(abort.signal);
    const reconciles = () => cloud.calls.filter((call) => call === 'list-routes').length;

    await vi.advanceTimersByTimeAsync(1_000);
    expect(reconciles()).toBe(1);
    expect(cloud.snapshot(ROUTE_TEST_CLUSTER).map((route) => route.destinationCidr)).toEqual(['10.120.0.0/24']);

    // Internal IP change: reconcile 10 s after the previous start.
    const current = kube.getNode('node-1')!;
    await kube.nodes.patchStatus('node-1', { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.2' }] } }, 'merge');
    expect(current.status?.addresses?.[0]?.address).toBe('10.0.0.1');
    await vi.advanceTimersByTimeAsync(8_000);
    expect(reconciles()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reconciles()).toBe(2);

    // An unrelated change (labels) does not trigger anything before the period.
    await vi.advanceTimersByTimeAsync(10_000);
    await kube.nodes.patch('node-1', { metadata: { labels: { team: 'x' } } }, 'merge');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(reconciles()).toBe(2);

    // Pod CIDR change and node add trigger; the informer resync (identical object) triggers too.
    kube.addNode(node('node-2', '10.120.1.0/24', '10.0.0.3'));
    await vi.advanceTimersByTimeAsync(1);
    expect(reconciles()).toBe(3);
    expect(cloud.snapshot(ROUTE_TEST_CLUSTER).map((route) => route.destinationCidr).sort()).toEqual(['10.120.0.0/24', '10.120.1.0/24']);
    kube.nodeInformer.resync();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reconciles()).toBe(4);

    // Node delete triggers; its route is removed.
    kube.forceRemoveNode('node-2');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reconciles()).toBe(5);
    expect(cloud.snapshot(ROUTE_TEST_CLUSTER).map((route) => route.destinationCidr)).toEqual(['10.120.0.0/24']);

    // Without events, the period applies (60 s after the last start).
    await vi.advanceTimersByTimeAsync(60_000);
    expect(reconciles()).toBe(6);

    abort.abort();
    await vi.advanceTimersByTimeAsync(0);
    await running;
  });

  it('keeps running after a failed list', async () => {
    const { cloud, controller } = createRouteHarness({ nodes: [node('node-1', '10.120.0.0/24', '10.0.0.1')], reconciliationPeriodMs: 1_000 });
    cloud.listError = new Error('throttled');
    const abort = new AbortController();
    const running = controller.run(abort.signal);
    await vi.advanceTimersByTimeAsync(2_500);
    expect(cloud.calls.filter((call) => call === 'list-routes')).toHaveLength(3);
    cloud.listError = undefined;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(cloud.snapshot(ROUTE_TEST_CLUSTER)).toHaveLength(1);
    abort.abort();
    await running;
  });
});
