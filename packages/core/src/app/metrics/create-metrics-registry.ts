import { collectDefaultMetrics } from 'prom-client';
import { MetricsRegistry } from './prometheus-metrics-sink.js';

/** The registry `/metrics` serves, with the default process and Node.js runtime metrics. */
export function createMetricsRegistry(options: { defaultMetrics?: boolean } = {}): MetricsRegistry {
  const registry = new MetricsRegistry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });
  return registry;
}
