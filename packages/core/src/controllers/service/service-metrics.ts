/**
 * The service controller's metrics (upstream `controllers/service/metrics.go`, subsystem
 * `service_controller`, ALPHA, no labels). Registered once per registry: a second controller on the
 * same registry shares the same instruments.
 */
import { Counter, exponentialBuckets, Histogram, type Registry } from 'prom-client';

export interface ServiceControllerMetrics {
  /** Counts UpdateLoadBalancer calls (node syncs), not Ensure calls. */
  loadBalancerSyncCount: Counter;
  nodeSyncErrorCount: Counter;
  /** Seconds per syncNodes run. */
  nodeSyncLatency: Histogram;
  /** Seconds per UpdateLoadBalancer call. */
  updateLoadBalancerHostLatency: Histogram;
}

/** 1, 2, 4 … 16384 seconds. */
export const SERVICE_CONTROLLER_LATENCY_BUCKETS = exponentialBuckets(1, 2, 15);

const registered = new WeakMap<Registry, ServiceControllerMetrics>();

function counter(registry: Registry, name: string, help: string): Counter {
  const existing = registry.getSingleMetric(name);
  if (existing instanceof Counter) return existing;
  return new Counter({ name, help, registers: [registry] });
}

function histogram(registry: Registry, name: string, help: string): Histogram {
  const existing = registry.getSingleMetric(name);
  if (existing instanceof Histogram) return existing;
  return new Histogram({ name, help, buckets: SERVICE_CONTROLLER_LATENCY_BUCKETS, registers: [registry] });
}

export function registerServiceControllerMetrics(registry: Registry): ServiceControllerMetrics {
  const known = registered.get(registry);
  if (known !== undefined) return known;
  const metrics: ServiceControllerMetrics = {
    loadBalancerSyncCount: counter(
      registry,
      'service_controller_loadbalancer_sync_total',
      'A metric counting the amount of times any load balancer has been configured, as an effect of service/node changes on the cluster',
    ),
    nodeSyncErrorCount: counter(
      registry,
      'service_controller_nodesync_error_total',
      'A metric counting the amount of times any load balancer has been configured and errored, as an effect of node changes on the cluster',
    ),
    nodeSyncLatency: histogram(
      registry,
      'service_controller_nodesync_latency_seconds',
      'A metric measuring the latency for nodesync which updates loadbalancer hosts on cluster node updates.',
    ),
    updateLoadBalancerHostLatency: histogram(
      registry,
      'service_controller_update_loadbalancer_host_latency_seconds',
      'A metric measuring the latency for updating each load balancer hosts.',
    ),
  };
  registered.set(registry, metrics);
  return metrics;
}
