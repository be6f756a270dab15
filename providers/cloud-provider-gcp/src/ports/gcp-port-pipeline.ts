/**
 * The GCE port pipeline (core's `defineProviderPipeline`): operations `compute.<method>`.
 * Compute's default read quota is 20 requests per second per project (write quotas are lower):
 * 20/s with a burst of 50 leaves room for other tools, halved on every throttling answer. Upstream
 * limits only operation polling (5 qps) and has no cloud-config key for a client-side limit.
 */
import { classifyErrorsOf, createThrottlingClassifier, defineProviderPipeline, throttlingOf } from '@ccm/core/cloud';
import { GCE_PROVIDER_NAME } from '../provider-id.js';
import { GCE_UPSTREAM_METRICS } from '../metrics/upstream-metrics.js';
import { GceApiError } from './gce-api-error.js';
import { GCE_THROTTLING_REASONS } from './sdk/sdk-errors.js';

export const GCE_API_BUDGET_DEFAULTS = { qps: 20, burst: 50, maxAttempts: 8, initialBackoffMs: 500, maxBackoffMs: 20_000 } as const;
/** Transient failures other than throttling: 8 attempts, 100 ms doubling with full jitter, at most 20 s. */
export const GCE_RETRY_DEFAULTS = { maxAttempts: 8, initialDelayMs: 100, maxDelayMs: 20_000, jitter: 'full' } as const;

/** A `GceApiError` of kind `Throttled`, or a Google rate-limit reason or HTTP 429 anywhere in the cause chain. */
export const gceThrottlingClassifier = throttlingOf(GceApiError, createThrottlingClassifier({ extraCodes: GCE_THROTTLING_REASONS, statuses: [429] }));

export const GCE_PIPELINE = defineProviderPipeline({
  provider: GCE_PROVIDER_NAME,
  budget: GCE_API_BUDGET_DEFAULTS,
  throttling: gceThrottlingClassifier,
  retry: GCE_RETRY_DEFAULTS,
  classify: classifyErrorsOf(GceApiError),
  upstreamMetrics: GCE_UPSTREAM_METRICS,
});
