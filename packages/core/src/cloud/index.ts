/**
 * Cloud API helpers for providers: request coalescing (many lookups → one batch call) and the
 * per-provider API budget (client-side rate limit with adaptive backoff on throttling).
 */
export * from './adaptive-rate-limiter.js';
export * from './cloud-api-budget.js';
export * from './cloud-api-budget-metrics.js';
export * from './coalescer.js';
export * from './coalescer-errors.js';
export * from './coalescer-metrics.js';
export * from './throttling-classifier.js';
