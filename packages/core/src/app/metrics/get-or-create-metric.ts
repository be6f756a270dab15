import type { Metric, Registry } from 'prom-client';

/**
 * prom-client throws when a name is registered twice in one registry; components that may be
 * built more than once against the same registry (a provider re-created in tests, two observers
 * for one provider) share the first instance instead.
 */
export function getOrCreateMetric<M extends Metric>(registry: Registry, name: string, create: () => M): M {
  const existing = registry.getSingleMetric(name);
  return existing ? (existing as M) : create();
}
