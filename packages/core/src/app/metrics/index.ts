export * from './controller-manager-metrics.js';
export * from './create-metrics-registry.js';
export * from './get-or-create-metric.js';
export * from './prometheus-metrics-sink.js';
