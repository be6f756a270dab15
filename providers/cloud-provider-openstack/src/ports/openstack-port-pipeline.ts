/**
 * The port pipeline of the OpenStack provider (core's `composeCloudPort`), applied to every port
 * in the composition root: every call takes a token from the provider's one `CloudApiBudget`
 * (413/429 over-limit answers retried there, after the service's Retry-After), 5xx answers,
 * transport failures and timeouts are retried outside it by their kind (decided in the SDK
 * adapter), and each attempt is timed by the cloud API observer. Operation names are
 * `<service>.<method>` (`compute.listServers`, `network.listPorts`, `loadbalancer.getLoadBalancer`).
 *
 * Upstream has no client-side rate limit and no cloud-config key for one (gophercloud retries
 * nothing but a 401 re-authentication), so the settings are constants, documented in the
 * generated reference.
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
import { asOpenStackApiError, type OpenStackApiErrorKind } from '../errors.js';
import { OPENSTACK_PROVIDER_NAME } from '../provider-id.js';

/**
 * Defaults of the budget. OpenStack's API rate limits are the operator's choice (often none, or
 * a few tens of requests per second per project at the proxy): 10 requests per second with a
 * burst of 50 stays under common limits, and the bucket halves its rate on every 413/429.
 */
export const OPENSTACK_API_BUDGET_DEFAULTS = {
  qps: 10,
  burst: 50,
  maxAttempts: 8,
  initialBackoffMs: 500,
  maxBackoffMs: 30_000,
} as const;

/** Retries of transient failures other than throttling: 6 attempts, 200 ms doubling, full jitter, at most 20 s. */
export const OPENSTACK_RETRY_DEFAULTS = { maxAttempts: 6, initialDelayMs: 200, maxDelayMs: 20_000, jitter: 'full' } as const satisfies CloudRetryPolicy;

/** Throttling as the SDK adapter classified it (HTTP 413/429). */
export const openStackThrottlingClassifier: ThrottlingClassifier = (error) => (asOpenStackApiError(error)?.kind === 'Throttled' ? {} : undefined);

export type OpenStackApiBudgetOverrides = Omit<CloudApiBudgetOptions, 'provider' | 'classify' | 'metrics' | 'observer' | 'logger'>;

export function createOpenStackApiBudget(metrics: CloudProviderFactoryContext['metrics'], logger: Logger, overrides: OpenStackApiBudgetOverrides = {}): CloudApiBudget {
  return new CloudApiBudget({ provider: OPENSTACK_PROVIDER_NAME, ...OPENSTACK_API_BUDGET_DEFAULTS, ...overrides, classify: openStackThrottlingClassifier, metrics, logger });
}

const CORE_KIND: Readonly<Record<OpenStackApiErrorKind, CloudApiErrorKind>> = {
  NotFound: 'not-found',
  Conflict: 'conflict',
  Throttled: 'throttled',
  Invalid: 'invalid',
  Unauthorized: 'unauthorized',
  Unavailable: 'transient',
  EndpointNotFound: 'invalid',
  ProvisioningFailed: 'unknown',
  Unknown: 'unknown',
};

/** The pipeline's view of an OpenStack error: the `OpenStackApiError` in the cause chain, its kind in core's words, its retryability. */
export const classifyOpenStackApiError: CloudApiErrorClassifier = (error) => {
  const found = asOpenStackApiError(error);
  return found === undefined ? undefined : { kind: CORE_KIND[found.kind], retryable: found.retryable };
};

export interface OpenStackPortPipeline {
  budget: CloudApiBudget;
  observer: CloudApiObserver;
  /** Overrides of `OPENSTACK_RETRY_DEFAULTS` (tests inject `sleep` and `random`; the composition root logs retries). */
  retry?: CloudRetryPolicy;
}

export function createOpenStackCloudApiObserver(metrics: CloudProviderFactoryContext['metrics']): CloudApiObserver {
  return createCloudApiObserver(metrics, OPENSTACK_PROVIDER_NAME);
}

/** `port` with every call through the OpenStack pipeline, as `<service>.<method>`: retry -> budget -> observer -> port. */
export function composeOpenStackPort<Port extends object>(port: Port, service: string, pipeline: OpenStackPortPipeline): Port {
  return composeCloudPort(port, {
    name: service,
    observer: pipeline.observer,
    budget: pipeline.budget,
    retry: { ...OPENSTACK_RETRY_DEFAULTS, classify: classifyOpenStackApiError, ...pipeline.retry },
  });
}
