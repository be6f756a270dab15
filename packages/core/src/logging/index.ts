/** The logging port every component receives, and the runtime's logger (klog text or component-base JSON). */
export * from './call-site.js';
export * from './create-logger.js';
export * from './go-quote.js';
export * from './json-log-format.js';
export * from './klog-text-format.js';
export * from './logger.js';
export * from './redact-log-fields.js';
export * from './warn-insecure-tls.js';
