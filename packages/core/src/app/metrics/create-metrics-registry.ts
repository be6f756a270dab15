import { Registry, collectDefaultMetrics } from 'prom-client';

/** The registry `/metrics` serves, with the default process and Node.js runtime metrics. */
export function createMetricsRegistry(options: { defaultMetrics?: boolean } = {}): Registry {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });
  return registry;
}
