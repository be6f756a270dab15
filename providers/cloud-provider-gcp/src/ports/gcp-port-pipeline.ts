/**
 * The port pipeline of the GCE provider (core's `composeCloudPort`), applied to the Compute port
 * in the composition root: every call takes a token from the provider's one `CloudApiBudget`
 * (throttling retried there), 5xx answers and network errors (also of the token source) are
 * retried outside it by their kind, decided in the SDK adapter, and each attempt is timed by the
 * cloud API observer. Operation names are `compute.<method>`.
 *
 * Upstream limits only operation polling (5 qps, burst 5) and has no cloud-config key for a
 * client-side limit, so the settings are constants, documented in the generated reference.
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
import { asGceApiError, type GceApiErrorKind } from '../errors.js';
import { GCE_PROVIDER_NAME } from '../provider-id.js';
import { GCE_THROTTLING_REASONS } from './sdk/sdk-errors.js';

/**
 * Defaults of the budget. Compute's default read quota is 20 requests per second per project and
 * region-wide write quotas are lower: 20 requests per second with a burst of 50 leaves room for
 * other tools, and the bucket halves its rate on every throttling answer.
 */
export const GCE_API_BUDGET_DEFAULTS = {
  qps: 20,
  burst: 50,
  maxAttempts: 8,
  initialBackoffMs: 500,
  maxBackoffMs: 20_000,
} as const;

/** Throttling: a Google rate-limit reason (`rateLimitExceeded`, `userRateLimitExceeded`) or HTTP 429, anywhere in the cause chain. */
const googleThrottling = createThrottlingClassifier({ extraCodes: GCE_THROTTLING_REASONS, statuses: [429] });

export const gceThrottlingClassifier: ThrottlingClassifier = (error) => {
  const found = asGceApiError(error);
  if (found?.kind === 'Throttled') return {};
  return googleThrottling(error);
};

export type GceApiBudgetOverrides = Omit<CloudApiBudgetOptions, 'provider' | 'classify' | 'metrics' | 'observer' | 'logger'>;

export function createGceApiBudget(metrics: CloudProviderFactoryContext['metrics'], logger: Logger, overrides: GceApiBudgetOverrides = {}): CloudApiBudget {
  return new CloudApiBudget({ provider: GCE_PROVIDER_NAME, ...GCE_API_BUDGET_DEFAULTS, ...overrides, classify: gceThrottlingClassifier, metrics, logger });
}

/** Retries of transient failures other than throttling: 8 attempts, 100 ms doubling with full jitter, at most 20 s. */
export const GCE_RETRY_DEFAULTS = { maxAttempts: 8, initialDelayMs: 100, maxDelayMs: 20_000, jitter: 'full' } as const satisfies CloudRetryPolicy;

const CORE_KIND: Readonly<Record<GceApiErrorKind, CloudApiErrorKind>> = {
  NotFound: 'not-found',
  AlreadyExists: 'conflict',
  InUse: 'conflict',
  PreconditionFailed: 'conflict',
  Throttled: 'throttled',
  Invalid: 'invalid',
  Unauthorized: 'unauthorized',
  Unavailable: 'transient',
  Unknown: 'unknown',
};

/** The pipeline's view of a GCE error: the `GceApiError` in the cause chain, its kind in core's words, its retryability. */
export const classifyGceApiError: CloudApiErrorClassifier = (error) => {
  const found = asGceApiError(error);
  return found === undefined ? undefined : { kind: CORE_KIND[found.kind], retryable: found.retryable };
};

export interface GcePortPipeline {
  budget: CloudApiBudget;
  observer: CloudApiObserver;
  retry?: CloudRetryPolicy;
}

export function createGceCloudApiObserver(metrics: CloudProviderFactoryContext['metrics']): CloudApiObserver {
  return createCloudApiObserver(metrics, GCE_PROVIDER_NAME);
}

/** `port` with every call through the GCE pipeline, as `<service>.<method>`: retry -> budget -> observer -> port. */
export function composeGcePort<Port extends object>(port: Port, service: string, pipeline: GcePortPipeline): Port {
  return composeCloudPort(port, {
    name: service,
    observer: pipeline.observer,
    budget: pipeline.budget,
    retry: { ...GCE_RETRY_DEFAULTS, classify: classifyGceApiError, ...pipeline.retry },
  });
}
