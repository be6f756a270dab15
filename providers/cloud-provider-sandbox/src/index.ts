/** @ccm/cloud-provider-sandbox: the sandbox cloud provider (talks to @ccm/testing's sandbox cloud over HTTP). */
export * from './config/sandbox-cloud-config.js';
export * from './operations/instance-lookup.js';
export * from './operations/instance-operations.js';
export * from './operations/load-balancer-operations.js';
export * from './operations/plan-load-balancer.js';
export * from './operations/route-operations.js';
export * from './ports/sdk/http-sandbox-cloud-port.js';
export * from './ports/sandbox-api-error.js';
export * from './ports/sandbox-cloud-port.js';
export * from './ports/sandbox-port-pipeline.js';
export * from './sandbox-cloud.js';
export * from './sandbox-instances.js';
export * from './sandbox-load-balancers.js';
export * from './provider-id.js';
export * from './sandbox-routes.js';
export * from './tags.js';
