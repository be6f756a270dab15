export * from './issue-certificate.js';
export * from './self-signed-certificate.js';
