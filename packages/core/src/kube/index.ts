/**
 * Kubernetes access layer: the ports controllers use (ports.ts, work-queue.ts), their
 * client-node implementation (client-node/), plus config loading, work queues, event recording
 * and leader election. The in-memory implementation for tests is `@ccm/testing/kube`.
 */
export * from './kube-api-error.js';
export * from './ports.js';
export * from './work-queue.js';
export * from './json-value.js';
export * from './object-reference.js';
export * from './wire-format.js';
export * from './token-bucket.js';
export * from './lru-cache.js';
export * from './rate-limited-work-queue.js';
export * from './work-queue-metrics.js';
export * from './load-kube-config.js';
export * from './event-correlator.js';
export * from './event-recorder.js';
export * from './leader-election.js';
export * from './client-node/index.js';
