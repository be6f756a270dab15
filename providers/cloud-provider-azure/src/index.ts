/** @ccm/cloud-provider-azure: the Azure cloud provider for the cloud-controller-manager. */
export { AzureCloud, azureCloudProvider, createAzureCloud, defineAzureCloudProvider, registerAzureCloudProvider, type AzureCloudOptions, type AzurePorts } from './azure-cloud.js';
export { AzureInstances, LABEL_MANAGED, LABEL_RESOURCE_GROUP } from './azure-instances.js';
export { AzureRoutes } from './azure-routes.js';
export { AZURE_CONFIG_KEYS, type ConfigKeySpec } from './config/azure-config-keys.js';
export { AZURE_CLOUDS, DEFAULT_CLOUD_CONFIG_FILE_NAME, readAzureCloudConfig, type AzureCloudConfig } from './config/read-azure-cloud-config.js';
export * from './errors.js';
export { AZURE_PROVIDER_NAME, AzureProviderIdError, formatAzureProviderId, parseAzureProviderId, type AzureInstanceRef } from './provider-id.js';
export { routeNameOf, nodeNameOfRoute, ROUTE_NAME_SEPARATOR } from './operations/route-names.js';
export type { AzureVirtualMachine, ComputePort } from './ports/compute-port.js';
export type { AzureNetworkInterface, AzureRoute, AzureRouteTable, NetworkPort } from './ports/network-port.js';
export { AZURE_API_BUDGET_DEFAULTS, AZURE_RETRY_DEFAULTS } from './ports/azure-port-pipeline.js';
export { AZURE_ALL_UPSTREAM_METRICS, AZURE_UPSTREAM_METRICS, AZURE_UPSTREAM_OPERATION_METRICS, AZURE_UPSTREAM_OPERATIONS } from './metrics/upstream-metrics.js';
export { createAzureSdkClients } from './ports/sdk/azure-sdk-clients.js';
export { createSdkComputePort } from './ports/sdk/sdk-compute-port.js';
export { createSdkNetworkPort } from './ports/sdk/sdk-network-port.js';
