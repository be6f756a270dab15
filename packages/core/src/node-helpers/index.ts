// ip-address.ts and async-helpers.ts are internal to the node controllers and not re-exported.
export * from './conflict-retry.js';
export * from './instance-provider-id.js';
export * from './node-addresses.js';
export * from './node-conditions.js';
export * from './node-labels.js';
export * from './node-metadata-updates.js';
export * from './taints.js';
