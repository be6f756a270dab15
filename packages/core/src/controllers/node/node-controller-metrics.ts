/** Upstream `controllers/node/metrics.go` (subsystem `node_controller`, ALPHA, no labels). */
import { Histogram, type Registry } from 'prom-client';

/** Exponential buckets: start 1 s, factor 4, count 6 (1 s .. 1024 s). */
export const NODE_CONTROLLER_DELAY_BUCKETS: readonly number[] = [1, 4, 16, 64, 256, 1024];

export const TAINT_REMOVAL_DELAY_METRIC = 'node_controller_cloud_provider_taint_removal_delay_seconds';
export const INITIAL_NODE_SYNC_DELAY_METRIC = 'node_controller_initial_node_sync_delay_seconds';

export interface NodeControllerMetrics {
  /** Seconds from node creation to the update that removed the uninitialized taint. */
  taintRemovalDelay: Histogram<string>;
  /** Seconds from node creation to the end of its initial synchronization. */
  initialNodeSyncDelay: Histogram<string>;
}

function histogram(registry: Registry, name: string, help: string): Histogram<string> {
  const existing = registry.getSingleMetric(name);
  if (existing instanceof Histogram) return existing as Histogram<string>;
  return new Histogram({ name, help, buckets: [...NODE_CONTROLLER_DELAY_BUCKETS], registers: [registry] });
}

/** Registers the histograms on `registry` once; later calls return the registered ones. */
export function nodeControllerMetrics(registry: Registry): NodeControllerMetrics {
  return {
    taintRemovalDelay: histogram(
      registry,
      TAINT_REMOVAL_DELAY_METRIC,
      '[ALPHA] Number of seconds after node creation when NodeController removed the cloud-provider taint of a single node.',
    ),
    initialNodeSyncDelay: histogram(
      registry,
      INITIAL_NODE_SYNC_DELAY_METRIC,
      '[ALPHA] Number of seconds after node creation when NodeController finished the initial synchronization of a single node.',
    ),
  };
}
