export * from './health-checks.js';
export * from './secure-server.js';
export * from './self-signed-certificate.js';
export * from './serving-certificate.js';
export * from './serving-handler.js';
