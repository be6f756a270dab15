/**
 * Cloud API toolkit for providers: the port pipeline (observe, budget, retry, coalesce over one
 * port, composed by `composeCloudPort`), request coalescing (many lookups -> one batch call), the
 * per-provider API budget (client-side rate limit with adaptive backoff on throttling) and the
 * typed cloud API error the pipeline decides by.
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
  notThrottled,
  providerApiErrorClass,
  type ProviderApiErrorDetails,
} from './cloud-api-error.js';
export {
  type CloudApiObserver,
  createCloudApiObserver,
} from './cloud-api-observer.js';
export {
  CoalescerBatchFailedError,
  isCoalescerError,
} from './coalescer-errors.js';
export {
  createCoalescerMetrics,
} from './coalescer-metrics.js';
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
  type PortAround,
  type PortNaming,
} from './wrap-port.js';
