/**
 * Cloud API toolkit for providers: `defineProviderPipeline` (coalesce, retry by error kind, API
 * budget, observe over each port), `CloudApiError` and the provider's thin subclass
 * (`providerApiErrorClass`), `CallOptions`, the coalescer and the per-provider API budget. The
 * stages the pipeline composes stay inside core.
 */
export {
  type CallOptions,
} from './call-options.js';
export {
  CloudApiBudget,
} from './cloud-api-budget.js';
export {
  CloudApiError,
  type CloudApiErrorKind,
  defineCloudApiErrorKinds,
  findNetworkErrorCode,
  NETWORK_ERROR_CODES,
  notThrottled,
  providerApiErrorClass,
  type ProviderApiErrorDetails,
} from './cloud-api-error.js';
export {
  type CloudApiObserver,
  createCloudApiObserver,
  createUpstreamObserver,
} from './cloud-api-observer.js';
export {
  CoalescerBatchFailedError,
  isCoalescerError,
} from './coalescer-errors.js';
export {
  createCoalescerMetrics,
} from './coalescer-metrics.js';
export {
  coalesceBy,
  type CoalescedMethods,
  coalescePort,
} from './coalesce-port.js';
export {
  Coalescer,
  type CoalescerObserver,
} from './coalescer.js';
export {
  classifyErrorsOf,
  type CloudApiBudgetOverrides,
  defineProviderPipeline,
  type ProviderPipeline,
  throttlingOf,
} from './define-provider-pipeline.js';
export {
  type CloudRetryPolicy,
  retryBackoffMs,
} from './retry-calls.js';
export {
  createThrottlingClassifier,
  defaultThrottlingClassifier,
  type ThrottlingClassifier,
} from './throttling-classifier.js';
export {
  defineUpstreamCloudMetrics,
  methodOf,
  PROMETHEUS_DEFAULT_BUCKETS,
  renderUpstreamMetricsSection,
  snakeCaseOf,
  type UpstreamCallOutcome,
  type UpstreamCloudMetrics,
  upstreamCounter,
  upstreamHistogram,
  type UpstreamSeries,
} from './upstream-cloud-metrics.js';
export {
  type PortAround,
  type PortNaming,
} from './wrap-port.js';
