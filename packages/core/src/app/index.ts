/**
 * The cloud-controller-manager runtime: the command, its flags (typed registry, parsing,
 * validation, docs), the HTTPS endpoints, metrics (including the cloud API observer providers
 * use) and the pino-backed logger.
 */
export * from './options/index.js';
export * from './metrics/index.js';
export * from './serving/index.js';
export * from './delegated-auth/index.js';
export * from './configz.js';
export * from './create-cloud-provider.js';
export * from './default-controllers.js';
export * from './run-cloud-controller-manager.js';
export * from './run-controllers.js';
export * from './run-modes.js';
export * from './version.js';
export * from '../logging/create-logger.js';
export * from '../logging/klog-text-format.js';
export * from '../logging/redact-log-fields.js';
