export * from './deterministic-uid.js';
export * from './make-node.js';
export * from './make-service.js';
