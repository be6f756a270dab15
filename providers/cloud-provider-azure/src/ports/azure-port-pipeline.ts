/**
 * The Azure port pipeline (core's `defineProviderPipeline`): operations `<service>.<method>`; the
 * SDK's own retry policies are off (`sdk/azure-sdk-clients.ts`). ARM allows 12,000 reads and 1,200
 * writes per hour per subscription and principal: 10/s with a burst of 50, halved on every 429.
 * Upstream's `cloudProviderRateLimit*`/`cloudProviderBackoff*` keys are reported as not supported.
 */
import { classifyErrorsOf, defineProviderPipeline, throttlingOf } from '@ccm/core/cloud';
import { AZURE_PROVIDER_NAME } from '../provider-id.js';
import { AZURE_UPSTREAM_METRICS } from '../metrics/upstream-metrics.js';
import { AzureApiError } from './azure-api-error.js';

export const AZURE_API_BUDGET_DEFAULTS = { qps: 10, burst: 50, maxAttempts: 8, initialBackoffMs: 500, maxBackoffMs: 30_000 } as const;
/** 5xx, 409 and network errors: 6 attempts, 200 ms doubling, full jitter, at most 20 s. */
export const AZURE_RETRY_DEFAULTS = { maxAttempts: 6, initialDelayMs: 200, maxDelayMs: 20_000, jitter: 'full' } as const;

/** Throttling as the SDK adapter classified it (HTTP 429), with ARM's Retry-After. */
export const azureThrottlingClassifier = throttlingOf(AzureApiError);

export const AZURE_PIPELINE = defineProviderPipeline({
  provider: AZURE_PROVIDER_NAME,
  budget: AZURE_API_BUDGET_DEFAULTS,
  throttling: azureThrottlingClassifier,
  retry: AZURE_RETRY_DEFAULTS,
  // The retry stage backs off on its own; ARM's Retry-After is the budget's (throttling).
  classify: classifyErrorsOf(AzureApiError, { retryAfter: false }),
  retryLog: { message: 'retrying Azure call' },
  // Each provider instance connects with its subscription's (azure-cloud.ts); these are the series without one.
  upstreamMetrics: AZURE_UPSTREAM_METRICS,
});
