/**
 * Metrics of a `Coalescer`, labelled by provider and coalescer name. Safe to create more than
 * once per sink (the metrics are declared once and shared).
 */
import type { MetricsSink } from '../metrics/metrics-sink.js';
import type { CoalescerObserver } from './coalescer.js';

export const COALESCER_BATCH_SIZE_BUCKETS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000];

const LABELS = ['provider', 'coalescer'] as const;

export function createCoalescerMetrics(metrics: MetricsSink, providerName: string, coalescerName: string): CoalescerObserver {
  const labels = { provider: providerName, coalescer: coalescerName };
  const batches = metrics.counter({
    name: 'cloudprovider_coalescer_batches_total',
    help: 'Batch cloud calls sent by a request coalescer.',
    labelNames: LABELS,
  });
  const batchSize = metrics.histogram({
    name: 'cloudprovider_coalescer_batch_size',
    help: 'Distinct keys per batch cloud call of a request coalescer.',
    labelNames: LABELS,
    buckets: COALESCER_BATCH_SIZE_BUCKETS,
  });
  const failures = metrics.counter({
    name: 'cloudprovider_coalescer_batch_failures_total',
    help: 'Batch cloud calls that failed, by whether their keys fell back to single lookups.',
    labelNames: [...LABELS, 'fallback'] as const,
  });
  const singles = metrics.counter({
    name: 'cloudprovider_coalescer_single_lookups_total',
    help: 'Single-key fallback lookups sent after a batch cloud call failed.',
    labelNames: LABELS,
  });
  const deduplicated = metrics.counter({
    name: 'cloudprovider_coalescer_deduplicated_total',
    help: 'Lookups that shared a key already queued or in flight instead of sending it again.',
    labelNames: LABELS,
  });
  return {
    batchSent(size) {
      batches.inc(labels);
      batchSize.observe(labels, size);
    },
    batchFailed(_size, _error, fellBack) {
      failures.inc({ ...labels, fallback: String(fellBack) });
    },
    singleSent() {
      singles.inc(labels);
    },
    deduplicated() {
      deduplicated.inc(labels);
    },
  };
}
