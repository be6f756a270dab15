/**
 * The one cloud API budget of the AWS provider (core's `CloudApiBudget`): every EC2, ELB and
 * ELBv2 call of every controller takes a token from the same adaptive bucket, is retried by the
 * budget when AWS throttles it, and is timed by the cloud API observer (wrapped by the budget, so
 * each attempt is observed once and token waits are not counted as API latency).
 *
 * Upstream has no client-side limit and no cloud-config key for one (the SDK's retryer plus the
 * region-wide `CrossRequestRetryDelay`), so the settings are constants, not `[Global]` keys.
 */
import {
  CloudApiBudget,
  createCloudApiObserver,
  createThrottlingClassifier,
  type CloudApiBudgetOptions,
  type CloudProviderFactoryContext,
  type Logger,
  type ThrottlingClassifier,
} from '@ccm/core';
import { AWS_PROVIDER_NAME } from '../provider-id.js';
import { decoratePort } from './decorate-port.js';
import { AWS_THROTTLING_CODES } from './sdk/sdk-errors.js';

/**
 * Defaults of the budget. EC2's request-token buckets for non-mutating actions hold 100 tokens
 * and refill at 20 per second per account and region (mutating actions: 200 and 5 per second;
 * ELB's are smaller): 20 requests per second with a burst of 100 stays inside them for a CCM
 * that shares the account with other tools, and the bucket halves its rate on every throttling
 * answer. 8 attempts (as the former AWS retry policy) ride out a throttling episode of ~30 s.
 */
export const AWS_API_BUDGET_DEFAULTS = {
  qps: 20,
  burst: 100,
  maxAttempts: 8,
  initialBackoffMs: 500,
  maxBackoffMs: 20_000,
} as const;

/**
 * Throttling as the SDK adapter classifies it: an AWS throttling code (`RequestLimitExceeded` from
 * EC2, `Throttling` from ELB, `ThrottlingException`, `TooManyRequestsException`, `SlowDown` on
 * HTTP 503, ...) or HTTP 429, anywhere in the cause chain; reads a Retry-After when AWS sent one.
 */
export const awsThrottlingClassifier: ThrottlingClassifier = createThrottlingClassifier({ codes: AWS_THROTTLING_CODES, statuses: [429] });

/** Tuning a test (or a simulator run) may override. */
export type AwsApiBudgetOverrides = Omit<CloudApiBudgetOptions, 'provider' | 'classify' | 'metrics' | 'observer' | 'logger'>;

export function createAwsApiBudget(metrics: CloudProviderFactoryContext['metrics'], logger: Logger, overrides: AwsApiBudgetOverrides = {}): CloudApiBudget {
  return new CloudApiBudget({
    provider: AWS_PROVIDER_NAME,
    ...AWS_API_BUDGET_DEFAULTS,
    ...overrides,
    classify: awsThrottlingClassifier,
    metrics,
    observer: createCloudApiObserver(metrics, AWS_PROVIDER_NAME),
    logger,
  });
}

/** Every method call of `port` runs through the budget as `<service>.<method>`. */
export function withApiBudget<T extends object>(port: T, service: string, budget: CloudApiBudget): T {
  return decoratePort(port, service, (operation, signal, invoke) => budget.call(operation, invoke, signal === undefined ? {} : { signal }));
}
