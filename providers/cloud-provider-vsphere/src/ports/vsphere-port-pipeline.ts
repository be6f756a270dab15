/**
 * The port pipeline of the vSphere provider (core's `composeCloudPort`), applied to each
 * vCenter's port in the composition root: the provider's problem reporting (outermost, each
 * call's final outcome), retries of transient failures (`roundTripCount` attempts, as govmomi's
 * and upstream's soap round-trip count; formerly inside the client), the provider's one cloud
 * API budget shared by every vCenter (rate limit, adaptive backoff, throttling retried after
 * Retry-After), and the cloud API observer timing each attempt (innermost). Operation names are
 * the ones the metrics have always used (`FindByUuid`, `RetrieveVirtualMachines`, `GetTag`, ...).
 *
 * Upstream has no client-side limit and no config key for one, so the budget's settings are
 * constants.
 */
import {
  CloudApiBudget,
  composeCloudPort,
  createCloudApiObserver,
  type CloudApiErrorClassifier,
  type CloudApiErrorKind,
  type CloudApiObserver,
  type CloudRetryPolicy,
  type PortAround,
  type PortOperationNames,
  type ThrottlingClassifier,
} from '@ccm/core/cloud';
import type { Logger } from '@ccm/core/logging';
import type { CloudProviderFactoryContext } from '@ccm/core/provider';
import { VsphereApiError } from '../errors.js';
import { VSPHERE_PROVIDER_NAME } from '../provider-id.js';
import type { VcenterPort } from './vcenter-port.js';

/** The metric labels (`request`) of the port's methods. */
export const VCENTER_OPERATIONS = {
  listDatacenters: 'ListDatacenters',
  findVmByUuid: 'FindByUuid',
  findVmsByDnsName: 'FindAllByDnsName',
  findVmByIp: 'FindByIp',
  retrieveVms: 'RetrieveVirtualMachines',
  ancestors: 'RetrieveAncestors',
  'tagging.listAttachedTags': 'ListAttachedTags',
  'tagging.getTag': 'GetTag',
  'tagging.getCategory': 'GetCategory',
  'tagging.listCategories': 'ListCategories',
} as const satisfies PortOperationNames<VcenterPort>;

/**
 * Defaults of the budget: 100 requests per second with a burst of 200 for all vCenters
 * together (a node storm costs one search per new node, which vSphere cannot batch), the rate
 * halved on every throttling answer (HTTP 429 or 503), 5 attempts of a throttled call.
 */
export const VSPHERE_API_BUDGET_DEFAULTS = { qps: 100, burst: 200, maxAttempts: 5, initialBackoffMs: 500, maxBackoffMs: 20_000 } as const;

/** Backoff of retries of transient failures: 500 ms, then 1 s (then doubling, at most 20 s), no jitter. */
export const VSPHERE_RETRY_DEFAULTS = { initialDelayMs: 500, maxDelayMs: 20_000, jitter: 'none' } as const satisfies CloudRetryPolicy;

const THROTTLING_STATUSES: ReadonlySet<number> = new Set([429, 503]);

const isThrottling = (error: VsphereApiError): boolean => error.httpStatus !== undefined && THROTTLING_STATUSES.has(error.httpStatus);

/** Throttling for the budget: a vCenter answer with HTTP 429 or 503. */
export const vsphereThrottlingClassifier: ThrottlingClassifier = (error) => (error instanceof VsphereApiError && isThrottling(error) ? {} : undefined);

const CORE_KIND: Readonly<Record<string, CloudApiErrorKind>> = {
  ManagedObjectNotFound: 'not-found',
  NotFound: 'not-found',
  NotAuthenticated: 'unauthorized',
  InvalidLogin: 'unauthorized',
  NoPermission: 'unauthorized',
  InvalidArgument: 'invalid',
  InvalidProperty: 'invalid',
  Transport: 'transient',
  InvalidResponse: 'transient',
  Timeout: 'transient',
  Aborted: 'aborted',
};

/** The pipeline's view of a vCenter error: its kind in core's words (429/503: throttled), retryability as the client decided. */
export const classifyVsphereApiError: CloudApiErrorClassifier = (error) => {
  if (!(error instanceof VsphereApiError)) return undefined;
  return { kind: isThrottling(error) ? 'throttled' : (CORE_KIND[error.code] ?? 'unknown'), retryable: error.retryable };
};

export function createVsphereApiBudget(metrics: CloudProviderFactoryContext['metrics'] | undefined, logger: Logger): CloudApiBudget {
  return new CloudApiBudget({ provider: VSPHERE_PROVIDER_NAME, ...VSPHERE_API_BUDGET_DEFAULTS, classify: vsphereThrottlingClassifier, logger, ...(metrics === undefined ? {} : { metrics }) });
}

export function createVsphereCloudApiObserver(metrics: CloudProviderFactoryContext['metrics']): CloudApiObserver {
  return createCloudApiObserver(metrics, VSPHERE_PROVIDER_NAME);
}

export interface VcenterPortPipeline {
  observer?: CloudApiObserver;
  budget?: CloudApiBudget;
  /** Attempts per call (the vCenter's `roundTripCount`). */
  attempts: number;
  /** The provider's own stages (problem reporting), outermost first. */
  around?: readonly PortAround[];
  /** Overrides of `VSPHERE_RETRY_DEFAULTS` (tests). */
  retry?: CloudRetryPolicy;
}

/** `port` with every call through the vSphere pipeline: reporting -> retry -> budget -> observer -> port; `close` goes straight through. */
export function composeVcenterPort(port: VcenterPort, pipeline: VcenterPortPipeline): VcenterPort {
  return composeCloudPort(port, {
    operations: VCENTER_OPERATIONS,
    nested: ['tagging'],
    passThrough: ['close'],
    ...(pipeline.observer === undefined ? {} : { observer: pipeline.observer }),
    ...(pipeline.budget === undefined ? {} : { budget: pipeline.budget }),
    ...(pipeline.around === undefined ? {} : { around: pipeline.around }),
    retry: { ...VSPHERE_RETRY_DEFAULTS, maxAttempts: pipeline.attempts, classify: classifyVsphereApiError, ...pipeline.retry },
  });
}
