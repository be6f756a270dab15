/**
 * A Service's load balancing on Azure (upstream `reconcileService`): its public IP (external),
 * its frontend, rules and probes on the cluster load balancer `<name>` or `<name>-internal`, the
 * backend pool `<cluster>` filled with the nodes, the shared security rules on the cluster
 * security group, then the other kind's load balancer and the public IPs it no longer uses
 * cleaned. Deleting removes only what the Service owns; a load balancer left without frontends
 * is deleted (its pool emptied first), a public IP is deleted when no Service is tagged on it.
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import type { Logger } from '@ccm/core/logging';
import { PermanentInvalidServiceConfigurationError, type CloudCallOptions, type LoadBalancerStatus } from '@ccm/core/provider';
import { ANNOTATION_PREFIX, ANNOTATIONS, internalSubnetOf, readServiceLoadBalancerOptions, wantsInternalLoadBalancer, type ServiceLoadBalancerOptions } from '../../annotations.js';
import { CloudStateError, isAzureErrorKind } from '../../errors.js';
import type { AzureVirtualMachine } from '../../ports/compute-port.js';
import type { AzureFrontendIpConfiguration, AzureLoadBalancer, AzurePublicIp, AzureSecurityGroup, NetworkPort } from '../../ports/network-port.js';
import type { BackendPoolOperations } from './backend-pool-operations.js';
import { withEtagRetry } from './etag-retry.js';
import { frontendNameOf, loadBalancerNameOf, ownedBy, publicIpNameOf, serviceBaseName, serviceKey } from './load-balancer-names.js';
import { planLoadBalancer } from './plan-load-balancer.js';
import { planPublicIp, planPublicIpRelease, publicIpRefusal, servicesOf, type PublicIpRefusal } from './plan-public-ip.js';
import { planSecurityRules } from './plan-security-rules.js';
import { buildServiceLoadBalancerSpec, type ServiceLoadBalancerSpec } from './service-load-balancer-spec.js';

export interface ServiceLoadBalancerSettings {
  subscriptionId: string;
  /** `loadBalancerResourceGroup`, else `resourceGroup`. */
  loadBalancerResourceGroup: string;
  /** `resourceGroup`: default resource group of public IPs. */
  resourceGroup: string;
  location: string;
  /** `loadBalancerName`; '' = the cluster name. */
  loadBalancerName: string;
  vnetName: string;
  vnetResourceGroup: string;
  subnetName: string;
  securityGroupName: string;
  securityGroupResourceGroup: string;
  tags: Record<string, string>;
  maximumLoadBalancerRuleCount: number;
  disableOutboundSnat: boolean;
}

/** Finds the VMs of the nodes that belong in the backend pool. */
export type NodeVirtualMachines = (nodes: readonly V1Node[], options?: CloudCallOptions) => Promise<AzureVirtualMachine[]>;

interface Names {
  clusterName: string;
  base: string;
  key: string;
  loadBalancerName: string;
  otherLoadBalancerName: string;
  poolName: string;
}

export class ServiceLoadBalancerOperations {
  readonly #network: NetworkPort;
  readonly #pools: BackendPoolOperations;
  readonly #settings: ServiceLoadBalancerSettings;
  readonly #virtualMachinesOf: NodeVirtualMachines;
  readonly #logger: Logger;

  constructor(dependencies: { network: NetworkPort; pools: BackendPoolOperations; settings: ServiceLoadBalancerSettings; virtualMachinesOf: NodeVirtualMachines; logger: Logger }) {
    this.#network = dependencies.network;
    this.#pools = dependencies.pools;
    this.#settings = dependencies.settings;
    this.#virtualMachinesOf = dependencies.virtualMachinesOf;
    this.#logger = dependencies.logger;
  }

  /** The cluster load balancer's name for the Service's kind. */
  loadBalancerName(clusterName: string, service: V1Service): string {
    return loadBalancerNameOf(this.#settings.loadBalancerName || clusterName, wantsInternalLoadBalancer(service));
  }

  async ensure(clusterName: string, service: V1Service, nodes: readonly V1Node[], options?: CloudCallOptions): Promise<LoadBalancerStatus> {
    // Every annotation is checked before the first cloud call.
    const parsed = readServiceLoadBalancerOptions(service);
    const names = this.#names(clusterName, service, parsed.internal);
    const spec = buildServiceLoadBalancerSpec(service, parsed, { poolName: names.poolName, disableOutboundSnat: this.#settings.disableOutboundSnat });
    const previousAddresses = await this.#serviceAddresses(names, options);
    const publicIp = parsed.internal ? undefined : await this.#ensurePublicIp(names, service, parsed, options);
    const frontend = this.#frontendOf(spec, parsed, publicIp);
    const balancer = await this.#reconcileLoadBalancer(names.loadBalancerName, names, spec, frontend, options);
    if (balancer === undefined) throw new CloudStateError(`load balancer ${names.loadBalancerName} is missing after its write`);
    const address = this.#addressOf(balancer, spec.frontendName, publicIp);
    if (address === undefined || address === '') throw new CloudStateError(`frontend ${spec.frontendName} of load balancer ${names.loadBalancerName} has no address yet`);
    await this.#reconcilePool(balancer, names.poolName, await this.#virtualMachinesOf(nodes, options), options);
    await this.#reconcileSecurityGroup(previousAddresses, address, spec, options);
    // The other kind's load balancer (the Service switched between internal and external).
    await this.#removeFromLoadBalancer(names.otherLoadBalancerName, names, options);
    await this.#releasePublicIps(names, publicIp?.name, this.#publicIpResourceGroup(parsed), options);
    return { ingress: [{ ip: address }] };
  }

  async update(clusterName: string, service: V1Service, nodes: readonly V1Node[], options?: CloudCallOptions): Promise<void> {
    readServiceLoadBalancerOptions(service);
    const names = this.#names(clusterName, service, wantsInternalLoadBalancer(service));
    const balancer = await this.#read(() => this.#network.getLoadBalancer(this.#settings.loadBalancerResourceGroup, names.loadBalancerName, options));
    if (balancer === undefined) return;
    await this.#reconcilePool(balancer, names.poolName, await this.#virtualMachinesOf(nodes, options), options);
  }

  async delete(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<void> {
    const names = this.#names(clusterName, service, wantsInternalLoadBalancer(service));
    await this.#reconcileSecurityGroup(await this.#serviceAddresses(names, options), undefined, undefined, options);
    await this.#removeFromLoadBalancer(names.loadBalancerName, names, options);
    await this.#removeFromLoadBalancer(names.otherLoadBalancerName, names, options);
    const annotated = service.metadata?.annotations?.[ANNOTATIONS.resourceGroup.key]?.trim();
    await this.#releasePublicIps(names, undefined, annotated === undefined || annotated === '' ? this.#settings.resourceGroup : annotated, options);
  }

  async status(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<LoadBalancerStatus | undefined> {
    const names = this.#names(clusterName, service, wantsInternalLoadBalancer(service));
    const balancer = await this.#read(() => this.#network.getLoadBalancer(this.#settings.loadBalancerResourceGroup, names.loadBalancerName, options));
    const frontend = balancer?.frontendIpConfigurations.find((item) => item.name === frontendNameOf(names.base, internalSubnetOf(service)));
    if (frontend === undefined) return undefined;
    const address = await this.#frontendAddress(frontend, options);
    return address ? { ingress: [{ ip: address }] } : undefined;
  }

  /** The addresses of the Service's frontends on both load balancers (their security rules are the Service's). */
  async #serviceAddresses(names: Names, options?: CloudCallOptions): Promise<string[]> {
    const addresses: string[] = [];
    for (const name of [names.loadBalancerName, names.otherLoadBalancerName]) {
      const balancer = await this.#read(() => this.#network.getLoadBalancer(this.#settings.loadBalancerResourceGroup, name, options));
      for (const frontend of balancer?.frontendIpConfigurations.filter((item) => ownedBy(names.base, item.name)) ?? []) {
        const address = await this.#frontendAddress(frontend, options);
        if (address) addresses.push(address);
      }
    }
    return addresses;
  }

  #names(clusterName: string, service: V1Service, internal: boolean): Names {
    const clusterLoadBalancer = this.#settings.loadBalancerName || clusterName;
    return {
      clusterName,
      base: serviceBaseName(service),
      key: serviceKey(service),
      loadBalancerName: loadBalancerNameOf(clusterLoadBalancer, internal),
      otherLoadBalancerName: loadBalancerNameOf(clusterLoadBalancer, !internal),
      poolName: clusterName,
    };
  }

  async #read<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      if (isAzureErrorKind(error, 'NotFound')) return undefined;
      throw error;
    }
  }

  #publicIpResourceGroup(parsed: ServiceLoadBalancerOptions): string {
    return parsed.publicIpResourceGroup ?? this.#settings.resourceGroup;
  }

  /** The Service's public IP: a user's (by address or name, left as it is) or one this provider manages (created, tagged). */
  async #ensurePublicIp(names: Names, service: V1Service, parsed: ServiceLoadBalancerOptions, options?: CloudCallOptions): Promise<AzurePublicIp> {
    const resourceGroup = this.#publicIpResourceGroup(parsed);
    if (parsed.requestedIp !== undefined) {
      const found = (await this.#network.listPublicIps(resourceGroup, options)).find((candidate) => candidate.ipAddress === parsed.requestedIp);
      if (found === undefined) throw new CloudStateError(`no public IP with address ${parsed.requestedIp} in resource group ${resourceGroup} (the Service asks for it)`);
      if (found.ipConfigurationId !== undefined && !found.ipConfigurationId.toLowerCase().includes(`/frontendipconfigurations/${names.base.toLowerCase()}`)) {
        throw new CloudStateError(`public IP ${found.name} (${parsed.requestedIp}) is in use by ${found.ipConfigurationId}`);
      }
      return found;
    }
    const name = parsed.publicIpName ?? publicIpNameOf(names.clusterName, names.base);
    return withEtagRetry(async () => {
      const existing = await this.#read(() => this.#network.getPublicIp(resourceGroup, name, options));
      // A public IP named by the annotation that no Service is tagged on is the user's: used as it is.
      if (existing !== undefined && servicesOf(existing).length === 0 && parsed.publicIpName !== undefined) return existing;
      const refusal = publicIpRefusal(existing, { serviceKey: names.key, clusterName: names.clusterName, ...(parsed.dnsLabelName === undefined ? {} : { dnsLabelName: parsed.dnsLabelName }) });
      if (refusal !== undefined) throw this.#publicIpRefused(refusal, parsed);
      const plan = planPublicIp(existing, {
        name,
        location: this.#settings.location,
        serviceKey: names.key,
        clusterName: names.clusterName,
        configTags: this.#settings.tags,
        extraTags: parsed.publicIpTags,
        ipTags: parsed.publicIpIpTags,
        ...(parsed.dnsLabelName === undefined ? {} : { dnsLabelName: parsed.dnsLabelName }),
      });
      if (!plan.changed && existing !== undefined) return existing;
      this.#logger.info(existing === undefined ? 'creating public IP' : 'updating public IP', { service: names.key, resourceGroup, publicIp: name });
      return this.#network.putPublicIp(resourceGroup, plan.publicIp, existing?.etag === undefined ? {} : { ifMatch: existing.etag }, options);
    });
  }

  /**
   * Another Service's or cluster's public IP, or a DNS label another Service set, is refused with
   * nothing written (a Warning event naming the annotation); the names come from annotations, so
   * anyone who may create a Service could otherwise take over another's address.
   */
  #publicIpRefused(refusal: PublicIpRefusal, parsed: ServiceLoadBalancerOptions): Error {
    const annotation = refusal.reason === 'dns-label-in-use' ? `${ANNOTATION_PREFIX}azure-dns-label-name` : `${ANNOTATION_PREFIX}azure-pip-name`;
    const value = refusal.reason === 'dns-label-in-use' ? parsed.dnsLabelName : parsed.publicIpName;
    if (value === undefined) return new CloudStateError(refusal.message);
    return new PermanentInvalidServiceConfigurationError(`annotation ${annotation}=${JSON.stringify(value)}: ${refusal.message}`, { annotation, value });
  }

  #frontendOf(spec: ServiceLoadBalancerSpec, parsed: ServiceLoadBalancerOptions, publicIp: AzurePublicIp | undefined): AzureFrontendIpConfiguration {
    if (publicIp !== undefined) return { name: spec.frontendName, publicIpAddressId: publicIp.id ?? '' };
    const subnet = parsed.internalSubnet ?? this.#settings.subnetName;
    const subnetId = `/subscriptions/${this.#settings.subscriptionId}/resourceGroups/${this.#settings.vnetResourceGroup}/providers/Microsoft.Network/virtualNetworks/${this.#settings.vnetName}/subnets/${subnet}`;
    return parsed.requestedIp === undefined
      ? { name: spec.frontendName, subnetId, privateIpAllocationMethod: 'Dynamic', privateIpAddressVersion: 'IPv4' }
      : { name: spec.frontendName, subnetId, privateIpAllocationMethod: 'Static', privateIpAddress: parsed.requestedIp, privateIpAddressVersion: 'IPv4' };
  }

  async #reconcileLoadBalancer(name: string, names: Names, spec: ServiceLoadBalancerSpec, frontend: AzureFrontendIpConfiguration, options?: CloudCallOptions): Promise<AzureLoadBalancer | undefined> {
    const resourceGroup = this.#settings.loadBalancerResourceGroup;
    return withEtagRetry(async () => {
      const existing = await this.#read(() => this.#network.getLoadBalancer(resourceGroup, name, options));
      const plan = planLoadBalancer(existing, { name, location: this.#settings.location, tags: this.#settings.tags, poolName: names.poolName }, spec, frontend, this.#settings.maximumLoadBalancerRuleCount);
      if (plan.action !== 'put') return plan.loadBalancer;
      this.#logger.info(existing === undefined ? 'creating load balancer' : 'updating load balancer', { service: names.key, loadBalancer: name, rules: spec.rules.map((rule) => rule.name) });
      return this.#network.putLoadBalancer(resourceGroup, plan.loadBalancer, existing?.etag === undefined ? {} : { ifMatch: existing.etag }, options);
    });
  }

  /** Takes the Service's parts off load balancer `name`; deletes it when no frontend is left. */
  async #removeFromLoadBalancer(name: string, names: Names, options?: CloudCallOptions): Promise<void> {
    const resourceGroup = this.#settings.loadBalancerResourceGroup;
    await withEtagRetry(async () => {
      const existing = await this.#read(() => this.#network.getLoadBalancer(resourceGroup, name, options));
      if (existing === undefined) return;
      const plan = planLoadBalancer(existing, { name, location: this.#settings.location, tags: this.#settings.tags, poolName: names.poolName }, { base: names.base, rules: [], probes: [] }, undefined, Number.MAX_SAFE_INTEGER);
      if (plan.action === 'none') return;
      if (plan.action === 'put') {
        this.#logger.info('removing the service from load balancer', { service: names.key, loadBalancer: name });
        await this.#network.putLoadBalancer(resourceGroup, plan.loadBalancer, existing.etag === undefined ? {} : { ifMatch: existing.etag }, options);
        return;
      }
      // The last frontend: empty the pools (ARM refuses to delete a pool NICs still use), then delete.
      for (const pool of existing.backendAddressPools) {
        if (pool.id !== undefined) await this.#pools.reconcile(pool.id, [], pool.backendIpConfigurationIds ?? [], options);
      }
      this.#logger.info('deleting load balancer: its last frontend is gone', { service: names.key, loadBalancer: name });
      await this.#network.deleteLoadBalancer(resourceGroup, name, options);
    });
  }

  async #reconcilePool(balancer: AzureLoadBalancer, poolName: string, wanted: AzureVirtualMachine[], options?: CloudCallOptions): Promise<void> {
    const pool = balancer.backendAddressPools.find((candidate) => candidate.name === poolName);
    if (pool?.id === undefined) throw new CloudStateError(`load balancer ${balancer.name} has no backend pool ${poolName}`);
    await this.#pools.reconcile(pool.id, wanted, pool.backendIpConfigurationIds ?? [], options);
  }

  async #reconcileSecurityGroup(remove: string[], address: string | undefined, spec: ServiceLoadBalancerSpec | undefined, options?: CloudCallOptions): Promise<void> {
    const { securityGroupName, securityGroupResourceGroup } = this.#settings;
    if (securityGroupName === '') return;
    await withEtagRetry(async () => {
      const group: AzureSecurityGroup | undefined = await this.#read(() => this.#network.getSecurityGroup(securityGroupResourceGroup, securityGroupName, options));
      if (group === undefined) {
        if (address === undefined) return;
        throw new CloudStateError(`security group ${securityGroupResourceGroup}/${securityGroupName} (securityGroupName) does not exist`);
      }
      const plan = planSecurityRules(group.securityRules, remove, address, spec?.security ?? [], spec?.denyAll ?? false);
      if (!plan.changed) return;
      this.#logger.info('updating security rules', { securityGroup: securityGroupName, address: address ?? '(removed)', removed: remove });
      await this.#network.putSecurityGroup(securityGroupResourceGroup, { ...group, securityRules: plan.rules }, group.etag === undefined ? {} : { ifMatch: group.etag }, options);
    });
  }

  /** Public IPs tagged with the Service, other than `keep`: untagged, or deleted when it was the last Service. */
  async #releasePublicIps(names: Names, keep: string | undefined, serviceResourceGroup: string, options?: CloudCallOptions): Promise<void> {
    const groups = new Set([this.#settings.resourceGroup, serviceResourceGroup]);
    for (const resourceGroup of groups) {
      for (const publicIp of await this.#network.listPublicIps(resourceGroup, options)) {
        if (publicIp.name === keep || !servicesOf(publicIp).includes(names.key)) continue;
        await withEtagRetry(async () => {
          const current = await this.#read(() => this.#network.getPublicIp(resourceGroup, publicIp.name, options));
          if (current === undefined) return;
          const plan = planPublicIpRelease(current, names.key, names.clusterName);
          if (plan.action === 'untag') await this.#network.putPublicIp(resourceGroup, plan.publicIp, current.etag === undefined ? {} : { ifMatch: current.etag }, options);
          if (plan.action === 'delete') {
            this.#logger.info('deleting public IP', { service: names.key, publicIp: current.name });
            await this.#network.deletePublicIp(resourceGroup, current.name, options);
          }
        });
      }
    }
  }

  #addressOf(balancer: AzureLoadBalancer, frontendName: string, publicIp: AzurePublicIp | undefined): string | undefined {
    if (publicIp !== undefined) return publicIp.ipAddress;
    return balancer.frontendIpConfigurations.find((frontend) => frontend.name === frontendName)?.privateIpAddress;
  }

  async #frontendAddress(frontend: AzureFrontendIpConfiguration, options?: CloudCallOptions): Promise<string | undefined> {
    if (frontend.privateIpAddress !== undefined && frontend.publicIpAddressId === undefined) return frontend.privateIpAddress;
    if (frontend.publicIpAddressId === undefined) return undefined;
    try {
      const address = await this.#network.getPublicIpAddress(frontend.publicIpAddressId, options);
      return address === '' ? undefined : address;
    } catch (error) {
      if (isAzureErrorKind(error, 'NotFound')) return undefined;
      throw error;
    }
  }
}
