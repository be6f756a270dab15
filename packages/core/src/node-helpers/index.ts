// async-helpers.ts is internal to the node controllers and not re-exported; IP parsing is @ccm/core/net.
export * from './conflict-retry.js';
export * from './instance-provider-id.js';
export * from './node-addresses.js';
export * from './node-conditions.js';
export * from './node-labels.js';
export * from './node-metadata-updates.js';
export * from './taints.js';
