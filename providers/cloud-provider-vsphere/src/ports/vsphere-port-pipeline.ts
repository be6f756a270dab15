/**
 * The vSphere port pipeline (core's `defineProviderPipeline`), composed over each vCenter's port
 * with the provider's problem reporting outermost; retries of transient failures take the
 * vCenter's `roundTripCount` attempts (govmomi's soap round-trip count); operation names are
 * `VCENTER_PORT_NAMING`'s (vcenter-port.ts). 100 requests per second with a burst of 200 for all vCenters
 * together (a node storm costs one VM inventory read per datacenter, but lone lookups and VMs the
 * inventory lacks cost one search each), halved on
 * every 429/503; upstream has no client-side limit and no config key for one.
 */
import { classifyErrorsOf, defineProviderPipeline } from '@ccm/core/cloud';
import { VSPHERE_PROVIDER_NAME } from '../provider-id.js';
import { VSPHERE_UPSTREAM_METRICS } from '../metrics/upstream-metrics.js';
import { VsphereApiError } from './vsphere-api-error.js';

export const VSPHERE_API_BUDGET_DEFAULTS = { qps: 100, burst: 200, maxAttempts: 5, initialBackoffMs: 500, maxBackoffMs: 20_000 } as const;
/** Backoff of retries of transient failures: 500 ms, then 1 s (then doubling, at most 20 s), no jitter. */
export const VSPHERE_RETRY_DEFAULTS = { initialDelayMs: 500, maxDelayMs: 20_000, jitter: 'none' } as const;

export const VSPHERE_PIPELINE = defineProviderPipeline({
  provider: VSPHERE_PROVIDER_NAME,
  budget: VSPHERE_API_BUDGET_DEFAULTS,
  throttling: (error) => (error instanceof VsphereApiError && error.cloudKind === 'throttled' ? {} : undefined),
  retry: VSPHERE_RETRY_DEFAULTS,
  classify: classifyErrorsOf(VsphereApiError, { topLevelOnly: true }),
  retryLog: false,
  upstreamMetrics: VSPHERE_UPSTREAM_METRICS,
});
