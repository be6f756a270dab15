/**
 * The port pipeline of the AWS provider (core's `composeCloudPort`), applied to every EC2, ELB
 * and ELBv2 port in the composition root: every call of every controller takes a token from the
 * provider's one `CloudApiBudget` (throttling retried there, after Retry-After), 5xx answers and
 * network errors are retried outside it by their kind (decided where the error is born, the SDK
 * adapter), and each attempt is timed by the cloud API observer (innermost, so token waits are
 * not counted as API latency). Operation names are `<service>.<method>`.
 *
 * Upstream has no client-side limit and no cloud-config key for one (the SDK's retryer plus the
 * region-wide `CrossRequestRetryDelay`), so the settings are constants, not `[Global]` keys.
 */
import {
  CloudApiBudget,
  composeCloudPort,
  createCloudApiObserver,
  createThrottlingClassifier,
  type CloudApiBudgetOptions,
  type CloudApiErrorClassifier,
  type CloudApiErrorKind,
  type CloudApiObserver,
  type CloudRetryPolicy,
  type ThrottlingClassifier,
} from '@ccm/core/cloud';
import type { Logger } from '@ccm/core/logging';
import type { CloudProviderFactoryContext } from '@ccm/core/provider';
import { asAwsApiError, type AwsApiErrorKind } from '../errors.js';
import { AWS_PROVIDER_NAME } from '../provider-id.js';
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
  return new CloudApiBudget({ provider: AWS_PROVIDER_NAME, ...AWS_API_BUDGET_DEFAULTS, ...overrides, classify: awsThrottlingClassifier, metrics, logger });
}

/**
 * Retries of transient failures other than throttling (5xx, network errors; the budget retries
 * throttling): 8 attempts, exponential backoff from 100 ms with full jitter, at most 20 s.
 */
export const AWS_RETRY_DEFAULTS = { maxAttempts: 8, initialDelayMs: 100, maxDelayMs: 20_000, jitter: 'full' } as const satisfies CloudRetryPolicy;

const CORE_KIND: Readonly<Record<AwsApiErrorKind, CloudApiErrorKind>> = {
  NotFound: 'not-found',
  Throttled: 'throttled',
  Invalid: 'invalid',
  Conflict: 'conflict',
  DependencyViolation: 'conflict',
  Unauthorized: 'unauthorized',
  Unavailable: 'transient',
  Unknown: 'unknown',
};

/**
 * Calls answered at once, never retried: an optional label source whose failure the caller turns
 * into "no labels" (DescribeInstanceTopology; endpoints without it answer 5xx).
 */
export const AWS_NOT_RETRIED_OPERATIONS: ReadonlySet<string> = new Set(['ec2.describeInstanceTopology']);

/** The pipeline's view of an AWS error: the `AwsApiError` in the cause chain, its kind in core's words, its retryability. */
export const classifyAwsApiError: CloudApiErrorClassifier = (error) => {
  const found = asAwsApiError(error);
  return found === undefined ? undefined : { kind: CORE_KIND[found.kind], retryable: found.retryable && !AWS_NOT_RETRIED_OPERATIONS.has(found.operation) };
};

export interface AwsPortPipeline {
  budget: CloudApiBudget;
  observer: CloudApiObserver;
  /** Overrides of `AWS_RETRY_DEFAULTS` (tests inject `sleep` and `random`; the composition root logs retries). */
  retry?: CloudRetryPolicy;
}

export function createAwsCloudApiObserver(metrics: CloudProviderFactoryContext['metrics']): CloudApiObserver {
  return createCloudApiObserver(metrics, AWS_PROVIDER_NAME);
}

/** `port` with every call through the AWS pipeline, as `<service>.<method>`: retry -> budget -> observer -> port. */
export function composeAwsPort<Port extends object>(port: Port, service: string, pipeline: AwsPortPipeline): Port {
  return composeCloudPort(port, {
    name: service,
    observer: pipeline.observer,
    budget: pipeline.budget,
    retry: { ...AWS_RETRY_DEFAULTS, classify: classifyAwsApiError, ...pipeline.retry },
  });
}
