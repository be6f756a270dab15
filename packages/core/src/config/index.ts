/** Cloud-config files: the error type providers throw, the file reader, and the gcfg reader. */
export * from './cloud-config-error.js';
export * from './read-cloud-config-file.js';
export * from './gcfg/index.js';
export * from './yaml-duplicate-keys.js';
