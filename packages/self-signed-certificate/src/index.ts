export * from './self-signed-certificate.js';
