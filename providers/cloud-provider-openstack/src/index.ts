/** @ccm/cloud-provider-openstack: the OpenStack cloud provider for the cloud-controller-manager. */
export {
  OpenStackCloud,
  createOpenStackCloud,
  defineOpenStackCloudProvider,
  openStackCloudProvider,
  registerOpenStackCloudProvider,
  type OpenStackCloudOptions,
  type OpenStackCloudParts,
  type OpenStackPorts,
} from './openstack-cloud.js';
export { KEY_STATUS, OPENSTACK_CLOUD_CONFIG_SCHEMA, type KeyStatus } from './config/cloud-config-schema.js';
export {
  DEFAULT_CLOUD_CONFIG_FILE_NAME,
  DEFAULT_REQUEST_TIMEOUT_MS,
  readOpenStackCloudConfig,
  type OpenStackCloudConfig,
  type OpenStackGlobalConfig,
  type OpenStackLoadBalancerConfig,
  type OpenStackNetworkingConfig,
  type LoadBalancerClassConfig,
} from './config/read-openstack-cloud-config.js';
export { parseCloudsYaml, readCloudsYaml, type CloudsYamlEntry } from './config/read-clouds-yaml.js';
export * from './errors.js';
export {
  OPENSTACK_PROVIDER_NAME,
  REGIONAL_PROVIDER_ID_ENVIRONMENT_VARIABLE,
  OpenStackProviderIdError,
  formatOpenStackProviderId,
  parseOpenStackProviderId,
  serverIdOfProviderId,
  type OpenStackServerRef,
} from './provider-id.js';
export type { ComputePort, OpenStackFlavor, OpenStackServer, OpenStackServerAddress } from './ports/compute-port.js';
export type { NetworkPort, NeutronPort, NeutronRoute, NeutronRouter, PortFilter } from './ports/network-port.js';
export { OPENSTACK_API_BUDGET_DEFAULTS, OPENSTACK_RETRY_DEFAULTS, composeOpenStackPort } from './ports/openstack-port-pipeline.js';
export { OPENSTACK_ALL_UPSTREAM_METRICS, OPENSTACK_UPSTREAM_METRICS, OPENSTACK_UPSTREAM_RECONCILE_METRICS } from './metrics/upstream-metrics.js';
export { createOpenStackSdkPorts } from './ports/sdk/openstack-sdk-ports.js';
