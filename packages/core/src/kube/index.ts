export * from './kube-api-error.js';
export * from './ports.js';
export * from './work-queue.js';
