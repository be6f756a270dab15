/**
 * A Service's load balancing on Azure (upstream `reconcileService`): per IP family of the Service
 * (`spec.ipFamilies`, in its order) a public IP (external), a frontend, rules and probes on the
 * cluster load balancer `<name>` or `<name>-internal` (a dual-stack Service's IPv6 ones named
 * `...-IPv6`), the family's backend pool (`<cluster>`, `<cluster>-IPv6`) filled with the nodes
 * (their NIC IP configurations, or with `nodeIP` their addresses), the shared security rules of
 * each address on the cluster security group, then the other kind's load balancer and the public
 * IPs it no longer uses cleaned. Deleting removes only what the Service owns; a load balancer left
 * without frontends is deleted (its pools emptied first), a public IP is deleted when no Service
 * is tagged on it.
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import type { Logger } from '@ccm/core/logging';
import { PermanentInvalidServiceConfigurationError, type CloudCallOptions, type LoadBalancerStatus } from '@ccm/core/provider';
import {
  ANNOTATION_PREFIX,
  ANNOTATIONS,
  internalSubnetOf,
  publicIpNameOf as requestedPublicIpNameOf,
  readServiceLoadBalancerOptions,
  requestedIpOf,
  serviceIpFamilies,
  wantsInternalLoadBalancer,
  type ServiceLoadBalancerOptions,
} from '../../annotations.js';
import { CloudStateError, isAzureErrorKind } from '../../errors.js';
import type { AzureVirtualMachine } from '../../ports/compute-port.js';
import type { AzureBackendAddressPool, AzureFrontendIpConfiguration, AzureLoadBalancer, AzurePublicIp, AzureSecurityGroup, NetworkPort } from '../../ports/network-port.js';
import type { BackendPoolOperations } from './backend-pool-operations.js';
import { withEtagRetry } from './etag-retry.js';
import { backendPoolNameOf, frontendNameOf, loadBalancerNameOf, nameForFamily, ownedBy, publicIpNameOf, serviceBaseName, serviceKey, type IpFamily } from './load-balancer-names.js';
import { planLoadBalancer } from './plan-load-balancer.js';
import { planNodeIpPool } from './plan-node-ip-pool.js';
import { planPublicIp, planPublicIpRelease, publicIpRefusal, servicesOf, type PublicIpRefusal } from './plan-public-ip.js';
import { planSecurityRules, type SecurityTarget } from './plan-security-rules.js';
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
  /**
   * `loadBalancerBackendPoolConfigurationType`: `nodeIPConfiguration` (NIC and scale-set IP
   * configurations join the pool) or `nodeIP` (the pool lists the nodes' addresses).
   */
  backendPoolType: 'nodeIPConfiguration' | 'nodeIP';
}

/** Finds the VMs of the nodes that belong in the backend pool. */
export type NodeVirtualMachines = (nodes: readonly V1Node[], options?: CloudCallOptions) => Promise<AzureVirtualMachine[]>;

interface Names {
  clusterName: string;
  base: string;
  key: string;
  loadBalancerName: string;
  otherLoadBalancerName: string;
  /** The Service's families in its order. */
  families: IpFamily[];
  dualStack: boolean;
}

/** One family's part of a Service: its spec, public IP (external) and frontend. */
interface FamilyPart {
  family: IpFamily;
  spec: ServiceLoadBalancerSpec;
  publicIp: AzurePublicIp | undefined;
  frontend: AzureFrontendIpConfiguration;
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
    const specs = names.families.map((family) =>
      buildServiceLoadBalancerSpec(service, parsed, { poolName: backendPoolNameOf(clusterName, family), disableOutboundSnat: this.#settings.disableOutboundSnat, family, dualStack: names.dualStack }),
    );
    const previousAddresses = await this.#serviceAddresses(names, options);
    const parts: FamilyPart[] = [];
    for (const spec of specs) {
      const publicIp = parsed.internal ? undefined : await this.#ensurePublicIp(names, service, parsed, spec.family, options);
      parts.push({ family: spec.family, spec, publicIp, frontend: this.#frontendOf(spec, parsed, publicIp) });
    }
    const balancer = await this.#reconcileLoadBalancer(names.loadBalancerName, names, parts, options);
    if (balancer === undefined) throw new CloudStateError(`load balancer ${names.loadBalancerName} is missing after its write`);
    const targets: SecurityTarget[] = [];
    for (const part of parts) {
      const address = this.#addressOf(balancer, part.spec.frontendName, part.publicIp);
      if (address === undefined || address === '') throw new CloudStateError(`frontend ${part.spec.frontendName} of load balancer ${names.loadBalancerName} has no address yet`);
      targets.push({ address, family: part.family, specs: part.spec.security, denyAll: part.spec.denyAll });
    }
    await this.#reconcilePools(balancer, names, nodes, options);
    await this.#reconcileSecurityGroup(previousAddresses, targets, options);
    // The other kind's load balancer (the Service switched between internal and external).
    await this.#removeFromLoadBalancer(names.otherLoadBalancerName, names, options);
    await this.#releasePublicIps(names, new Set(parts.flatMap((part) => (part.publicIp === undefined ? [] : [part.publicIp.name]))), this.#publicIpResourceGroup(parsed), options);
    return { ingress: targets.map((target) => ({ ip: target.address })) };
  }

  /**
   * Node changes (upstream `UpdateLoadBalancer`): when `shouldUpdateLoadBalancer` holds (the
   * Service's frontend is on its load balancer, the Service is not being deleted and is still of
   * type LoadBalancer), the whole ensure runs, so drift of rules, probes and security rules is
   * repaired with the backend pools, not only on the next Service change.
   */
  async update(clusterName: string, service: V1Service, nodes: readonly V1Node[], options?: CloudCallOptions): Promise<void> {
    readServiceLoadBalancerOptions(service);
    if (service.metadata?.deletionTimestamp != null || service.spec?.type !== 'LoadBalancer') return;
    const names = this.#names(clusterName, service, wantsInternalLoadBalancer(service));
    const balancer = await this.#read(() => this.#network.getLoadBalancer(this.#settings.loadBalancerResourceGroup, names.loadBalancerName, options));
    const frontendNames = names.families.map((family) => nameForFamily(frontendNameOf(names.base, internalSubnetOf(service)), names.dualStack, family));
    if (!balancer?.frontendIpConfigurations.some((frontend) => frontendNames.includes(frontend.name))) return;
    await this.ensure(clusterName, service, nodes, options);
  }

  async delete(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<void> {
    const names = this.#names(clusterName, service, wantsInternalLoadBalancer(service));
    await this.#reconcileSecurityGroup(await this.#serviceAddresses(names, options), [], options);
    await this.#removeFromLoadBalancer(names.loadBalancerName, names, options);
    await this.#removeFromLoadBalancer(names.otherLoadBalancerName, names, options);
    const annotated = service.metadata?.annotations?.[ANNOTATIONS.resourceGroup.key]?.trim();
    await this.#releasePublicIps(names, new Set(), annotated === undefined || annotated === '' ? this.#settings.resourceGroup : annotated, options);
  }

  async status(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<LoadBalancerStatus | undefined> {
    const names = this.#names(clusterName, service, wantsInternalLoadBalancer(service));
    const balancer = await this.#read(() => this.#network.getLoadBalancer(this.#settings.loadBalancerResourceGroup, names.loadBalancerName, options));
    const ingress: Array<{ ip: string }> = [];
    for (const family of names.families) {
      const frontendName = nameForFamily(frontendNameOf(names.base, internalSubnetOf(service)), names.dualStack, family);
      const frontend = balancer?.frontendIpConfigurations.find((item) => item.name === frontendName);
      const address = frontend === undefined ? undefined : await this.#frontendAddress(frontend, options);
      if (address) ingress.push({ ip: address });
    }
    return ingress.length === 0 ? undefined : { ingress };
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
      families: serviceIpFamilies(service),
      dualStack: serviceIpFamilies(service).length === 2,
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
  async #ensurePublicIp(names: Names, service: V1Service, parsed: ServiceLoadBalancerOptions, family: IpFamily, options?: CloudCallOptions): Promise<AzurePublicIp> {
    const resourceGroup = this.#publicIpResourceGroup(parsed);
    const requestedIp = requestedIpOf(parsed, family);
    if (requestedIp !== undefined) {
      const found = (await this.#network.listPublicIps(resourceGroup, options)).find((candidate) => candidate.ipAddress === requestedIp);
      if (found === undefined) throw new CloudStateError(`no public IP with address ${requestedIp} in resource group ${resourceGroup} (the Service asks for it)`);
      if (found.ipConfigurationId !== undefined && !found.ipConfigurationId.toLowerCase().includes(`/frontendipconfigurations/${names.base.toLowerCase()}`)) {
        throw new CloudStateError(`public IP ${found.name} (${requestedIp}) is in use by ${found.ipConfigurationId}`);
      }
      return found;
    }
    const requestedName = requestedPublicIpNameOf(parsed, family, names.dualStack);
    // Upstream `getPublicIPName`: `<cluster>-<base>` cut, then `-IPv6` for the IPv6 half of a dual-stack Service.
    const name = requestedName ?? nameForFamily(publicIpNameOf(names.clusterName, names.base), names.dualStack, family);
    return withEtagRetry(async () => {
      const existing = await this.#read(() => this.#network.getPublicIp(resourceGroup, name, options));
      // ARM never changes a public IP's version; upstream recreates it (a single-stack IPv6 Service's `<cluster>-<base>` turning dual-stack), not done here.
      if (existing !== undefined && existing.version !== family) {
        throw new CloudStateError(`public IP ${resourceGroup}/${name} is ${existing.version}, the Service's ${family} frontend needs an ${family} one (delete it, or name another with an azure-pip-name annotation)`);
      }
      // A public IP named by the annotation that no Service is tagged on is the user's: used as it is.
      if (existing !== undefined && servicesOf(existing).length === 0 && requestedName !== undefined) return existing;
      const refusal = publicIpRefusal(existing, { serviceKey: names.key, clusterName: names.clusterName, ...(parsed.dnsLabelName === undefined ? {} : { dnsLabelName: parsed.dnsLabelName }) });
      if (refusal !== undefined) throw this.#publicIpRefused(refusal, parsed, requestedName, family);
      const plan = planPublicIp(existing, {
        name,
        location: this.#settings.location,
        serviceKey: names.key,
        clusterName: names.clusterName,
        configTags: this.#settings.tags,
        extraTags: parsed.publicIpTags,
        ipTags: parsed.publicIpIpTags,
        version: family,
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
  #publicIpRefused(refusal: PublicIpRefusal, parsed: ServiceLoadBalancerOptions, requestedName: string | undefined, family: IpFamily): Error {
    const nameAnnotation = family === 'IPv6' && requestedName !== undefined && requestedName === parsed.publicIpNameIpv6 ? ANNOTATIONS.pipNameIpv6.key : `${ANNOTATION_PREFIX}azure-pip-name`;
    const annotation = refusal.reason === 'dns-label-in-use' ? `${ANNOTATION_PREFIX}azure-dns-label-name` : nameAnnotation;
    const value = refusal.reason === 'dns-label-in-use' ? parsed.dnsLabelName : requestedName;
    if (value === undefined) return new CloudStateError(refusal.message);
    return new PermanentInvalidServiceConfigurationError(`annotation ${annotation}=${JSON.stringify(value)}: ${refusal.message}`, { annotation, value });
  }

  #frontendOf(spec: ServiceLoadBalancerSpec, parsed: ServiceLoadBalancerOptions, publicIp: AzurePublicIp | undefined): AzureFrontendIpConfiguration {
    if (publicIp !== undefined) return { name: spec.frontendName, publicIpAddressId: publicIp.id ?? '' };
    const subnet = parsed.internalSubnet ?? this.#settings.subnetName;
    const subnetId = `${this.#virtualNetworkId()}/subnets/${subnet}`;
    const requestedIp = requestedIpOf(parsed, spec.family);
    return requestedIp === undefined
      ? { name: spec.frontendName, subnetId, privateIpAllocationMethod: 'Dynamic', privateIpAddressVersion: spec.family }
      : { name: spec.frontendName, subnetId, privateIpAllocationMethod: 'Static', privateIpAddress: requestedIp, privateIpAddressVersion: spec.family };
  }

  /** The cluster's virtual network (upstream `getVnetResourceID`: `vnetResourceGroup`, else `resourceGroup`). */
  #virtualNetworkId(): string {
    return `/subscriptions/${this.#settings.subscriptionId}/resourceGroups/${this.#settings.vnetResourceGroup}/providers/Microsoft.Network/virtualNetworks/${this.#settings.vnetName}`;
  }

  async #reconcileLoadBalancer(name: string, names: Names, parts: readonly FamilyPart[], options?: CloudCallOptions): Promise<AzureLoadBalancer | undefined> {
    const resourceGroup = this.#settings.loadBalancerResourceGroup;
    const spec = { base: names.base, rules: parts.flatMap((part) => part.spec.rules), probes: parts.flatMap((part) => part.spec.probes) };
    const shell = { name, location: this.#settings.location, tags: this.#settings.tags, poolNames: names.families.map((family) => backendPoolNameOf(names.clusterName, family)) };
    return withEtagRetry(async () => {
      const existing = await this.#read(() => this.#network.getLoadBalancer(resourceGroup, name, options));
      const plan = planLoadBalancer(existing, shell, spec, parts.map((part) => part.frontend), this.#settings.maximumLoadBalancerRuleCount);
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
      const plan = planLoadBalancer(existing, { name, location: this.#settings.location, tags: this.#settings.tags, poolNames: [] }, { base: names.base, rules: [], probes: [] }, [], Number.MAX_SAFE_INTEGER);
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

  /** The backend pool of each of the Service's families holds exactly the nodes (upstream `EnsureHostsInPool`). */
  async #reconcilePools(balancer: AzureLoadBalancer, names: Names, nodes: readonly V1Node[], options?: CloudCallOptions): Promise<void> {
    const virtualMachines = this.#settings.backendPoolType === 'nodeIP' ? [] : await this.#virtualMachinesOf(nodes, options);
    for (const family of names.families) {
      const poolName = backendPoolNameOf(names.clusterName, family);
      const pool = balancer.backendAddressPools.find((candidate) => candidate.name === poolName);
      if (pool?.id === undefined) throw new CloudStateError(`load balancer ${balancer.name} has no backend pool ${poolName}`);
      if (this.#settings.backendPoolType === 'nodeIP') {
        await this.#reconcileNodeIpPool(balancer, pool, family, nodes, options);
        continue;
      }
      // An IP-based pool left by `nodeIP` loses its addresses before NICs join it (ARM takes one kind per pool; upstream `backendPoolTypeNodeIPConfig.ReconcileBackendPools`).
      if ((pool.backendAddresses ?? []).length > 0) await this.#writePool(balancer, { name: pool.name, backendAddresses: [] }, names.key, options);
      await this.#pools.reconcile(pool.id, virtualMachines, pool.backendIpConfigurationIds ?? [], options, family);
    }
  }

  /**
   * `nodeIP`: the pool lists the nodes' addresses of its family in the cluster's virtual network
   * (upstream `backendPoolTypeNodeIP.EnsureHostsInPool`); NICs a `nodeIPConfiguration` pool held
   * leave it first (upstream `ReconcileBackendPools`, `EnsureBackendPoolDeleted`). A pool another
   * controller made the same way (an upstream-made pool) is written only when its members differ.
   */
  async #reconcileNodeIpPool(balancer: AzureLoadBalancer, pool: AzureBackendAddressPool, family: IpFamily, nodes: readonly V1Node[], options?: CloudCallOptions): Promise<void> {
    const poolId = pool.id ?? '';
    if ((pool.backendIpConfigurationIds ?? []).length > 0) {
      this.#logger.info('moving the backend pool from NIC IP configurations to node addresses', { loadBalancer: balancer.name, pool: pool.name });
      await this.#pools.reconcile(poolId, [], pool.backendIpConfigurationIds ?? [], options, family);
    }
    let attempt = 0;
    await withEtagRetry(async () => {
      // The load balancer just read or written first; read again after a stale etag.
      const current = attempt++ === 0 ? balancer : await this.#read(() => this.#network.getLoadBalancer(this.#settings.loadBalancerResourceGroup, balancer.name, options));
      const read = current?.backendAddressPools.find((candidate) => candidate.name === pool.name);
      const etag = current?.etag;
      if (read === undefined) throw new CloudStateError(`load balancer ${balancer.name} has no backend pool ${pool.name}`);
      const plan = planNodeIpPool(read, nodes, family, this.#virtualNetworkId());
      if (!plan.changed) return;
      this.#logger.info('updating backend pool addresses', { loadBalancer: balancer.name, pool: pool.name, added: plan.added, removed: plan.removed });
      await this.#network.putBackendAddressPool(this.#settings.loadBalancerResourceGroup, balancer.name, plan.pool, etag === undefined ? {} : { ifMatch: etag }, options);
    });
  }

  async #writePool(balancer: AzureLoadBalancer, pool: AzureBackendAddressPool, service: string, options?: CloudCallOptions): Promise<void> {
    this.#logger.info('clearing the node addresses of the backend pool', { service, loadBalancer: balancer.name, pool: pool.name });
    await this.#network.putBackendAddressPool(this.#settings.loadBalancerResourceGroup, balancer.name, pool, balancer.etag === undefined ? {} : { ifMatch: balancer.etag }, options);
  }

  async #reconcileSecurityGroup(remove: string[], targets: readonly SecurityTarget[], options?: CloudCallOptions): Promise<void> {
    const { securityGroupName, securityGroupResourceGroup } = this.#settings;
    if (securityGroupName === '') return;
    await withEtagRetry(async () => {
      const group: AzureSecurityGroup | undefined = await this.#read(() => this.#network.getSecurityGroup(securityGroupResourceGroup, securityGroupName, options));
      if (group === undefined) {
        if (targets.length === 0) return;
        throw new CloudStateError(`security group ${securityGroupResourceGroup}/${securityGroupName} (securityGroupName) does not exist`);
      }
      const plan = planSecurityRules(group.securityRules, remove, targets);
      if (!plan.changed) return;
      this.#logger.info('updating security rules', { securityGroup: securityGroupName, addresses: targets.length === 0 ? '(removed)' : targets.map((target) => target.address).join(','), removed: remove });
      await this.#network.putSecurityGroup(securityGroupResourceGroup, { ...group, securityRules: plan.rules }, group.etag === undefined ? {} : { ifMatch: group.etag }, options);
    });
  }

  /** Public IPs tagged with the Service, other than those of `keep`: untagged, or deleted when it was the last Service. */
  async #releasePublicIps(names: Names, keep: ReadonlySet<string>, serviceResourceGroup: string, options?: CloudCallOptions): Promise<void> {
    const groups = new Set([this.#settings.resourceGroup, serviceResourceGroup]);
    for (const resourceGroup of groups) {
      for (const publicIp of await this.#network.listPublicIps(resourceGroup, options)) {
        if (keep.has(publicIp.name) || !servicesOf(publicIp).includes(names.key)) continue;
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
