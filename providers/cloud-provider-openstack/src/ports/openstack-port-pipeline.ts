/**
 * The OpenStack port pipeline (core's `defineProviderPipeline`): operations `<service>.<method>`
 * (`compute.listServers`, `loadbalancer.getLoadBalancer`). Rate limits are the operator's choice
 * (often none, or a few tens per second per project): 10/s with a burst of 50, halved on every
 * 413/429. Upstream has no client-side limit (gophercloud retries only a 401 re-authentication).
 */
import { classifyErrorsOf, defineProviderPipeline, throttlingOf, type ProviderPipeline } from '@ccm/core/cloud';
import { OPENSTACK_PROVIDER_NAME } from '../provider-id.js';
import { OPENSTACK_UPSTREAM_METRICS } from '../metrics/upstream-metrics.js';
import { OpenStackApiError } from './openstack-api-error.js';

export const OPENSTACK_API_BUDGET_DEFAULTS = { qps: 10, burst: 50, maxAttempts: 8, initialBackoffMs: 500, maxBackoffMs: 30_000 } as const;
/** 5xx, transport failures and timeouts: 6 attempts, 200 ms doubling, full jitter, at most 20 s. */
export const OPENSTACK_RETRY_DEFAULTS = { maxAttempts: 6, initialDelayMs: 200, maxDelayMs: 20_000, jitter: 'full' } as const;
/** Throttling as the SDK adapter classified it (HTTP 413/429). */
export const openStackThrottlingClassifier = throttlingOf(OpenStackApiError);

export const OPENSTACK_PIPELINE = defineProviderPipeline({
  provider: OPENSTACK_PROVIDER_NAME,
  budget: OPENSTACK_API_BUDGET_DEFAULTS,
  throttling: openStackThrottlingClassifier,
  retry: OPENSTACK_RETRY_DEFAULTS,
  classify: classifyErrorsOf(OpenStackApiError),
  retryLog: { message: 'retrying OpenStack call' },
  upstreamMetrics: OPENSTACK_UPSTREAM_METRICS,
});
export const composeOpenStackPort: ProviderPipeline['compose'] = OPENSTACK_PIPELINE.compose;
