import { CoordinationV1Api, type V1Lease } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../logging/logger.js';
import { FakeApiServer, status } from './client-node/test-support/fake-api-server.js';
import { createClientNodeLeaseClient } from './client-node/client-node-lease-client.js';
import { RequestExecutor } from './client-node/request-executor.js';
import { KubeApiError } from './kube-api-error.js';
import { LeaderElector, type LeaseClient, type StoppedLeadingReason } from './leader-election.js';

/** One Lease kept in wire form (times as strings, like client-node returns them). */
class LeaseStore {
  lease: V1Lease | undefined;
  resourceVersion = 0;
  failing = false;
  calls: string[] = [];

  client(): LeaseClient {
    const check = (verb: string): void => {
      this.calls.push(verb);
      if (this.failing) throw new KubeApiError('etcdserver: request timed out', 500, 'InternalError');
    };
    const stored = (lease: V1Lease): V1Lease => {
      this.resourceVersion += 1;
      this.lease = JSON.parse(JSON.stringify({ ...lease, metadata: { ...lease.metadata, resourceVersion: String(this.resourceVersion) } })) as V1Lease;
      return structuredClone(this.lease);
    };
    return {
      get: async () => {
        check('get');
        return this.lease ? structuredClone(this.lease) : undefined;
      },
      create: async (lease) => {
        check('create');
        if (this.lease) throw new KubeApiError('leases "ccm" already exists', 409, 'AlreadyExists');
        return stored(lease);
      },
      update: async (lease) => {
        check('update');
        if (!this.lease) throw new KubeApiError('leases "ccm" not found', 404, 'NotFound');
        if (lease.metadata?.resourceVersion !== this.lease.metadata?.resourceVersion) {
          throw new KubeApiError('Operation cannot be fulfilled on leases.coordination.k8s.io "ccm": the object has been modified', 409, 'Conflict');
        }
        return stored(lease);
      },
    };
  }
}

interface Campaign {
  elector: LeaderElector;
  controller: AbortController;
  done: Promise<void>;
  started: AbortSignal[];
  stopped: StoppedLeadingReason[];
}

const campaign = (store: LeaseStore, identity: string, metrics?: Registry): Campaign => {
  const started: AbortSignal[] = [];
  const stopped: StoppedLeadingReason[] = [];
  const elector = new LeaderElector({
    leaseClient: store.client(),
    namespace: 'kube-system',
    name: 'ccm',
    identity,
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2_000,
    logger: silentLogger,
    ...(metrics ? { metrics } : {}),
    random: () => 0,
    onStartedLeading: (signal) => void started.push(signal),
    onStoppedLeading: (reason) => void stopped.push(reason),
  });
  const controller = new AbortController();
  return { elector, controller, done: elector.run(controller.signal), started, stopped };
};

describe('LeaderElector', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-05-01T00:00:00.000Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('creates an absent lease and leads; default identity is <hostname>_<uuid>', async () => {
    const store = new LeaseStore();
    const registry = new Registry();
    const a = campaign(store, 'a', registry);
    await vi.advanceTimersByTimeAsync(0);
    expect(a.elector.isLeader()).toBe(true);
    expect(a.started).toHaveLength(1);
    expect(a.started[0]?.aborted).toBe(false);
    expect(store.lease?.spec).toEqual({
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      acquireTime: '2026-05-01T00:00:00.000000Z',
      renewTime: '2026-05-01T00:00:00.000000Z',
      leaseTransitions: 0,
    });
    const gauge = (await registry.getMetricsAsJSON()).find((metric) => metric.name === 'leader_election_master_status');
    expect((gauge as { values: Array<{ value: number; labels: Record<string, string> }> }).values).toEqual([{ value: 1, labels: { name: 'ccm' } }]);
    a.controller.abort();
    await a.done;

    const defaultIdentity = new LeaderElector({
      leaseClient: store.client(),
      namespace: 'kube-system',
      name: 'ccm',
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      logger: silentLogger,
      onStartedLeading: () => {},
      onStoppedLeading: () => {},
    });
    expect(defaultIdentity.identity).toMatch(/^.+_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('renews every retryPeriod, keeping acquireTime and transitions', async () => {
    const store = new LeaseStore();
    const a = campaign(store, 'a');
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(store.lease?.spec?.renewTime).toBe('2026-05-01T00:00:02.000000Z');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(store.lease?.spec?.renewTime).toBe('2026-05-01T00:00:04.000000Z');
    expect(store.lease?.spec?.acquireTime).toBe('2026-05-01T00:00:00.000000Z');
    expect(store.lease?.spec?.leaseTransitions).toBe(0);
    a.controller.abort();
    await a.done;
    expect(a.stopped).toEqual(['cancelled']);
    expect(a.started[0]?.aborted).toBe(true);
  });

  it('a second candidate waits while the lease is valid and takes over once it expired', async () => {
    const store = new LeaseStore();
    const a = campaign(store, 'a');
    await vi.advanceTimersByTimeAsync(0);
    const b = campaign(store, 'b');
    await vi.advanceTimersByTimeAsync(6_000);
    expect(b.elector.isLeader()).toBe(false);
    store.failing = true;
    // a renewed last at t=6 s; its next renewal starts at t=8 s and has until t=18 s.
    await vi.advanceTimersByTimeAsync(11_500);
    expect(a.elector.isLeader()).toBe(true);
    expect(a.elector.check()).toBeUndefined();
    // Its cloud calls have been fenced since t=16 s (last renewal + renewDeadline), before the lease's 15 s from t=6 s run out.
    expect(a.elector.leadershipValidUntil()).toBe(Date.parse('2026-05-01T00:00:16.000Z'));
    await vi.advanceTimersByTimeAsync(500);
    expect(a.elector.isLeader()).toBe(false);
    expect(a.elector.leadershipValidUntil()).toBe(0);
    expect(a.stopped).toEqual(['lost']);
    expect(a.started[0]?.aborted).toBe(true);
    store.failing = false;
    // The lease (15 s from t=6 s) expires at t=21 s; b tries every 2 s.
    await vi.advanceTimersByTimeAsync(2_500);
    expect(b.elector.isLeader()).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(b.elector.isLeader()).toBe(true);
    expect(store.lease?.spec?.holderIdentity).toBe('b');
    expect(store.lease?.spec?.leaseTransitions).toBe(1);
    expect(store.lease?.spec?.acquireTime).toBe(store.lease?.spec?.renewTime);
    await a.done;
    b.controller.abort();
    await b.done;
  });

  const foreignLease = (renewTime: string, resourceVersion: number): V1Lease => ({
    metadata: { name: 'ccm', namespace: 'kube-system', resourceVersion: String(resourceVersion) },
    spec: { holderIdentity: 'old', leaseDurationSeconds: 15, renewTime: renewTime as never, leaseTransitions: 4 },
  });

  it('judges expiry with the local clock: a holder whose clock lags (renewTime in the past) keeps a lease it renews', async () => {
    const store = new LeaseStore();
    store.resourceVersion = 41;
    store.lease = foreignLease('2026-04-30T23:59:00.000000Z', 41);
    const b = campaign(store, 'b');
    // The holder renews every 2 s, its renewTime always a minute behind our clock.
    for (let second = 2; second <= 40; second += 2) {
      await vi.advanceTimersByTimeAsync(2_000);
      store.resourceVersion += 1;
      store.lease = foreignLease(new Date(Date.now() - 60_000).toISOString().replace('Z', '000Z'), store.resourceVersion);
      expect(b.elector.isLeader()).toBe(false);
    }
    // The holder stops renewing at t=40 s: b takes over leaseDuration after it last saw a change.
    await vi.advanceTimersByTimeAsync(14_000);
    expect(b.elector.isLeader()).toBe(false);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(b.elector.isLeader()).toBe(true);
    expect(store.lease?.spec?.leaseTransitions).toBe(5);
    b.controller.abort();
    await b.done;
  });

  it('judges expiry with the local clock: a dead holder whose clock ran ahead (renewTime in the future) is replaced after leaseDuration', async () => {
    const store = new LeaseStore();
    store.resourceVersion = 41;
    store.lease = foreignLease('2026-05-01T01:00:00.000000Z', 41);
    const b = campaign(store, 'b');
    await vi.advanceTimersByTimeAsync(14_000);
    expect(b.elector.isLeader()).toBe(false);
    // First seen at t=0; valid until t=15 s; b retries every 2 s.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(b.elector.isLeader()).toBe(true);
    expect(store.lease?.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 5 });
    b.controller.abort();
    await b.done;
  });

  it('a newcomer waits a full leaseDuration even for a lease whose renewTime is long past (it cannot trust the clocks)', async () => {
    const store = new LeaseStore();
    store.resourceVersion = 41;
    store.lease = foreignLease('2026-04-30T23:59:40.000000Z', 41);
    const b = campaign(store, 'b');
    await vi.advanceTimersByTimeAsync(0);
    expect(b.elector.isLeader()).toBe(false);
    await vi.advanceTimersByTimeAsync(16_000);
    expect(b.elector.isLeader()).toBe(true);
    expect(store.lease?.spec?.leaseTransitions).toBe(5);
    b.controller.abort();
    await b.done;
  });

  it('only one of two racing candidates wins (409 on the stale resourceVersion)', async () => {
    const store = new LeaseStore();
    store.lease = { metadata: { name: 'ccm', namespace: 'kube-system', resourceVersion: '1' }, spec: { holderIdentity: '', leaseDurationSeconds: 1 } };
    store.resourceVersion = 1;
    const a = campaign(store, 'a');
    const b = campaign(store, 'b');
    await vi.advanceTimersByTimeAsync(0);
    expect([a.elector.isLeader(), b.elector.isLeader()].filter(Boolean)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect([a.elector.isLeader(), b.elector.isLeader()].filter(Boolean)).toHaveLength(1);
    a.controller.abort();
    b.controller.abort();
    await Promise.all([a.done, b.done]);
  });

  it('release() hands over at once: empty holder, leaseDurationSeconds 1', async () => {
    const store = new LeaseStore();
    const a = campaign(store, 'a');
    await vi.advanceTimersByTimeAsync(0);
    const b = campaign(store, 'b');
    await vi.advanceTimersByTimeAsync(1_000);
    a.controller.abort();
    await a.done;
    await a.elector.release();
    expect(store.lease?.spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 0 });
    expect(a.elector.isLeader()).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(b.elector.isLeader()).toBe(true);
    expect(store.lease?.spec?.leaseTransitions).toBe(1);
    const callsBefore = store.calls.length;
    await a.elector.release();
    expect(store.calls.length).toBe(callsBefore);
    b.controller.abort();
    await b.done;
  });

  it('leadershipValidUntil() is the last successful renewal (its send time) plus renewDeadline, 0 when not leading', async () => {
    const store = new LeaseStore();
    const a = campaign(store, 'a');
    expect(a.elector.leadershipValidUntil()).toBe(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(a.elector.leadershipValidUntil()).toBe(Date.parse('2026-05-01T00:00:10.000Z'));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(a.elector.leadershipValidUntil()).toBe(Date.parse('2026-05-01T00:00:12.000Z'));
    // Before the lease duration: another replica may lead no earlier than 15 s after it saw the renewal.
    expect(a.elector.leadershipValidUntil()).toBeLessThan(Date.parse(String(store.lease?.spec?.renewTime)) + 15_000);
    a.controller.abort();
    await a.done;
    expect(a.elector.leadershipValidUntil()).toBe(0);
  });

  it('a stalled leader (its timers late past the renew deadline) is past leadershipValidUntil until a renewal succeeds; one that lost the lease meanwhile loses leadership', async () => {
    const store = new LeaseStore();
    const a = campaign(store, 'a');
    await vi.advanceTimersByTimeAsync(0);
    // The process is starved: the clock moves 11 s while no timer fires (the renewal due at t=2 s has not run).
    vi.setSystemTime(Date.now() + 11_000);
    expect(a.elector.isLeader()).toBe(true);
    expect(a.elector.leadershipValidUntil()).toBeLessThanOrEqual(Date.now());
    // It wakes up: the renewal succeeds (nobody took the lease), and the deadline moves on.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(a.elector.isLeader()).toBe(true);
    expect(a.elector.leadershipValidUntil()).toBe(Date.parse('2026-05-01T00:00:23.000Z'));
    // Starved again, longer than the lease: another replica takes it over meanwhile.
    vi.setSystemTime(Date.now() + 20_000);
    expect(a.elector.leadershipValidUntil()).toBeLessThanOrEqual(Date.now());
    const lease = store.lease!;
    store.resourceVersion += 1;
    store.lease = { ...lease, metadata: { ...lease.metadata, resourceVersion: String(store.resourceVersion) }, spec: { ...lease.spec, holderIdentity: 'b', leaseTransitions: 1 } };
    // Its next renewal (2 s on) finds b holding a valid lease; renewDeadline later, leadership is lost.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(a.elector.isLeader()).toBe(true);
    expect(a.elector.leadershipValidUntil()).toBeLessThanOrEqual(Date.now());
    await vi.advanceTimersByTimeAsync(10_500);
    expect(a.elector.isLeader()).toBe(false);
    expect(a.elector.leadershipValidUntil()).toBe(0);
    expect(a.stopped).toEqual(['lost']);
    expect(store.lease?.spec?.holderIdentity).toBe('b');
    await a.done;
  });

  it('check() fails when the leader has not renewed for leaseDuration + 20 s', async () => {
    const store = new LeaseStore();
    const a = campaign(store, 'a');
    expect(a.elector.check()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.elector.check()).toBeUndefined();
    vi.setSystemTime(Date.now() + 35_001);
    expect(a.elector.check()?.message).toBe('failed election to renew leadership on lease ccm');
    a.controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    await a.done;
    expect(a.elector.check()).toBeUndefined();
  });

  it('rejects inconsistent timings like client-go', () => {
    const base = { leaseClient: new LeaseStore().client(), namespace: 'n', name: 'l', logger: silentLogger, onStartedLeading: () => {}, onStoppedLeading: () => {} };
    expect(() => new LeaderElector({ ...base, leaseDurationMs: 10_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 })).toThrow(/leaseDuration/);
    expect(() => new LeaderElector({ ...base, leaseDurationMs: 15_000, renewDeadlineMs: 2_000, retryPeriodMs: 2_000 })).toThrow(/renewDeadline/);
  });
});

describe('client-node LeaseClient', () => {
  let server: FakeApiServer;
  beforeEach(async () => {
    server = new FakeApiServer();
    await server.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it('creates with microsecond times, then PUTs with the resourceVersion; a missing lease reads as undefined', async () => {
    let stored: Record<string, unknown> | undefined;
    server.on('GET', /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/kube-system\/leases\/ccm$/, () =>
      stored ? { body: stored } : { status: 404, body: status(404, 'NotFound', 'leases.coordination.k8s.io "ccm" not found') },
    );
    server.on('POST', /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/kube-system\/leases$/, (request) => {
      stored = { ...JSON.parse(request.body), metadata: { name: 'ccm', namespace: 'kube-system', resourceVersion: '1' } };
      return { status: 201, body: stored };
    });
    server.on('PUT', /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/kube-system\/leases\/ccm$/, (request) => {
      const body = JSON.parse(request.body) as { metadata: { resourceVersion: string } };
      const current = (stored?.metadata as { resourceVersion: string } | undefined)?.resourceVersion;
      if (body.metadata.resourceVersion !== current) return { status: 409, body: status(409, 'Conflict', 'the object has been modified') };
      stored = { ...body, metadata: { ...body.metadata, resourceVersion: String(Number(current) + 1) } };
      return { body: stored };
    });
    const client = createClientNodeLeaseClient(server.kubeConfig().makeApiClient(CoordinationV1Api), new RequestExecutor({ userAgent: 'ua', logger: silentLogger }), 'kube-system', 'ccm');
    const stopped: StoppedLeadingReason[] = [];
    const elector = new LeaderElector({
      leaseClient: client,
      namespace: 'kube-system',
      name: 'ccm',
      identity: 'me',
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      logger: silentLogger,
      onStartedLeading: () => {},
      onStoppedLeading: (reason) => void stopped.push(reason),
    });
    const controller = new AbortController();
    const running = elector.run(controller.signal);
    while (!elector.isLeader()) await new Promise((resolve) => setTimeout(resolve, 5));
    const created = JSON.parse(server.requestsTo('POST', /leases$/)[0]?.body ?? '{}') as { spec: Record<string, unknown> };
    expect(created.spec.holderIdentity).toBe('me');
    expect(created.spec.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    controller.abort();
    await running;
    expect(stopped).toEqual(['cancelled']);
    await elector.release();
    const puts = server.requestsTo('PUT', /leases\/ccm$/);
    const put = JSON.parse(puts[puts.length - 1]?.body ?? '{}') as { metadata: { resourceVersion: string }; spec: Record<string, unknown> };
    expect(put.metadata.resourceVersion).toBe(String(puts.length));
    expect(put.spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
    expect(await client.get()).toMatchObject({ spec: { holderIdentity: '' } });
  });
});
