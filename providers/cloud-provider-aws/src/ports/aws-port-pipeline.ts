/**
 * The AWS port pipeline (core's `defineProviderPipeline`), operations `<service>.<method>`. EC2's read buckets refill at 20/s per account and
 * region (burst 100; writes 5/s): 20/s, burst 100, halved on every throttling answer; 8 attempts ride out ~30 s of throttling (upstream: no limit).
 */
import { classifyErrorsOf, createThrottlingClassifier, defineProviderPipeline, type ProviderPipeline } from '@ccm/core/cloud';
import { AWS_UPSTREAM_METRICS } from '../metrics/upstream-metrics.js';
import { AWS_PROVIDER_NAME } from '../provider-id.js';
import { AwsApiError } from './aws-api-error.js';
import { AWS_THROTTLING_CODES } from './sdk/sdk-errors.js';

export const AWS_API_BUDGET_DEFAULTS = { qps: 20, burst: 100, maxAttempts: 8, initialBackoffMs: 500, maxBackoffMs: 20_000 } as const;
/** 5xx and network errors: 8 attempts, from 100 ms doubling with full jitter, at most 20 s. */
export const AWS_RETRY_DEFAULTS = { maxAttempts: 8, initialDelayMs: 100, maxDelayMs: 20_000, jitter: 'full' } as const;
/** An AWS throttling code or HTTP 429 anywhere in the cause chain, with its Retry-After. */
export const awsThrottlingClassifier = createThrottlingClassifier({ codes: AWS_THROTTLING_CODES, statuses: [429] });

export const AWS_PIPELINE = defineProviderPipeline({
  provider: AWS_PROVIDER_NAME,
  budget: AWS_API_BUDGET_DEFAULTS,
  throttling: awsThrottlingClassifier,
  retry: AWS_RETRY_DEFAULTS,
  // DescribeInstanceTopology is answered at once, never retried: an optional label source whose failure means "no labels".
  classify: classifyErrorsOf(AwsApiError, { retryable: (found) => found.retryable && found.operation !== 'ec2.describeInstanceTopology' }),
  retryLog: { verbosity: 2 },
  upstreamMetrics: AWS_UPSTREAM_METRICS,
});
export const createAwsApiBudget: ProviderPipeline['createBudget'] = AWS_PIPELINE.createBudget;
export const createAwsCloudApiObserver: ProviderPipeline['createObserver'] = AWS_PIPELINE.createObserver;
export const composeAwsPort: ProviderPipeline['compose'] = AWS_PIPELINE.compose;
