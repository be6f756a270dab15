/** Canonical controller names and their aliases (upstream `cloud-provider/names`). */
export * from './controller-names.js';
