/** Small helpers shared by several areas of @ccm/core and by the providers. */
export * from './abortable-sleep.js';
export * from './error-message.js';
export * from './go-duration.js';
export * from './parse-go-bool.js';
export * from './secret-names.js';
