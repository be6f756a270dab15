import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MetricsRegistry } from '../app/metrics/prometheus-metrics-sink.js';
import { CloudApiBudget } from './cloud-api-budget.js';
import { CloudApiError, type CloudApiErrorKind } from './cloud-api-error.js';
import { createCloudApiObserver, type CloudApiObserver } from './cloud-api-observer.js';
import { coalesceBy } from './coalesce-port.js';
import { Coalescer } from './coalescer.js';
import { composeCloudPort, type CloudPortPipeline } from './compose-cloud-port.js';
import type { PortAround } from './wrap-port.js';

interface Instance {
  id: string;
}

/** A port shaped like the sandbox client: options last. */
interface InstancePort {
  getInstance(id: string, options?: { signal?: AbortSignal }): Promise<Instance | undefined>;
  batchGetInstances(ids: readonly string[], options?: { signal?: AbortSignal }): Promise<Instance[]>;
}

/** A fake cloud whose `getInstance` fails with the queued errors first. */
function fakeCloud(failures: unknown[] = []) {
  const calls: string[] = [];
  const port: InstancePort = {
    async getInstance(id) {
      calls.push(`getInstance ${id}`);
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      return id.startsWith('i-') ? { id } : undefined;
    },
    async batchGetInstances(ids) {
      calls.push(`batchGetInstances ${ids.join(',')}`);
      return ids.filter((id) => id.startsWith('i-')).map((id) => ({ id }));
    },
  };
  return { port, calls };
}

function recordingObserver(): CloudApiObserver & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    async observe(operation, call) {
      try {
        const result = await call();
        seen.push(`${operation} ok`);
        return result;
      } catch (error) {
        seen.push(`${operation} ${error instanceof CloudApiError ? error.kind : 'error'}`);
        throw error;
      }
    },
  };
}

const failure = (kind: CloudApiErrorKind) => new CloudApiError(kind, 'getInstance', kind);

describe('composeCloudPort: which stage handles which failure', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each<{
    name: string;
    failures: CloudApiErrorKind[];
    withBudget: boolean;
    outcome: 'ok' | CloudApiErrorKind;
    cloudAttempts: number;
    budget?: { requests: number; throttled: number };
    retryWaits: number;
    observed: string[];
  }>([
    {
      name: 'throttling is retried by the budget, not by the retry stage',
      failures: ['throttled'],
      withBudget: true,
      outcome: 'ok',
      cloudAttempts: 2,
      budget: { requests: 2, throttled: 1 },
      retryWaits: 0,
      observed: ['getInstance throttled', 'getInstance ok'],
    },
    {
      name: 'a transient failure is retried outside the budget: every attempt takes a token',
      failures: ['transient', 'transient'],
      withBudget: true,
      outcome: 'ok',
      cloudAttempts: 3,
      budget: { requests: 3, throttled: 0 },
      retryWaits: 2,
      observed: ['getInstance transient', 'getInstance transient', 'getInstance ok'],
    },
    {
      name: 'without a budget the retry stage retries throttling too',
      failures: ['throttled'],
      withBudget: false,
      outcome: 'ok',
      cloudAttempts: 2,
      retryWaits: 1,
      observed: ['getInstance throttled', 'getInstance ok'],
    },
    {
      name: 'not-found goes straight back to the caller',
      failures: ['not-found'],
      withBudget: true,
      outcome: 'not-found',
      cloudAttempts: 1,
      budget: { requests: 1, throttled: 0 },
      retryWaits: 0,
      observed: ['getInstance not-found'],
    },
    {
      name: 'retries end after maxAttempts',
      failures: ['transient', 'transient', 'transient', 'transient'],
      withBudget: true,
      outcome: 'transient',
      cloudAttempts: 3,
      budget: { requests: 3, throttled: 0 },
      retryWaits: 2,
      observed: ['getInstance transient', 'getInstance transient', 'getInstance transient'],
    },
  ])('$name', async ({ failures, withBudget, outcome, cloudAttempts, budget, retryWaits, observed }) => {
    const cloud = fakeCloud(failures.map(failure));
    const observer = recordingObserver();
    const apiBudget = withBudget ? new CloudApiBudget({ provider: 'sandbox', qps: 100, burst: 100, random: () => 0, initialBackoffMs: 10 }) : undefined;
    let waits = 0;
    const pipeline: CloudPortPipeline<InstancePort> = {
      observer,
      retry: { maxAttempts: 3, sleep: async () => void waits++ },
      ...(apiBudget === undefined ? {} : { budget: apiBudget }),
    };
    const port = composeCloudPort(cloud.port, pipeline);
    const pending = port.getInstance('i-1').then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    const settled = await pending;
    if (outcome === 'ok') expect(settled).toEqual({ value: { id: 'i-1' } });
    else expect(settled).toMatchObject({ error: { kind: outcome } });
    expect(cloud.calls).toHaveLength(cloudAttempts);
    if (budget !== undefined) expect(apiBudget?.stats()).toMatchObject(budget);
    expect(waits).toBe(retryWaits);
    expect(observer.seen).toEqual(observed);
  });
});

describe('composeCloudPort: stages and order', () => {
  it('runs the provider stages outside the retries, so they see each call once, with its final outcome', async () => {
    const cloud = fakeCloud([failure('transient'), failure('transient')]);
    const outcomes: string[] = [];
    const report: PortAround = async (call, invoke) => {
      try {
        const result = await invoke();
        outcomes.push(`${call.operation} ok`);
        return result;
      } catch (error) {
        outcomes.push(`${call.operation} failed`);
        throw error;
      }
    };
    const port = composeCloudPort(cloud.port, { around: [report], retry: { maxAttempts: 5, sleep: async () => {} } });
    await expect(port.getInstance('i-1')).resolves.toEqual({ id: 'i-1' });
    expect(cloud.calls).toHaveLength(3);
    expect(outcomes).toEqual(['getInstance ok']);
  });

  it('with no stage but the fence (a no-op outside a fenced context) calls the port as it is', async () => {
    const cloud = fakeCloud();
    const port = composeCloudPort(cloud.port, {});
    await expect(port.getInstance('i-1')).resolves.toEqual({ id: 'i-1' });
    expect(cloud.calls).toHaveLength(1);
  });

  it('passes the caller signal to the budget, which gives up waiting for a token when it aborts', async () => {
    const cloud = fakeCloud();
    const budget = new CloudApiBudget({ provider: 'sandbox', qps: 0.001, burst: 1 });
    const port = composeCloudPort(cloud.port, { budget });
    await port.getInstance('i-1');
    const controller = new AbortController();
    const waiting = port.getInstance('i-2', { signal: controller.signal });
    controller.abort(new Error('caller gone'));
    await expect(waiting).rejects.toThrow('caller gone');
    expect(cloud.calls).toEqual(['getInstance i-1']);
    budget.close();
  });
});

describe('composeCloudPort: coalescing', () => {
  it('answers concurrent single lookups with one batch call through the other stages', async () => {
    const cloud = fakeCloud();
    const observer = recordingObserver();
    const port = composeCloudPort(cloud.port, {
      observer,
      coalesce: (inner) => ({
        getInstance: coalesceBy(
          (id: string) => id,
          new Coalescer<string, Instance | undefined>({
            name: 'getInstance',
            batchLoad: async (ids, { signal }) => new Map((await inner.batchGetInstances(ids, { signal })).map((instance) => [instance.id, instance])),
            resolveMissing: () => undefined,
          }),
        ),
      }),
    });
    const answers = await Promise.all([port.getInstance('i-1'), port.getInstance('i-2'), port.getInstance('gone'), port.getInstance('i-1')]);
    expect(answers).toEqual([{ id: 'i-1' }, { id: 'i-2' }, undefined, { id: 'i-1' }]);
    expect(cloud.calls).toEqual(['batchGetInstances i-1,i-2,gone']);
    expect(observer.seen).toEqual(['batchGetInstances ok']);
    // Methods not coalesced still go through the stages.
    await port.batchGetInstances(['i-3']);
    expect(observer.seen).toEqual(['batchGetInstances ok', 'batchGetInstances ok']);
  });

  it('hands the caller signal to the coalescer', async () => {
    const cloud = fakeCloud();
    const port = composeCloudPort(cloud.port, {
      coalesce: (inner) => ({
        getInstance: coalesceBy(
          (id: string) => id,
          new Coalescer<string, Instance | undefined>({
            name: 'getInstance',
            windowMs: 50,
            batchLoad: async (ids, { signal }) => new Map((await inner.batchGetInstances(ids, { signal })).map((instance) => [instance.id, instance])),
            resolveMissing: () => undefined,
          }),
        ),
      }),
    });
    const controller = new AbortController();
    const pending = port.getInstance('i-1', { signal: controller.signal });
    controller.abort(new Error('caller gone'));
    await expect(pending).rejects.toThrow('caller gone');
  });
});

describe('composeCloudPort: metric names', () => {
  interface VcenterLikePort {
    readonly name: string;
    findVmByUuid(uuid: string, signal?: AbortSignal): Promise<string>;
    tagging: { listAttachedTags(ref: string, signal?: AbortSignal): Promise<string[]> };
    close(): Promise<void>;
  }
  const vcenter = (): VcenterLikePort => ({
    name: 'vc1',
    findVmByUuid: async (uuid) => `vm-${uuid}`,
    tagging: { listAttachedTags: async () => ['t1'] },
    close: async () => {},
  });

  it.each([
    {
      name: 'AWS style: <service>.<method>',
      exercise: async (metrics: MetricsRegistry) => {
        const port = composeCloudPort(fakeCloud().port, {
          name: 'ec2',
          observer: createCloudApiObserver(metrics, 'aws'),
          budget: new CloudApiBudget({ provider: 'aws', metrics }),
        });
        await port.getInstance('i-1');
      },
      expected: [
        'cloudprovider_api_request_duration_seconds_count{provider="aws",request="ec2.getInstance"} 1',
        'cloudprovider_api_requests_total{provider="aws",operation="ec2.getInstance"} 1',
      ],
    },
    {
      name: 'sandbox style: the bare method',
      exercise: async (metrics: MetricsRegistry) => {
        const port = composeCloudPort(fakeCloud([failure('not-found')]).port, { observer: createCloudApiObserver(metrics, 'sandbox') });
        await port.getInstance('i-1').catch(() => undefined);
      },
      expected: [
        'cloudprovider_api_request_duration_seconds_count{provider="sandbox",request="getInstance"} 1',
        'cloudprovider_api_request_errors_total{provider="sandbox",request="getInstance",code="not-found"} 1',
      ],
    },
    {
      name: 'vSphere style: names kept from before, nested tagging port, close not observed',
      exercise: async (metrics: MetricsRegistry) => {
        const port = composeCloudPort(vcenter(), {
          observer: createCloudApiObserver(metrics, 'vsphere'),
          nested: ['tagging'],
          passThrough: ['close'],
          operations: { findVmByUuid: 'FindByUuid', 'tagging.listAttachedTags': 'ListAttachedTags' },
        });
        await port.findVmByUuid('u1');
        await port.tagging.listAttachedTags('vm-1');
        await port.close();
        expect(port.name).toBe('vc1');
      },
      expected: [
        'cloudprovider_api_request_duration_seconds_count{provider="vsphere",request="FindByUuid"} 1',
        'cloudprovider_api_request_duration_seconds_count{provider="vsphere",request="ListAttachedTags"} 1',
      ],
    },
  ])('$name', async ({ exercise, expected }) => {
    const metrics = new MetricsRegistry();
    await exercise(metrics);
    const text = await metrics.metrics();
    for (const line of expected) expect(text).toContain(line);
    expect(text).not.toContain('request="close"');
  });
});
