/** @ccm/cloud-provider-gcp: the GCE cloud provider for the cloud-controller-manager. */
export { GcpCloud, createGcpCloud, defineGcpCloudProvider, gcpCloudProvider, registerGcpCloudProvider, type GcePorts, type GcpCloudOptions } from './gcp-cloud.js';
export { GcpInstances, SHUTDOWN_STATUSES } from './gcp-instances.js';
export { GcpLoadBalancers } from './gcp-load-balancers.js';
export { GcpRoutes } from './gcp-routes.js';
export { ALL_ANNOTATIONS, ANNOTATIONS, type AnnotationDefinition } from './annotations.js';
export { GCE_CLOUD_CONFIG_SCHEMA, GLOBAL_KEY_STATUS } from './config/cloud-config-schema.js';
export { readGceCloudConfig, type GceCloudConfig } from './config/read-gce-cloud-config.js';
export * from './errors.js';
export { GCE_PROVIDER_NAME, formatGceProviderId, parseGceProviderId } from './provider-id.js';
export type { ComputePort } from './ports/compute-port.js';
export { GCE_API_BUDGET_DEFAULTS } from './ports/gcp-port-pipeline.js';
export { GCE_UPSTREAM_METRICS } from './metrics/upstream-metrics.js';
export { ROUTE_DESCRIPTION, routeNamePrefix } from './operations/route-operations.js';
