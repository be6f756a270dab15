export * from './cloud-node-controller.js';
export * from './instance-metadata.js';
export * from './node-address-update.js';
export * from './node-controller-metrics.js';
export * from './node-initialization.js';
