/**
 * @ccm/core: the provider interface, the four cloud controllers and the controller-manager runtime.
 *
 * Import from the subpath of the area you use (`@ccm/core/provider`, `@ccm/core/cloud`, ...; see
 * docs/architecture.md). This root entry is the union of the subpaths, kept while importers move
 * to them (scripts/codemods/core-subpath-imports.mjs rewrites `from '@ccm/core'` imports).
 */
export * from './api/index.js';
export * from './app/index.js';
export * from './cloud/index.js';
export * from './config/index.js';
export * from './controllers/index.js';
export * from './kube/index.js';
export * from './logging/index.js';
export * from './metrics/index.js';
export * from './names/index.js';
export * from './net/index.js';
export * from './node-helpers/index.js';
export * from './provider/index.js';
export * from './service-input/index.js';
export * from './util/index.js';
