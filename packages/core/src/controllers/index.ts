export * from './controller.js';
export * from './node/index.js';
export * from './node-lifecycle/index.js';
export * from './service/index.js';
export * from './route/index.js';
