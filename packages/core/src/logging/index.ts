/** The logging port every component receives, and the runtime's pino-backed logger (klog text or JSON). */
export * from './create-logger.js';
export * from './klog-text-format.js';
export * from './logger.js';
export * from './redact-log-fields.js';
