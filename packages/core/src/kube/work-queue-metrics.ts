/**
 * The upstream `workqueue_*` metrics (k8s.io/component-base workqueue provider), label `name`.
 * A registry may serve many queues: each metric is registered once per registry and shared.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** ExponentialBuckets(10e-9, 10, 12): 1e-8 s .. 1e3 s, as upstream. */
const LATENCY_BUCKETS = Array.from({ length: 12 }, (_, index) => Number((1e-8 * 10 ** index).toPrecision(1)));

/** What a queue reports about its in-flight work when the registry is scraped. */
export interface InFlightWork {
  readonly name: string;
  /** Start times (ms) of the items being processed right now. */
  processingStartTimes(): Iterable<number>;
}

/** Per-queue view of the shared metrics. */
export interface WorkQueueMetrics {
  add(): void;
  /** An item left the queue after `queuedMs` milliseconds. */
  get(queuedMs: number): void;
  /** Processing of an item finished after `workedMs` milliseconds. */
  done(workedMs: number): void;
  retry(): void;
  /** Stops reporting in-flight work for this queue. */
  release(): void;
}

interface SharedMetrics {
  adds: Counter<'name'>;
  depth: Gauge<'name'>;
  queueDuration: Histogram<'name'>;
  workDuration: Histogram<'name'>;
  retries: Counter<'name'>;
  inFlight: Set<InFlightWork>;
}

const sharedByRegistry = new WeakMap<Registry, SharedMetrics>();

function existing<M>(registry: Registry, name: string, type: abstract new (...args: never[]) => M): M | undefined {
  const metric = registry.getSingleMetric(name);
  return metric instanceof type ? metric : undefined;
}

function sharedMetrics(registry: Registry, now: () => number): SharedMetrics {
  const known = sharedByRegistry.get(registry);
  if (known) return known;
  const inFlight = new Set<InFlightWork>();
  const registers = [registry];
  const adds =
    existing(registry, 'workqueue_adds_total', Counter) ??
    new Counter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue', labelNames: ['name'], registers });
  const depth =
    existing(registry, 'workqueue_depth', Gauge) ??
    new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames: ['name'], registers });
  const queueDuration =
    existing(registry, 'workqueue_queue_duration_seconds', Histogram) ??
    new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested.',
      labelNames: ['name'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
  const workDuration =
    existing(registry, 'workqueue_work_duration_seconds', Histogram) ??
    new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes.',
      labelNames: ['name'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
  const retries =
    existing(registry, 'workqueue_retries_total', Counter) ??
    new Counter({ name: 'workqueue_retries_total', help: 'Total number of retries handled by workqueue', labelNames: ['name'], registers });

  const inFlightSeconds = (aggregate: (values: number[]) => number) => (): Map<string, number> => {
    const current = now();
    const byName = new Map<string, number[]>();
    for (const queue of inFlight) {
      const values = byName.get(queue.name) ?? [];
      for (const startedAt of queue.processingStartTimes()) values.push((current - startedAt) / 1000);
      byName.set(queue.name, values);
    }
    return new Map([...byName].map(([name, values]) => [name, aggregate(values)]));
  };
  const unfinished = inFlightSeconds((values) => values.reduce((sum, value) => sum + value, 0));
  const longest = inFlightSeconds((values) => values.reduce((max, value) => Math.max(max, value), 0));
  if (!existing(registry, 'workqueue_unfinished_work_seconds', Gauge)) {
    new Gauge({
      name: 'workqueue_unfinished_work_seconds',
      help:
        "How many seconds of work has done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
      labelNames: ['name'],
      registers,
      collect() {
        for (const [name, value] of unfinished()) this.set({ name }, value);
      },
    });
  }
  if (!existing(registry, 'workqueue_longest_running_processor_seconds', Gauge)) {
    new Gauge({
      name: 'workqueue_longest_running_processor_seconds',
      help: 'How many seconds has the longest running processor for workqueue been running.',
      labelNames: ['name'],
      registers,
      collect() {
        for (const [name, value] of longest()) this.set({ name }, value);
      },
    });
  }
  const shared = { adds, depth, queueDuration, workDuration, retries, inFlight };
  sharedByRegistry.set(registry, shared);
  return shared;
}

/** Metrics for one queue, or no-ops when `registry` is undefined. */
export function workQueueMetrics(registry: Registry | undefined, work: InFlightWork, now: () => number = Date.now): WorkQueueMetrics {
  if (registry === undefined) return { add() {}, get() {}, done() {}, retry() {}, release() {} };
  const shared = sharedMetrics(registry, now);
  const labels = { name: work.name };
  shared.inFlight.add(work);
  shared.adds.inc(labels, 0);
  shared.depth.inc(labels, 0);
  shared.retries.inc(labels, 0);
  return {
    add() {
      shared.adds.inc(labels);
      shared.depth.inc(labels);
    },
    get(queuedMs) {
      shared.depth.dec(labels);
      shared.queueDuration.observe(labels, queuedMs / 1000);
    },
    done(workedMs) {
      shared.workDuration.observe(labels, workedMs / 1000);
    },
    retry() {
      shared.retries.inc(labels);
    },
    release() {
      shared.inFlight.delete(work);
    },
  };
}
