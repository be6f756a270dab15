/**
 * The load-balancing part of the Network port over `@azure/arm-network`: load balancers, public
 * IPs and security groups in the provider's types. Writes send the etag read as `If-Match`
 * (arm-network 36 has no `ifMatch` option: a custom header) and wait for the long-running
 * operation with the SDK's poller.
 */
import type { BackendAddressPool, LoadBalancer, NetworkManagementClient, NetworkSecurityGroup, PublicIPAddress, SecurityRule } from '@azure/arm-network';
import type { AzureBackendAddressPool, AzureLoadBalancer, AzureProbeProtocol, AzurePublicIp, AzureSecurityGroup, AzureSecurityRule, AzureTransportProtocol, NetworkPort } from '../network-port.js';
import { pollSimplePoller } from './lro-poll-interval.js';
import { callAzure, toAzureApiError } from './sdk-errors.js';

/** `requestOptions` carrying `If-Match: <etag>` when there is one. */
export function ifMatchOptions(etag: string | undefined): { requestOptions?: { customHeaders: Record<string, string> } } {
  return etag === undefined || etag === '' ? {} : { requestOptions: { customHeaders: { 'If-Match': etag } } };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

function lastSegment(id: string | undefined): string {
  return (id ?? '').split('/').filter((part) => part !== '').pop() ?? '';
}

export function loadBalancerOf(balancer: LoadBalancer): AzureLoadBalancer {
  return {
    name: balancer.name ?? '',
    ...(balancer.id === undefined ? {} : { id: balancer.id }),
    location: balancer.location ?? '',
    ...(balancer.etag === undefined ? {} : { etag: balancer.etag }),
    sku: balancer.sku?.name === 'Basic' ? 'Basic' : 'Standard',
    tags: { ...balancer.tags },
    frontendIpConfigurations: (balancer.frontendIPConfigurations ?? []).map((frontend) => ({
      name: frontend.name ?? '',
      ...(frontend.id === undefined ? {} : { id: frontend.id }),
      ...(frontend.publicIPAddress?.id === undefined ? {} : { publicIpAddressId: frontend.publicIPAddress.id }),
      ...(frontend.subnet?.id === undefined ? {} : { subnetId: frontend.subnet.id }),
      ...(frontend.privateIPAddress === undefined ? {} : { privateIpAddress: frontend.privateIPAddress }),
      ...(frontend.privateIPAllocationMethod === undefined ? {} : { privateIpAllocationMethod: frontend.privateIPAllocationMethod === 'Static' ? 'Static' : 'Dynamic' }),
      ...(frontend.privateIPAddressVersion === undefined ? {} : { privateIpAddressVersion: frontend.privateIPAddressVersion === 'IPv6' ? 'IPv6' : 'IPv4' }),
    })),
    backendAddressPools: (balancer.backendAddressPools ?? []).map(backendAddressPoolOf),
    probes: (balancer.probes ?? []).map((probe) => ({
      name: probe.name ?? '',
      protocol: (probe.protocol ?? 'Tcp') as AzureProbeProtocol,
      port: probe.port ?? 0,
      ...(probe.requestPath === undefined ? {} : { requestPath: probe.requestPath }),
      intervalInSeconds: probe.intervalInSeconds ?? 5,
      probeThreshold: probe.probeThreshold ?? probe.numberOfProbes ?? 2,
    })),
    loadBalancingRules: (balancer.loadBalancingRules ?? []).map((rule) => ({
      name: rule.name ?? '',
      frontendIpConfigurationName: lastSegment(rule.frontendIPConfiguration?.id),
      backendAddressPoolName: lastSegment(rule.backendAddressPool?.id),
      ...(rule.probe?.id === undefined ? {} : { probeName: lastSegment(rule.probe.id) }),
      protocol: (rule.protocol ?? 'Tcp') as AzureTransportProtocol,
      frontendPort: rule.frontendPort ?? 0,
      backendPort: rule.backendPort ?? 0,
      enableFloatingIp: rule.enableFloatingIP === true,
      idleTimeoutInMinutes: rule.idleTimeoutInMinutes ?? 4,
      enableTcpReset: rule.enableTcpReset === true,
      loadDistribution: (rule.loadDistribution ?? 'Default') as 'Default' | 'SourceIP' | 'SourceIPProtocol',
      disableOutboundSnat: rule.disableOutboundSnat === true,
    })),
    preserved: { outboundRules: balancer.outboundRules, inboundNatRules: balancer.inboundNatRules, inboundNatPools: balancer.inboundNatPools },
  };
}

export function backendAddressPoolOf(pool: BackendAddressPool): AzureBackendAddressPool {
  const addresses = (pool.loadBalancerBackendAddresses ?? []).filter((address) => address.ipAddress !== undefined && address.ipAddress !== '');
  // Upstream once put the virtual network on each address (`ReconcileBackendPools` moves it to the pool): either is read.
  const virtualNetworkId = pool.virtualNetwork?.id ?? (pool.loadBalancerBackendAddresses ?? []).find((address) => address.virtualNetwork?.id !== undefined)?.virtualNetwork?.id;
  return {
    name: pool.name ?? '',
    ...(pool.id === undefined ? {} : { id: pool.id }),
    backendIpConfigurationIds: (pool.backendIPConfigurations ?? []).map((member) => member.id ?? '').filter((id) => id !== ''),
    ...(virtualNetworkId === undefined ? {} : { virtualNetworkId }),
    // ARM lists a NIC pool's members as addresses too (`networkInterfaceIPConfiguration`, no IP): such a pool is not IP-based, and its body carries no addresses.
    ...(addresses.length === 0 && virtualNetworkId === undefined ? {} : { backendAddresses: addresses.map((address) => ({ name: address.name ?? '', ipAddress: address.ipAddress ?? '' })) }),
  };
}

/** A pool as written: its name, and for an IP-based pool its virtual network and addresses (NIC members are set on the NICs). */
export function backendAddressPoolBody(pool: AzureBackendAddressPool): BackendAddressPool {
  return {
    name: pool.name,
    ...(pool.virtualNetworkId === undefined ? {} : { virtualNetwork: { id: pool.virtualNetworkId } }),
    ...(pool.backendAddresses === undefined ? {} : { loadBalancerBackendAddresses: pool.backendAddresses.map((address) => ({ name: address.name, ipAddress: address.ipAddress })) }),
  };
}

function loadBalancerBody(subscriptionId: string, resourceGroup: string, balancer: AzureLoadBalancer): LoadBalancer {
  const id = `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}/providers/Microsoft.Network/loadBalancers/${balancer.name}`;
  const preserved = (balancer.preserved ?? {}) as Pick<LoadBalancer, 'outboundRules' | 'inboundNatRules' | 'inboundNatPools'>;
  return {
    location: balancer.location,
    tags: balancer.tags,
    sku: { name: balancer.sku, tier: 'Regional' },
    frontendIPConfigurations: balancer.frontendIpConfigurations.map((frontend) => ({
      name: frontend.name,
      ...(frontend.publicIpAddressId === undefined ? {} : { publicIPAddress: { id: frontend.publicIpAddressId } }),
      ...(frontend.subnetId === undefined ? {} : { subnet: { id: frontend.subnetId } }),
      ...(frontend.privateIpAddress === undefined || frontend.privateIpAllocationMethod !== 'Static' ? {} : { privateIPAddress: frontend.privateIpAddress }),
      ...(frontend.subnetId === undefined ? {} : { privateIPAllocationMethod: frontend.privateIpAllocationMethod ?? 'Dynamic', privateIPAddressVersion: frontend.privateIpAddressVersion ?? 'IPv4' }),
    })),
    // An IP-based pool's addresses are part of the load balancer: written back as read.
    backendAddressPools: balancer.backendAddressPools.map(backendAddressPoolBody),
    probes: balancer.probes.map((probe) => ({
      name: probe.name,
      protocol: probe.protocol,
      port: probe.port,
      ...(probe.requestPath === undefined ? {} : { requestPath: probe.requestPath }),
      intervalInSeconds: probe.intervalInSeconds,
      probeThreshold: probe.probeThreshold,
      numberOfProbes: probe.probeThreshold,
    })),
    loadBalancingRules: balancer.loadBalancingRules.map((rule) => ({
      name: rule.name,
      frontendIPConfiguration: { id: `${id}/frontendIPConfigurations/${rule.frontendIpConfigurationName}` },
      backendAddressPool: { id: `${id}/backendAddressPools/${rule.backendAddressPoolName}` },
      ...(rule.probeName === undefined ? {} : { probe: { id: `${id}/probes/${rule.probeName}` } }),
      protocol: rule.protocol,
      frontendPort: rule.frontendPort,
      backendPort: rule.backendPort,
      enableFloatingIP: rule.enableFloatingIp,
      idleTimeoutInMinutes: rule.idleTimeoutInMinutes,
      enableTcpReset: rule.enableTcpReset,
      loadDistribution: rule.loadDistribution,
      disableOutboundSnat: rule.disableOutboundSnat,
    })),
    ...(preserved.outboundRules === undefined ? {} : { outboundRules: preserved.outboundRules }),
    ...(preserved.inboundNatRules === undefined ? {} : { inboundNatRules: preserved.inboundNatRules }),
    ...(preserved.inboundNatPools === undefined ? {} : { inboundNatPools: preserved.inboundNatPools }),
  };
}

export function publicIpOf(address: PublicIPAddress): AzurePublicIp {
  return {
    name: address.name ?? '',
    ...(address.id === undefined ? {} : { id: address.id }),
    location: address.location ?? '',
    ...(address.etag === undefined ? {} : { etag: address.etag }),
    tags: { ...address.tags },
    version: address.publicIPAddressVersion === 'IPv6' ? 'IPv6' : 'IPv4',
    ipAddress: address.ipAddress ?? '',
    ...(address.dnsSettings?.domainNameLabel === undefined || address.dnsSettings.domainNameLabel === '' ? {} : { domainNameLabel: address.dnsSettings.domainNameLabel }),
    ipTags: (address.ipTags ?? []).map((tag) => ({ ipTagType: tag.ipTagType ?? '', tag: tag.tag ?? '' })),
    ...(address.ipConfiguration?.id === undefined ? {} : { ipConfigurationId: address.ipConfiguration.id }),
  };
}

function publicIpBody(address: AzurePublicIp): PublicIPAddress {
  return {
    location: address.location,
    tags: address.tags,
    sku: { name: 'Standard', tier: 'Regional' },
    publicIPAllocationMethod: 'Static',
    publicIPAddressVersion: address.version,
    ...(address.domainNameLabel === undefined ? {} : { dnsSettings: { domainNameLabel: address.domainNameLabel } }),
    ...(address.ipTags.length === 0 ? {} : { ipTags: address.ipTags }),
  };
}

/** Both spellings of a prefix list (`x` and `xs`) as one list. */
function both(single: string | undefined, many: string[] | undefined): string[] {
  return [...(single === undefined || single === '' ? [] : [single]), ...(many ?? [])];
}

function securityRuleOf(rule: SecurityRule): AzureSecurityRule {
  return {
    name: rule.name ?? '',
    priority: rule.priority ?? 0,
    direction: rule.direction === 'Outbound' ? 'Outbound' : 'Inbound',
    access: rule.access === 'Deny' ? 'Deny' : 'Allow',
    protocol: (rule.protocol === 'Tcp' || rule.protocol === 'Udp' ? rule.protocol : '*') as AzureSecurityRule['protocol'],
    sourcePortRange: rule.sourcePortRange ?? '*',
    sourceAddressPrefixes: both(rule.sourceAddressPrefix, rule.sourceAddressPrefixes),
    destinationAddressPrefixes: both(rule.destinationAddressPrefix, rule.destinationAddressPrefixes),
    destinationPortRanges: both(rule.destinationPortRange, rule.destinationPortRanges),
  };
}

/** One value goes in the singular property, several in the plural one (as ARM returns them). */
function spread(list: string[], single: string, many: string): Record<string, unknown> {
  return list.length === 1 ? { [single]: list[0] } : { [many]: list };
}

function securityRuleBody(rule: AzureSecurityRule): SecurityRule {
  return {
    name: rule.name,
    priority: rule.priority,
    direction: rule.direction,
    access: rule.access,
    protocol: rule.protocol,
    sourcePortRange: rule.sourcePortRange,
    ...spread(rule.sourceAddressPrefixes, 'sourceAddressPrefix', 'sourceAddressPrefixes'),
    ...spread(rule.destinationAddressPrefixes, 'destinationAddressPrefix', 'destinationAddressPrefixes'),
    ...spread(rule.destinationPortRanges, 'destinationPortRange', 'destinationPortRanges'),
  };
}

export function securityGroupOf(group: NetworkSecurityGroup): AzureSecurityGroup {
  return {
    name: group.name ?? '',
    location: group.location ?? '',
    ...(group.etag === undefined ? {} : { etag: group.etag }),
    tags: { ...group.tags },
    securityRules: (group.securityRules ?? []).map(securityRuleOf),
  };
}

type LoadBalancingMethods = Pick<
  NetworkPort,
  'getLoadBalancer' | 'putLoadBalancer' | 'putBackendAddressPool' | 'deleteLoadBalancer' | 'getPublicIp' | 'listPublicIps' | 'putPublicIp' | 'deletePublicIp' | 'getSecurityGroup' | 'putSecurityGroup'
>;

/** The result of a write's long-running operation; ARM always answers a PUT with the resource. */
function written<T>(operation: string, result: T | undefined): T {
  if (result === undefined) throw new Error(`${operation}: the long-running operation ended without the resource`);
  return result;
}

async function deleteIgnoringNotFound(operation: string, remove: () => Promise<unknown>): Promise<void> {
  try {
    await remove();
  } catch (error) {
    const typed = toAzureApiError(error, operation);
    if (typed.kind === 'NotFound') return;
    throw typed;
  }
}

export function createSdkLoadBalancingPort(client: NetworkManagementClient): LoadBalancingMethods {
  const poll = (signal: AbortSignal | undefined) => ({ abortSignal: signal });
  return {
    getLoadBalancer: (resourceGroup, name, options) =>
      callAzure('network.getLoadBalancer', async () => loadBalancerOf(await client.loadBalancers.get(resourceGroup, name, { abortSignal: options?.signal }))),
    putLoadBalancer: (resourceGroup, balancer, condition, options) =>
      callAzure('network.putLoadBalancer', async () =>
        loadBalancerOf(
          written(
            'network.putLoadBalancer',
            await pollSimplePoller(
              await client.loadBalancers.beginCreateOrUpdate(resourceGroup, balancer.name, loadBalancerBody(client.subscriptionId ?? '', resourceGroup, balancer), {
                ...ifMatchOptions(condition.ifMatch),
                ...poll(options?.signal),
              }),
              options?.signal,
            ),
          ),
        ),
      ),
    putBackendAddressPool: (resourceGroup, loadBalancerName, pool, condition, options) =>
      callAzure('network.putBackendAddressPool', async () =>
        backendAddressPoolOf(
          written(
            'network.putBackendAddressPool',
            await pollSimplePoller(
              await client.loadBalancerBackendAddressPools.beginCreateOrUpdate(resourceGroup, loadBalancerName, pool.name, backendAddressPoolBody(pool), {
                ...ifMatchOptions(condition.ifMatch),
                ...poll(options?.signal),
              }),
              options?.signal,
            ),
          ),
        ),
      ),
    deleteLoadBalancer: (resourceGroup, name, options) =>
      deleteIgnoringNotFound('network.deleteLoadBalancer', async () => pollSimplePoller(await client.loadBalancers.beginDelete(resourceGroup, name, poll(options?.signal)), options?.signal)),
    getPublicIp: (resourceGroup, name, options) =>
      callAzure('network.getPublicIp', async () => publicIpOf(await client.publicIPAddresses.get(resourceGroup, name, { abortSignal: options?.signal }))),
    listPublicIps: (resourceGroup, options) =>
      callAzure('network.listPublicIps', async () => (await collect(client.publicIPAddresses.list(resourceGroup, { abortSignal: options?.signal }))).map(publicIpOf)),
    putPublicIp: (resourceGroup, address, condition, options) =>
      callAzure('network.putPublicIp', async () =>
        publicIpOf(
          written(
            'network.putPublicIp',
            await pollSimplePoller(await client.publicIPAddresses.beginCreateOrUpdate(resourceGroup, address.name, publicIpBody(address), { ...ifMatchOptions(condition.ifMatch), ...poll(options?.signal) }), options?.signal),
          ),
        ),
      ),
    deletePublicIp: (resourceGroup, name, options) =>
      deleteIgnoringNotFound('network.deletePublicIp', async () => pollSimplePoller(await client.publicIPAddresses.beginDelete(resourceGroup, name, poll(options?.signal)), options?.signal)),
    getSecurityGroup: (resourceGroup, name, options) =>
      callAzure('network.getSecurityGroup', async () => securityGroupOf(await client.networkSecurityGroups.get(resourceGroup, name, { abortSignal: options?.signal }))),
    putSecurityGroup: (resourceGroup, group, condition, options) =>
      callAzure('network.putSecurityGroup', async () => {
        // The group is read whole and written whole: what this provider does not model (subnet
        // and NIC associations are read-only back-references) is not part of the body.
        const current = await client.networkSecurityGroups.get(resourceGroup, group.name, { abortSignal: options?.signal });
        const body: NetworkSecurityGroup = { ...current, tags: group.tags, securityRules: group.securityRules.map(securityRuleBody) };
        const poller = await client.networkSecurityGroups.beginCreateOrUpdate(resourceGroup, group.name, body, { ...ifMatchOptions(condition.ifMatch), ...poll(options?.signal) });
        return securityGroupOf(written('network.putSecurityGroup', await pollSimplePoller(poller, options?.signal)));
      }),
  };
}
