export * from './debug-flags-handler.js';
export * from './health-checks.js';
export * from './profiler.js';
export * from './secure-server.js';
export * from './self-signed-certificate.js';
export * from './serving-certificate.js';
export * from './serving-handler.js';
