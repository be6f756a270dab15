/**
 * @ccm/core: the provider interface, the four cloud controllers and the controller-manager runtime.
 * Each area owns its barrel; this file only stitches them together.
 */
export * from './api/well-known.js';
export * from './names/controller-names.js';
export * from './logging/logger.js';
export * from './metrics/index.js';
export * from './provider/index.js';
export * from './kube/index.js';
export * from './controllers/index.js';
export * from './node-helpers/index.js';
export * from './config/index.js';
export * from './app/index.js';
export * from './cloud/index.js';
export * from './util/index.js';
