export * from './cloud-api-observer.js';
export * from './controller-manager-metrics.js';
export * from './create-metrics-registry.js';
export * from './get-or-create-metric.js';
