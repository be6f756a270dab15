export * from './cloud-node-lifecycle-controller.js';
