/**
 * Prometheus metrics of a `CloudApiBudget`. Registered once per registry: budgets of several
 * providers (or a provider re-created in tests) share them, told apart by the `provider` label.
 * Request durations and error codes are the cloud API observer's (`createCloudApiObserver`).
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { getOrCreateMetric } from '../app/metrics/get-or-create-metric.js';

export const RATE_LIMITER_WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export interface CloudApiBudgetMetrics {
  requests: Counter<'provider' | 'operation'>;
  throttled: Counter<'provider' | 'operation'>;
  waitSeconds: Histogram<'provider'>;
  currentRate: Gauge<'provider'>;
}

export function cloudApiBudgetMetrics(registry: Registry, _providerName: string): CloudApiBudgetMetrics {
  return {
    requests: getOrCreateMetric(
      registry,
      'cloudprovider_api_requests_total',
      () =>
        new Counter({
          name: 'cloudprovider_api_requests_total',
          help: 'Cloud API requests sent through the API budget (every attempt), by provider and operation.',
          labelNames: ['provider', 'operation'] as const,
          registers: [registry],
        }),
    ),
    throttled: getOrCreateMetric(
      registry,
      'cloudprovider_api_throttled_total',
      () =>
        new Counter({
          name: 'cloudprovider_api_throttled_total',
          help: 'Cloud API requests the cloud throttled, by provider and operation.',
          labelNames: ['provider', 'operation'] as const,
          registers: [registry],
        }),
    ),
    waitSeconds: getOrCreateMetric(
      registry,
      'cloudprovider_api_rate_limiter_wait_seconds',
      () =>
        new Histogram({
          name: 'cloudprovider_api_rate_limiter_wait_seconds',
          help: 'Time a cloud API request waited for the client-side rate limiter, by provider.',
          labelNames: ['provider'] as const,
          buckets: RATE_LIMITER_WAIT_BUCKETS,
          registers: [registry],
        }),
    ),
    currentRate: getOrCreateMetric(
      registry,
      'cloudprovider_api_current_rate',
      () =>
        new Gauge({
          name: 'cloudprovider_api_current_rate',
          help: 'Current client-side cloud API rate limit (requests per second) after adaptive backoff, by provider.',
          labelNames: ['provider'] as const,
          registers: [registry],
        }),
    ),
  };
}
