/**
 * The provider interface (upstream `cloud.go`, `plugins.go`): `CloudProvider` and its
 * capabilities, `defineCloudProvider`, the typed errors, provider IDs and the registry.
 */
export {
  CloudStateError,
  ImplementedElsewhereError,
  InstanceNotFoundError,
  InvalidServiceConfigurationError,
  isImplementedElsewhere,
  isInstanceNotFound,
  isInvalidInput,
  isPermanentInvalidInput,
  PermanentInvalidServiceConfigurationError,
  RetryError,
} from './cloud-errors.js';
export {
  type CloudInitializeContext,
  type CloudProvider,
  type CloudProviderFactory,
  type CloudProviderFactoryContext,
  type ProviderInformers,
} from './cloud-provider.js';
export {
  ComposedCloudProvider,
  type OfferedCapabilities,
} from './composed-cloud-provider.js';
export {
  type CloudConfigSchema,
  type CloudProviderCreateContext,
  defineCloudProvider,
  type DefinedCloudProvider,
} from './define-cloud-provider.js';
export {
  type CloudCallOptions,
  type InstanceMetadata,
  type InstancesV2,
} from './instances.js';
export {
  defaultLoadBalancerName,
  type LoadBalancer,
  type LoadBalancerIngress,
  type LoadBalancerStatus,
} from './load-balancer.js';
export {
  type NodeAddress,
  type NodeAddressType,
} from './node-address.js';
export {
  formatProviderId,
  parseProviderId,
} from './provider-id.js';
export {
  CloudProviderRegistry,
  cloudProviders,
} from './provider-registry.js';
export {
  type Route,
  type Routes,
} from './routes.js';
