/**
 * Metrics of a `CloudApiBudget`, declared once per sink: budgets of several providers (or a
 * provider re-created in tests) share them, told apart by the `provider` label. Request
 * durations and error codes are the cloud API observer's (`createCloudApiObserver`).
 */
import type { CounterMetric, GaugeMetric, HistogramMetric, MetricsSink } from '../metrics/metrics-sink.js';

export const RATE_LIMITER_WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export interface CloudApiBudgetMetrics {
  requests: CounterMetric<'provider' | 'operation'>;
  throttled: CounterMetric<'provider' | 'operation'>;
  waitSeconds: HistogramMetric<'provider'>;
  currentRate: GaugeMetric<'provider'>;
}

export function cloudApiBudgetMetrics(metrics: MetricsSink): CloudApiBudgetMetrics {
  return {
    requests: metrics.counter({
      name: 'cloudprovider_api_requests_total',
      help: 'Cloud API requests sent through the API budget (every attempt), by provider and operation.',
      labelNames: ['provider', 'operation'] as const,
    }),
    throttled: metrics.counter({
      name: 'cloudprovider_api_throttled_total',
      help: 'Cloud API requests the cloud throttled, by provider and operation.',
      labelNames: ['provider', 'operation'] as const,
    }),
    waitSeconds: metrics.histogram({
      name: 'cloudprovider_api_rate_limiter_wait_seconds',
      help: 'Time a cloud API request waited for the client-side rate limiter, by provider.',
      labelNames: ['provider'] as const,
      buckets: RATE_LIMITER_WAIT_BUCKETS,
    }),
    currentRate: metrics.gauge({
      name: 'cloudprovider_api_current_rate',
      help: 'Current client-side cloud API rate limit (requests per second) after adaptive backoff, by provider.',
      labelNames: ['provider'] as const,
    }),
  };
}
