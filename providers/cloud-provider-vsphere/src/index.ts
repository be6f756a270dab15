/** @ccm/cloud-provider-vsphere: the vSphere cloud provider (InstancesV2 over vCenter). */
export * from './config/config-keys.js';
export * from './config/raw-config.js';
export * from './config/read-vsphere-config.js';
export * from './config/resolve-config.js';
export * from './config/vsphere-config.js';
export * from './credentials/credential-source.js';
export * from './credentials/secret-credentials.js';
export * from './errors.js';
export * from './instance-type.js';
export * from './operations/select-node-addresses.js';
export * from './ports/vcenter-port.js';
export { VSPHERE_API_BUDGET_DEFAULTS } from './ports/vsphere-port-pipeline.js';
export { VSPHERE_UPSTREAM_METRICS } from './metrics/upstream-metrics.js';
export * from './provider-id.js';
export * from './vsphere-cloud.js';
export * from './vsphere-instances.js';
