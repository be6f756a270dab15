/**
 * Cloud API toolkit for providers: the port pipeline (observe, budget, retry, coalesce over one
 * port, composed by `composeCloudPort`), request coalescing (many lookups -> one batch call), the
 * per-provider API budget (client-side rate limit with adaptive backoff on throttling) and the
 * typed cloud API error the pipeline decides by.
 */
export * from './adaptive-rate-limiter.js';
export * from './budget-calls.js';
export * from './call-options.js';
export * from './cloud-api-budget.js';
export * from './cloud-api-budget-metrics.js';
export * from './cloud-api-error.js';
export * from './cloud-api-observer.js';
export * from './coalesce-port.js';
export * from './coalescer.js';
export * from './coalescer-errors.js';
export * from './coalescer-metrics.js';
export * from './compose-cloud-port.js';
export * from './define-provider-pipeline.js';
export * from './fence-calls.js';
export * from './leadership-fence.js';
export * from './observe-calls.js';
export * from './retry-calls.js';
export * from './throttling-classifier.js';
export {
  PROMETHEUS_DEFAULT_BUCKETS,
  createUpstreamMetricsRecorder,
  defineUpstreamCloudMetrics,
  methodOf,
  renderUpstreamMetricsSection,
  snakeCaseOf,
  upstreamCounter,
  upstreamHistogram,
  type UpstreamCallOutcome,
  type UpstreamCloudMetrics,
  type UpstreamCounterSeries,
  type UpstreamHistogramSeries,
  type UpstreamSeries,
  type UpstreamSource,
} from './upstream-cloud-metrics.js';
export * from './wrap-port.js';
