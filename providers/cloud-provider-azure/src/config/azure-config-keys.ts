/**
 * Every key of upstream's `azure.json` (cloud-provider-azure `pkg/provider/config/azure.go`,
 * `pkg/azclient` auth and ARM config), declared once with its type, default, status and
 * description. The reader parses against this table, and `docs/cloud-controller-manager.md` is
 * rendered from it. A key that is not supported here is still accepted (upstream files parse
 * unchanged); setting it to something other than its default logs a warning naming the key.
 */
import type { InputStatus } from '@ccm/core/service-input';

export type ConfigValueType = 'string' | 'boolean' | 'integer' | 'number' | 'object' | 'array' | 'string-map';

export interface ConfigKeySpec {
  name: string;
  type: ConfigValueType;
  /** Upstream's default, as documented ('' when none). */
  defaultValue: string;
  status: Extract<InputStatus, 'supported' | 'not-supported'>;
  description: string;
}

const supported = (name: string, type: ConfigValueType, defaultValue: string, description: string): ConfigKeySpec => ({ name, type, defaultValue, status: 'supported', description });
const notSupported = (name: string, type: ConfigValueType, defaultValue: string, description: string): ConfigKeySpec => ({ name, type, defaultValue, status: 'not-supported', description });

const RATE_LIMIT_CLIENTS = [
  'routeRateLimit',
  'subnetsRateLimit',
  'interfaceRateLimit',
  'routeTableRateLimit',
  'loadBalancerRateLimit',
  'publicIPAddressRateLimit',
  'securityGroupRateLimit',
  'virtualMachineRateLimit',
  'storageAccountRateLimit',
  'diskRateLimit',
  'snapshotRateLimit',
  'virtualMachineScaleSetRateLimit',
  'virtualMachineSizesRateLimit',
  'availabilitySetRateLimit',
  'attachDetachDiskRateLimit',
  'containerServiceRateLimit',
  'deploymentRateLimit',
  'privateDNSRateLimit',
  'privateDNSZoneGroupRateLimit',
  'privateEndpointRateLimit',
  'privateLinkServiceRateLimit',
  'virtualNetworkRateLimit',
];

const BUDGET_NOTE = 'every ARM call goes through the provider\'s one cloud API budget (see "Cloud API budget")';

export const AZURE_CONFIG_KEYS: readonly ConfigKeySpec[] = [
  // Cloud and credentials
  supported('cloud', 'string', 'AzurePublicCloud', 'The Azure environment: AzurePublicCloud, AzureChinaCloud, AzureUSGovernmentCloud; its ARM endpoint and Entra authority. Any other value needs resourceManagerEndpoint and activeDirectoryEndpoint.'),
  supported('resourceManagerEndpoint', 'string', '', 'ARM endpoint of a custom cloud (overrides the one of `cloud`).'),
  supported('activeDirectoryEndpoint', 'string', '', 'Entra authority host of a custom cloud (overrides the one of `cloud`). Upstream reads it from the environment file of `AZURE_ENVIRONMENT_FILEPATH`; here it is a key beside resourceManagerEndpoint.'),
  notSupported('disableAzureStackCloud', 'boolean', 'false', 'Azure Stack Hub is not supported.'),
  notSupported('identitySystem', 'string', '', 'ADFS (Azure Stack) is not supported; Entra ID is used.'),
  supported('userAgent', 'string', '', 'Prefix of the User-Agent of ARM calls.'),
  supported('tenantId', 'string', '', 'Entra tenant of the application (required by the client secret, client certificate and workload identity credentials). `AZURE_TENANT_ID` in the environment overrides it, as upstream.'),
  supported('subscriptionId', 'string', '', 'Subscription of the cluster\'s resources (required).'),
  supported('aadClientId', 'string', '', 'Client (application) ID of the service principal or of the workload identity (required by those credentials). `AZURE_CLIENT_ID` in the environment overrides it, as upstream.'),
  supported('aadClientSecret', 'string', '', 'Client secret of the service principal (never logged). Credential precedence as upstream: workload identity, then managed identity, then client secret, then client certificate; keys of a kind that loses are logged as ignored. `AZURE_CLIENT_SECRET` in the environment overrides it, as upstream.'),
  supported('aadClientCertPath', 'string', '', 'Client certificate of the service principal: a PKCS#12 file (.pfx, as upstream) or a PEM file with the certificate and its private key (read at start; a file that cannot be read or decrypted stops the start naming this key). Its JWT client assertion is signed with the key.'),
  supported('aadClientCertPassword', 'string', '', 'Password of the PKCS#12 file, or of the encrypted PEM private key, of aadClientCertPath (never logged). Set without aadClientCertPath: an error.'),
  supported('useManagedIdentityExtension', 'boolean', 'false', 'Managed identity: tokens from the instance metadata service (`http://169.254.169.254/metadata/identity/oauth2/token`, header `Metadata: true`). `AZURE_POD_IDENTITY_AUTHORITY_HOST` in the environment (read by @azure/identity) points it at another host, e.g. a test\'s IMDS.'),
  supported('userAssignedIdentityID', 'string', '', 'With useManagedIdentityExtension: the user-assigned identity, by client ID, or by resource ID when it contains `/subscriptions/` (as upstream). Set without useManagedIdentityExtension: an error.'),
  supported('aadFederatedTokenFile', 'string', '', 'With useFederatedWorkloadIdentityExtension: the projected service account token exchanged for an Entra token (client assertion; re-read when the file changes). `AZURE_FEDERATED_TOKEN_FILE` in the environment overrides it and turns workload identity on, as upstream. Set without either: an error.'),
  supported('useFederatedWorkloadIdentityExtension', 'boolean', 'false', 'Workload identity (federated credential of aadClientId in tenantId, token from aadFederatedTokenFile); first in the credential precedence.'),
  notSupported('aadMSIDataPlaneIdentityPath', 'string', '', 'The MSI data-plane identity (a credential file of the managed identity resource provider) is not supported; use useManagedIdentityExtension.'),
  notSupported('auxiliaryTokenProvider', 'object', '', 'Auxiliary tokens (network resources in another tenant) are not supported.'),
  notSupported('networkResourceTenantID', 'string', '', 'Network resources in another tenant are not supported.'),
  notSupported('networkResourceSubscriptionID', 'string', '', 'Network resources in another subscription are not supported.'),
  supported('cloudConfigType', 'string', 'merge', 'Where the config comes from: `file` (this file alone), `merge` (this file overlaid by the `cloud-config` key of the Secret kube-system/azure-cloud-provider, read through the shared informer and followed when it changes; the file alone when the Secret does not exist) or `secret` (read as `merge`: the cluster keys of the file stay in force). The Secret supplies the connection keys (cloud, endpoints, tenantId, subscriptionId, aadClientId, userAgent and the credential keys: aadClientSecret, aadClientCertPath, aadClientCertPassword, useManagedIdentityExtension, userAssignedIdentityID, aadFederatedTokenFile, useFederatedWorkloadIdentityExtension); the cluster keys are read from the file at start.'),
  // Cluster
  supported('location', 'string', '', 'Region of the cluster (required): location of the route table.'),
  supported('resourceGroup', 'string', '', 'Resource group of the cluster\'s VMs, scale sets and network resources (required).'),
  notSupported('extendedLocationName', 'string', '', 'Edge zones are not supported.'),
  notSupported('extendedLocationType', 'string', '', 'Edge zones are not supported.'),
  supported('vnetName', 'string', '', 'Virtual network of the cluster.'),
  supported('vnetResourceGroup', 'string', '', 'Resource group of the virtual network (default resourceGroup).'),
  supported('subnetName', 'string', '', 'Subnet of the cluster.'),
  supported('securityGroupName', 'string', '', 'Network security group of the cluster\'s subnet: the LoadBalancer capability keeps its `k8s-azure-lb_` rules; empty, no security rules are managed.'),
  supported('securityGroupResourceGroup', 'string', '', 'Resource group of the security group (default resourceGroup).'),
  supported('routeTableName', 'string', '', 'Route table the Routes capability programs; empty turns Routes off.'),
  supported('routeTableResourceGroup', 'string', '', 'Resource group of the route table (default resourceGroup).'),
  notSupported('primaryAvailabilitySetName', 'string', '', 'Only used by the Basic load balancer, which is not offered.'),
  notSupported('primaryScaleSetName', 'string', '', 'Only used by the Basic load balancer, which is not offered.'),
  supported('vmType', 'string', 'vmss', 'VM kinds of the nodes: `vmss` (availability-set VMs, uniform and flexible scale sets, classified per node), `standard` (availability-set and standalone VMs), `vmssflex` (flexible scale sets).'),
  supported('disableAvailabilitySetNodes', 'boolean', 'false', 'With vmType=vmss: nodes are only uniform scale-set VMs (no VM lists).'),
  supported('enableVmssFlexNodes', 'boolean', 'false', 'With vmType=vmss: accepted; flexible scale-set VMs are found with the resource group\'s VMs either way.'),
  notSupported('useInstanceMetadata', 'boolean', 'false', 'The instance metadata service is not used; every node is looked up through ARM.'),
  notSupported('loadBalancerSku', 'string', 'standard', 'Only the Standard SKU is offered: load balancers and public IPs are Standard whatever this says.'),
  supported('loadBalancerName', 'string', '', 'Name of the cluster load balancer (internal: `<name>-internal`); default the cluster name (`--cluster-name`).'),
  supported('loadBalancerResourceGroup', 'string', '', 'Resource group of the load balancers (default resourceGroup).'),
  supported('excludeMasterFromStandardLB', 'boolean', 'true', 'Nodes labelled `node-role.kubernetes.io/control-plane` or `/master` stay out of the backend pool.'),
  supported('disableOutboundSNAT', 'boolean', 'false', '`true`: the external load-balancing rules have `disableOutboundSnat` set.'),
  supported('maximumLoadBalancerRuleCount', 'integer', '250', 'A Service whose rules would take a load balancer past this count fails (an error event) and nothing is written.'),
  notSupported('preConfiguredBackendPoolLoadBalancerTypes', 'string', '', 'The backend pool is always filled by this provider.'),
  supported(
    'loadBalancerBackendPoolConfigurationType',
    'string',
    'nodeIPConfiguration',
    'How nodes join the backend pools `<cluster>` and `<cluster>-IPv6` (any case): `nodeIPConfiguration`, their NIC and scale-set IP configurations; `nodeIP`, their InternalIP addresses (`loadBalancerBackendAddresses`, the pool naming the virtual network of `vnetName` in `vnetResourceGroup`), NICs a pool held leaving it first. `podIP` is not supported (the start stops naming this key); any other value is an error.',
  ),
  notSupported('enableMigrateToIPBasedBackendPoolAPI', 'boolean', 'false', 'The ARM migration API is not called: moving a pool to `nodeIP` takes the NICs out one by one (upstream does the same when this is false).'),
  notSupported('putVMSSVMBatchSize', 'integer', '0', 'Scale-set VMs are updated one by one.'),
  notSupported('privateLinkServiceResourceGroup', 'string', '', 'Private Link services are not offered.'),
  supported('tags', 'string', '', 'Tags `k=v,k2=v2` put on the route table, load balancers and public IPs the provider creates.'),
  supported('tagsMap', 'string-map', '', 'Tags (a map) put on the route table, load balancers and public IPs the provider creates; merged over `tags`.'),
  notSupported('systemTags', 'string', '', 'Tags are only written on creation here, never removed.'),
  notSupported('enableIPTagMutationForExistingPublicIP', 'boolean', 'false', 'IP tags are set when a public IP is created, never changed.'),
  notSupported('multipleStandardLoadBalancerConfigurations', 'array', '', 'One load balancer per kind (external, internal) serves every Service.'),
  notSupported('routeUpdateIntervalInSeconds', 'integer', '30', 'Routes are written one by one as the route controller asks, not batched.'),
  notSupported('loadBalancerBackendPoolUpdateIntervalInSeconds', 'integer', '30', 'The backend pool is updated when the service controller calls (node changes), not batched.'),
  notSupported('routeUpdateWaitingInSeconds', 'integer', '30', 'Routes are written one by one as the route controller asks, not batched.'),
  notSupported('clusterServiceLoadBalancerHealthProbeMode', 'string', 'servicenodeport', 'Only `servicenodeport` probes (per Service port) are implemented.'),
  notSupported('clusterServiceSharedLoadBalancerHealthProbePort', 'integer', '10256', 'The shared probe mode is not implemented.'),
  notSupported('clusterServiceSharedLoadBalancerHealthProbePath', 'string', '/healthz', 'The shared probe mode is not implemented.'),
  notSupported('serviceGatewayEnabled', 'boolean', 'false', 'The service gateway is not offered.'),
  supported('nodeInstanceNotFoundGracePeriodInSeconds', 'integer', '0', 'A node created less than this many seconds ago exists even when its VM is not found yet (ARM can list a new VM late; upstream #10604). 0: off.'),
  // Backoff and rate limits
  notSupported('cloudProviderBackoff', 'boolean', 'false', `Retries are always on: ${BUDGET_NOTE}.`),
  notSupported('cloudProviderBackoffRetries', 'integer', '6', `Replaced by the budget's attempts: ${BUDGET_NOTE}.`),
  notSupported('cloudProviderBackoffExponent', 'number', '1.5', `Replaced by the budget's backoff: ${BUDGET_NOTE}.`),
  notSupported('cloudProviderBackoffDuration', 'integer', '5', `Replaced by the budget's backoff: ${BUDGET_NOTE}.`),
  notSupported('cloudProviderBackoffJitter', 'number', '1.0', `Replaced by the budget's backoff: ${BUDGET_NOTE}.`),
  notSupported('enableMinimumRetryAfter', 'boolean', 'false', `Retry-After is always honoured: ${BUDGET_NOTE}.`),
  notSupported('cloudProviderRateLimit', 'boolean', 'false', `Replaced by the budget: ${BUDGET_NOTE}.`),
  notSupported('cloudProviderRateLimitQPS', 'number', '1', `Replaced by the budget: ${BUDGET_NOTE}.`),
  notSupported('cloudProviderRateLimitBucket', 'integer', '5', `Replaced by the budget: ${BUDGET_NOTE}.`),
  notSupported('cloudProviderRateLimitQPSWrite', 'number', '1', `Replaced by the budget: ${BUDGET_NOTE}.`),
  notSupported('cloudProviderRateLimitBucketWrite', 'integer', '5', `Replaced by the budget: ${BUDGET_NOTE}.`),
  ...RATE_LIMIT_CLIENTS.map((name) => notSupported(name, 'object', '', `Per-client rate limits are replaced by the budget: ${BUDGET_NOTE}.`)),
  // Caches
  supported('vmCacheTTLInSeconds', 'integer', '60', 'Refresh period of the cached VM, NIC and public IP lists of a resource group.'),
  notSupported('loadBalancerCacheTTLInSeconds', 'integer', '120', 'Load balancers are read fresh for every reconcile (their etag guards the write).'),
  notSupported('nsgCacheTTLInSeconds', 'integer', '120', 'The security group is read fresh for every reconcile (its etag guards the write).'),
  supported('routeTableCacheTTLInSeconds', 'integer', '120', 'Accepted; the route table is read fresh for every route listing (one GET per route-controller sync).'),
  notSupported('publicIPCacheTTLInSeconds', 'integer', '120', 'Public IPs of nodes come from the resource group\'s cached list (vmCacheTTLInSeconds).'),
  notSupported('plsCacheTTLInSeconds', 'integer', '120', 'Private Link services are not offered.'),
  notSupported('availabilitySetsCacheTTLInSeconds', 'integer', '600', 'Availability sets are not listed: their VMs come with the resource group\'s VM list.'),
  supported('vmssCacheTTLInSeconds', 'integer', '600', 'Refresh period of the cached scale-set list of a resource group.'),
  supported('vmssVirtualMachinesCacheTTLInSeconds', 'integer', '600', 'Refresh period of the cached VM and NIC lists of a uniform scale set.'),
  notSupported('vmssFlexCacheTTLInSeconds', 'integer', '600', 'Flexible scale-set VMs come with the resource group\'s VM list (vmCacheTTLInSeconds).'),
  notSupported('vmssFlexVMCacheTTLInSeconds', 'integer', '600', 'Flexible scale-set VMs come with the resource group\'s VM list (vmCacheTTLInSeconds).'),
  notSupported('nonVmssUniformNodesCacheTTLInSeconds', 'integer', '900', 'Nodes are classified from the cached lists themselves.'),
  supported('disableAPICallCache', 'boolean', 'false', 'Every lookup lists again (no cached lists).'),
  notSupported('listVmssVirtualMachinesWithoutInstanceView', 'boolean', 'false', 'Scale-set VMs are always listed with instance views (power state).'),
];

export const AZURE_CONFIG_KEYS_BY_NAME: ReadonlyMap<string, ConfigKeySpec> = new Map(AZURE_CONFIG_KEYS.map((key) => [key.name, key]));
