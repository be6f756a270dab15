export * from './network-condition.js';
export * from './plan-routes.js';
export * from './reconcile-scheduler.js';
export * from './route-controller.js';
export * from './route-metrics.js';
export * from './route-node-events.js';
