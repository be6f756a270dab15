/**
 * The route controller's metric (upstream `controllers/route/metrics.go`, v1.36+). Registered
 * once per registry.
 */
import { Counter, type Registry } from 'prom-client';

export interface RouteControllerMetrics {
  /** Incremented at every reconcile with the cloud. */
  routeSyncCount: Counter;
}

const registered = new WeakMap<Registry, RouteControllerMetrics>();

export function registerRouteControllerMetrics(registry: Registry): RouteControllerMetrics {
  const known = registered.get(registry);
  if (known !== undefined) return known;
  const name = 'route_controller_route_sync_total';
  const existing = registry.getSingleMetric(name);
  const metrics: RouteControllerMetrics = {
    routeSyncCount:
      existing instanceof Counter
        ? existing
        : new Counter({ name, help: 'A metric counting the amount of times routes have been synced with the cloud provider.', registers: [registry] }),
  };
  registered.set(registry, metrics);
  return metrics;
}
