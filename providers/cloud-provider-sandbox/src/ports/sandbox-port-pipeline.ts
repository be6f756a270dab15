/**
 * The sandbox port pipeline (core's `defineProviderPipeline`), applied once to the sandbox port:
 * retries of failed (5xx) and unreachable calls by their kind, the budget the config asks for
 * (rate limit, adaptive backoff, throttling retried after Retry-After; its HTTP status and code
 * decide, `defaultThrottlingClassifier`), the observer. Operations are the port's method names
 * (`listRoutes`), as the metrics have always been labelled.
 */
import { classifyErrorsOf, defaultThrottlingClassifier, defineProviderPipeline } from '@ccm/core/cloud';
import { SANDBOX_PROVIDER_NAME } from '../provider-id.js';
import { SandboxApiError } from './sandbox-api-error.js';

/** Backoff of retries: 200 ms doubling per attempt, at most 5 s (also the cap of a Retry-After), no jitter. */
export const SANDBOX_RETRY_DEFAULTS = { initialDelayMs: 200, maxDelayMs: 5_000, jitter: 'none' } as const;

export const SANDBOX_PIPELINE = defineProviderPipeline({
  provider: SANDBOX_PROVIDER_NAME,
  budget: {},
  throttling: defaultThrottlingClassifier,
  retry: SANDBOX_RETRY_DEFAULTS,
  classify: classifyErrorsOf(SandboxApiError, { topLevelOnly: true }),
  retryLog: false,
});
