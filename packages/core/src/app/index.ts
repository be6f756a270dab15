/**
 * The cloud-controller-manager runtime: the command, its flags (typed registry, parsing,
 * validation, docs), the HTTPS endpoints, the metrics registry (the runtime's metrics sink) and
 * the controller manager's own metrics.
 */
export * from './options/index.js';
export * from './metrics/index.js';
export * from './serving/index.js';
export * from './delegated-auth/index.js';
export * from './configz.js';
export * from './create-cloud-provider.js';
export * from './default-controllers.js';
export * from './leader-migration/leader-migration-configuration.js';
export * from './leader-migration/leader-migrator.js';
export * from './run-cloud-controller-manager.js';
export * from './run-controllers.js';
export * from './run-modes.js';
export * from './version.js';
