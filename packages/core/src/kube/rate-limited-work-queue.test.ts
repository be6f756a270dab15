import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWorkQueue, RateLimitedWorkQueue, workQueueFactory } from './rate-limited-work-queue.js';

const metricValue = async (registry: Registry, metric: string, name: string): Promise<number | undefined> => {
  const json = await registry.getMetricsAsJSON();
  const found = json.find((entry) => entry.name === metric);
  const values = (found as { values?: Array<{ value: number; labels: Record<string, string>; metricName?: string }> } | undefined)?.values ?? [];
  return values.find((value) => value.labels.name === name && (value.metricName === undefined || value.metricName === metric))?.value;
};

const histogramCount = async (registry: Registry, metric: string, name: string): Promise<number | undefined> => {
  const json = await registry.getMetricsAsJSON();
  const found = json.find((entry) => entry.name === metric) as
    | { values: Array<{ value: number; labels: Record<string, string>; metricName?: string }> }
    | undefined;
  return found?.values.find((value) => value.metricName === `${metric}_count` && value.labels.name === name)?.value;
};

describe('RateLimitedWorkQueue', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('de-duplicates keys while waiting and keeps FIFO order', async () => {
    const queue = new RateLimitedWorkQueue<string>({ name: 'test' });
    queue.add('a');
    queue.add('b');
    queue.add('a');
    expect(queue.length()).toBe(2);
    expect(await queue.get()).toBe('a');
    expect(await queue.get()).toBe('b');
    expect(queue.length()).toBe(0);
  });

  it('never hands a key being processed to a second worker; re-add is deferred until done', async () => {
    const queue = new RateLimitedWorkQueue<string>({ name: 'test' });
    queue.add('a');
    expect(await queue.get()).toBe('a');
    queue.add('a');
    queue.add('a');
    expect(queue.length()).toBe(0);
    let second: string | undefined;
    void queue.get().then((key) => (second = key));
    await Promise.resolve();
    expect(second).toBeUndefined();
    queue.done('a');
    await Promise.resolve();
    expect(second).toBe('a');
    queue.done('a');
    expect(queue.length()).toBe(0);
  });

  it('get waits for an add', async () => {
    const queue = new RateLimitedWorkQueue<string>({ name: 'test' });
    const pending = queue.get();
    queue.add('x');
    expect(await pending).toBe('x');
  });

  it('shutDown wakes waiters, drains queued keys, then returns undefined and ignores adds', async () => {
    const queue = new RateLimitedWorkQueue<string>({ name: 'test' });
    const waiter = queue.get();
    queue.shutDown();
    expect(await waiter).toBeUndefined();

    const draining = new RateLimitedWorkQueue<string>({ name: 'test' });
    draining.add('a');
    draining.add('b');
    draining.shutDown();
    draining.add('c');
    expect(await draining.get()).toBe('a');
    expect(await draining.get()).toBe('b');
    expect(await draining.get()).toBeUndefined();
    expect(draining.shuttingDown()).toBe(true);
  });

  it('addAfter delays the add and keeps the earliest deadline per key', async () => {
    const queue = new RateLimitedWorkQueue<string>({ name: 'test' });
    queue.addAfter('a', 1000);
    queue.addAfter('a', 300);
    queue.addAfter('a', 2000);
    await vi.advanceTimersByTimeAsync(299);
    expect(queue.length()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(queue.length()).toBe(1);
    expect(await queue.get()).toBe('a');
    queue.done('a');
    await vi.advanceTimersByTimeAsync(5000);
    expect(queue.length()).toBe(0);
    queue.addAfter('b', 0);
    expect(queue.length()).toBe(1);
  });

  it('shutDown cancels delayed adds', async () => {
    const queue = new RateLimitedWorkQueue<string>({ name: 'test' });
    queue.addAfter('a', 100);
    queue.shutDown();
    await vi.advanceTimersByTimeAsync(200);
    expect(queue.length()).toBe(0);
  });

  it('addRateLimited backs off per item exponentially from 5 ms, counts requeues, forget resets', async () => {
    const queue = new RateLimitedWorkQueue<string>({ name: 'test' });
    const readyAfter = async (key: string): Promise<number> => {
      queue.addRateLimited(key);
      let elapsed = 0;
      while (queue.length() === 0) {
        await vi.advanceTimersByTimeAsync(1);
        elapsed += 1;
      }
      expect(await queue.get()).toBe(key);
      queue.done(key);
      return elapsed;
    };
    expect(await readyAfter('a')).toBe(5);
    expect(await readyAfter('a')).toBe(10);
    expect(await readyAfter('a')).toBe(20);
    expect(queue.numRequeues('a')).toBe(3);
    expect(queue.numRequeues('b')).toBe(0);
    queue.forget('a');
    expect(queue.numRequeues('a')).toBe(0);
    expect(await readyAfter('a')).toBe(5);
  });

  it('caps the per-item backoff at maxDelay (1000 s by default)', async () => {
    const queue = new RateLimitedWorkQueue<string>({ name: 'test' });
    for (let failure = 0; failure < 40; failure += 1) queue.addRateLimited('a');
    expect(queue.numRequeues('a')).toBe(40);
    await vi.advanceTimersByTimeAsync(5);
    expect(queue.length()).toBe(1);
    await queue.get();
    queue.done('a');
    queue.addRateLimited('a');
    await vi.advanceTimersByTimeAsync(999_999);
    expect(queue.length()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(queue.length()).toBe(1);
  });

  it('combines with the overall token bucket (10 qps, burst 100)', async () => {
    const queue = new RateLimitedWorkQueue<string>({ name: 'test' });
    for (let index = 0; index < 100; index += 1) queue.addRateLimited(`k${index}`);
    queue.addRateLimited('k100');
    queue.addRateLimited('k101');
    await vi.advanceTimersByTimeAsync(5);
    expect(queue.length()).toBe(100);
    await vi.advanceTimersByTimeAsync(95);
    expect(queue.length()).toBe(101);
    await vi.advanceTimersByTimeAsync(100);
    expect(queue.length()).toBe(102);
  });

  it('overallQps: Infinity disables the overall bucket (per-item backoff only, as the service controller)', async () => {
    const queue = createWorkQueue<string>({ name: 'service', baseDelayMs: 5_000, maxDelayMs: 300_000, overallQps: Infinity });
    for (let index = 0; index < 250; index += 1) queue.addRateLimited(`k${index}`);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(queue.length()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(queue.length()).toBe(250);
  });

  it('honours custom backoff options', async () => {
    const queue = createWorkQueue<string>({ name: 'service', baseDelayMs: 5000, maxDelayMs: 300_000 });
    queue.addRateLimited('a');
    await vi.advanceTimersByTimeAsync(4999);
    expect(queue.length()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(queue.length()).toBe(1);
  });

  it('reports workqueue_* metrics labelled by name, sharing one registry between queues', async () => {
    const registry = new Registry();
    const factory = workQueueFactory(registry);
    const nodes = factory<string>({ name: 'Nodes' });
    const service = new RateLimitedWorkQueue<string>({ name: 'service' }, registry);
    nodes.add('n1');
    nodes.add('n2');
    nodes.add('n1');
    service.add('s1');
    expect(await metricValue(registry, 'workqueue_adds_total', 'Nodes')).toBe(2);
    expect(await metricValue(registry, 'workqueue_depth', 'Nodes')).toBe(2);
    expect(await metricValue(registry, 'workqueue_depth', 'service')).toBe(1);

    vi.advanceTimersByTime(250);
    const key = await nodes.get();
    expect(await metricValue(registry, 'workqueue_depth', 'Nodes')).toBe(1);
    expect(await histogramCount(registry, 'workqueue_queue_duration_seconds', 'Nodes')).toBe(1);
    vi.advanceTimersByTime(3000);
    expect(await metricValue(registry, 'workqueue_unfinished_work_seconds', 'Nodes')).toBeCloseTo(3, 5);
    expect(await metricValue(registry, 'workqueue_longest_running_processor_seconds', 'Nodes')).toBeCloseTo(3, 5);
    nodes.done(key!);
    expect(await histogramCount(registry, 'workqueue_work_duration_seconds', 'Nodes')).toBe(1);
    expect(await metricValue(registry, 'workqueue_unfinished_work_seconds', 'Nodes')).toBe(0);

    nodes.addRateLimited('n1');
    nodes.addAfter('n3', 10);
    expect(await metricValue(registry, 'workqueue_retries_total', 'Nodes')).toBe(2);
    expect(await metricValue(registry, 'workqueue_retries_total', 'service')).toBe(0);

    const metricNames = (await registry.getMetricsAsJSON()).map((metric) => metric.name).sort();
    expect(metricNames).toEqual([
      'workqueue_adds_total',
      'workqueue_depth',
      'workqueue_longest_running_processor_seconds',
      'workqueue_queue_duration_seconds',
      'workqueue_retries_total',
      'workqueue_unfinished_work_seconds',
      'workqueue_work_duration_seconds',
    ]);
    nodes.shutDown();
    service.shutDown();
  });
});
