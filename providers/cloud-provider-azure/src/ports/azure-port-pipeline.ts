/**
 * The port pipeline of the Azure provider (core's `composeCloudPort`), applied to the Compute
 * and Network ports in the composition root: every call takes a token from the provider's one
 * `CloudApiBudget` (429 answers retried there, after ARM's Retry-After), 5xx answers, 409
 * conflicts and network errors are retried outside it by their kind (decided in the SDK adapter),
 * and each attempt is timed by the cloud API observer. Operation names are `<service>.<method>`.
 * The SDK's own retry policies are off (`ports/sdk/azure-sdk-clients.ts`).
 *
 * Upstream's rate-limit and backoff keys (`cloudProviderRateLimit*`, `cloudProviderBackoff*`)
 * are replaced by these constants; they are accepted and reported as not supported.
 */
import {
  CloudApiBudget,
  composeCloudPort,
  createCloudApiObserver,
  type CloudApiBudgetOptions,
  type CloudApiErrorClassifier,
  type CloudApiErrorKind,
  type CloudApiObserver,
  type CloudRetryPolicy,
  type ThrottlingClassifier,
} from '@ccm/core/cloud';
import type { Logger } from '@ccm/core/logging';
import type { CloudProviderFactoryContext } from '@ccm/core/provider';
import { asAzureApiError, type AzureApiErrorKind } from '../errors.js';
import { AZURE_PROVIDER_NAME } from '../provider-id.js';

/**
 * Defaults of the budget. ARM allows 12,000 reads and 1,200 writes per hour per subscription and
 * principal (about 3 reads per second sustained) with a larger short-term burst: 10 requests per
 * second with a burst of 50 leaves room for the other tools of the subscription, and the bucket
 * halves its rate on every 429. 8 attempts ride out a throttling episode of about half a minute.
 */
export const AZURE_API_BUDGET_DEFAULTS = {
  qps: 10,
  burst: 50,
  maxAttempts: 8,
  initialBackoffMs: 500,
  maxBackoffMs: 30_000,
} as const;

/** Retries of transient failures other than throttling: 6 attempts, 200 ms doubling, full jitter, at most 20 s. */
export const AZURE_RETRY_DEFAULTS = { maxAttempts: 6, initialDelayMs: 200, maxDelayMs: 20_000, jitter: 'full' } as const satisfies CloudRetryPolicy;

/** Throttling as the SDK adapter classified it (HTTP 429), with ARM's Retry-After. */
export const azureThrottlingClassifier: ThrottlingClassifier = (error) => {
  const found = asAzureApiError(error);
  if (found?.kind !== 'Throttled') return undefined;
  return found.retryAfterMs === undefined ? {} : { retryAfterMs: found.retryAfterMs };
};

export type AzureApiBudgetOverrides = Omit<CloudApiBudgetOptions, 'provider' | 'classify' | 'metrics' | 'observer' | 'logger'>;

export function createAzureApiBudget(metrics: CloudProviderFactoryContext['metrics'], logger: Logger, overrides: AzureApiBudgetOverrides = {}): CloudApiBudget {
  return new CloudApiBudget({ provider: AZURE_PROVIDER_NAME, ...AZURE_API_BUDGET_DEFAULTS, ...overrides, classify: azureThrottlingClassifier, metrics, logger });
}

const CORE_KIND: Readonly<Record<AzureApiErrorKind, CloudApiErrorKind>> = {
  NotFound: 'not-found',
  Throttled: 'throttled',
  Invalid: 'invalid',
  Conflict: 'conflict',
  PreconditionFailed: 'conflict',
  Unauthorized: 'unauthorized',
  Unavailable: 'transient',
  Unknown: 'unknown',
};

/** The pipeline's view of an Azure error: the `AzureApiError` in the cause chain, its kind in core's words, its retryability. */
export const classifyAzureApiError: CloudApiErrorClassifier = (error) => {
  const found = asAzureApiError(error);
  return found === undefined ? undefined : { kind: CORE_KIND[found.kind], retryable: found.retryable };
};

export interface AzurePortPipeline {
  budget: CloudApiBudget;
  observer: CloudApiObserver;
  /** Overrides of `AZURE_RETRY_DEFAULTS` (tests inject `sleep` and `random`; the composition root logs retries). */
  retry?: CloudRetryPolicy;
}

export function createAzureCloudApiObserver(metrics: CloudProviderFactoryContext['metrics']): CloudApiObserver {
  return createCloudApiObserver(metrics, AZURE_PROVIDER_NAME);
}

/** `port` with every call through the Azure pipeline, as `<service>.<method>`: retry -> budget -> observer -> port. */
export function composeAzurePort<Port extends object>(port: Port, service: string, pipeline: AzurePortPipeline): Port {
  return composeCloudPort(port, {
    name: service,
    observer: pipeline.observer,
    budget: pipeline.budget,
    retry: { ...AZURE_RETRY_DEFAULTS, classify: classifyAzureApiError, ...pipeline.retry },
  });
}
