/**
 * An in-memory Network: NICs, public IPs, route tables with their routes, load balancers and
 * security groups. Writes check etags (412 PreconditionFailed) and references as ARM does:
 * a rule naming a missing frontend, pool or probe, a frontend naming a missing public IP, a public
 * IP used by two frontends, deleting a public IP still in use or a load balancer whose pool still
 * has members are refused with ARM's codes; so are an Http(s) probe without a request path, a
 * frontend with neither public IP nor subnet, an internal frontend in a subnet the fake does not
 * have (`addSubnet`) or with a static address outside it, a route with an unknown next hop type or a virtual
 * appliance hop without its IP. The kinds and codes are the simulator's, checked by
 * test/support/azure-ports-contract.ts on this fake and on the SDK adapters.
 */
import type { FakeCompute } from './fake-compute.js';
import type {
  AzureBackendAddressPool,
  AzureLoadBalancer,
  AzureNetworkInterface,
  AzurePublicIp,
  AzureRoute,
  AzureRouteTable,
  AzureSecurityGroup,
  NetworkPort,
  WriteCondition,
} from '../../src/ports/network-port.js';
import { armError, FakeCallLog } from './fake-errors.js';

/** ARM's next hop types of a route. */
const ROUTE_NEXT_HOP_TYPES = ['VirtualNetworkGateway', 'VnetLocal', 'Internet', 'VirtualAppliance', 'None'];

/** Joins the fakes as ARM joins Compute and Network: pool members, scale sets naming pools, pools that exist. */
export function linkFakes(compute: FakeCompute, network: FakeNetwork): void {
  network.poolMembersFrom = (poolId) => compute.poolMembers(poolId);
  network.scaleSetsUsingPool = (poolId) => compute.scaleSetsUsingPool(poolId);
  compute.backendPoolExists = (poolId) => network.hasBackendPool(poolId);
}

/** `10.240.0.0/16` -> its first address and size, as numbers. */
function parseIpv4Prefix(prefix: string): { base: number; size: number } {
  const [address = '', bits = '32'] = prefix.split('/');
  const base = address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
  return { base, size: 2 ** (32 - Number(bits)) };
}

function ipv4Number(address: string): number | undefined {
  const parts = address.split('.');
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) < 256) ? parts.reduce((sum, part) => sum * 256 + Number(part), 0) : undefined;
}

const same = (left: string | undefined, right: string | undefined): boolean => (left ?? '').toLowerCase() === (right ?? '').toLowerCase();

const ipv4Text = (value: number): string => [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');

function checkEtag(operation: string, current: string | undefined, condition: WriteCondition): void {
  if (condition.ifMatch !== undefined && current !== condition.ifMatch) throw armError(operation, 'PreconditionFailed', 'PreconditionFailed', { httpStatus: 412 });
}

/** `/subscriptions/<sub>/resourcegroups/<rg>` of `id` (lower-cased) when it is in `resourceGroup`, else a prefix nothing matches. */
function resourceGroupPrefix(id: string, resourceGroup: string): string {
  const match = /^(\/subscriptions\/[^/]+\/resourcegroups\/[^/]+)/i.exec(id);
  const prefix = match?.[1]?.toLowerCase() ?? '';
  return prefix.endsWith(`/${resourceGroup.toLowerCase()}`) ? prefix : '\0';
}

export class FakeNetwork implements NetworkPort {
  readonly log = new FakeCallLog();
  readonly networkInterfaces = new Map<string, AzureNetworkInterface>();
  readonly publicIps = new Map<string, string>();
  readonly routeTables = new Map<string, AzureRouteTable>();
  readonly loadBalancers = new Map<string, AzureLoadBalancer>();
  readonly publicIpResources = new Map<string, AzurePublicIp>();
  readonly securityGroups = new Map<string, AzureSecurityGroup>();
  /** Subnets (lower-cased ARM ID) and their IPv4 prefix: where internal frontends get addresses. */
  readonly subnets = new Map<string, string>();
  /** Other members of a backend pool (the fake compute's scale-set VMs). */
  poolMembersFrom: (poolId: string) => string[] = () => [];
  /** The scale sets whose model or VMs name a backend pool (the fake compute's). */
  scaleSetsUsingPool: (poolId: string) => string[] = () => [];
  #etag = 0;
  #publicAddress = 0;
  #privateAddress = 0;
  readonly #subscription: string;

  constructor(subscription = '00000000-0000-0000-0000-000000000001') {
    this.#subscription = subscription;
  }

  #id(resourceGroup: string, type: string, name: string): string {
    return `/subscriptions/${this.#subscription}/resourceGroups/${resourceGroup}/providers/Microsoft.Network/${type}/${name}`;
  }

  /** A subnet of `vnet` in `resourceGroup` with an IPv4 prefix (`10.240.0.0/16`); returns its ARM ID. */
  addSubnet(resourceGroup: string, vnet: string, name: string, prefix: string): string {
    const id = this.#id(resourceGroup, 'virtualNetworks', `${vnet}/subnets/${name}`);
    this.subnets.set(id.toLowerCase(), prefix);
    return id;
  }

  addSecurityGroup(resourceGroup: string, name: string, rules: AzureSecurityGroup['securityRules'] = []): void {
    this.securityGroups.set(`${resourceGroup}/${name}`.toLowerCase(), { name, location: 'eastus', tags: {}, securityRules: rules, etag: this.#nextEtag() });
  }

  /** A public IP created outside the provider (a user's). */
  addPublicIp(resourceGroup: string, name: string, ipAddress: string, tags: Record<string, string> = {}): AzurePublicIp {
    const address: AzurePublicIp = { name, id: this.#id(resourceGroup, 'publicIPAddresses', name), location: 'eastus', tags, version: 'IPv4', ipAddress, ipTags: [], etag: this.#nextEtag() };
    this.publicIpResources.set(`${resourceGroup}/${name}`.toLowerCase(), address);
    return address;
  }

  loadBalancer(resourceGroup: string, name: string): AzureLoadBalancer | undefined {
    return this.loadBalancers.get(`${resourceGroup}/${name}`.toLowerCase());
  }

  securityGroup(resourceGroup: string, name: string): AzureSecurityGroup | undefined {
    return this.securityGroups.get(`${resourceGroup}/${name}`.toLowerCase());
  }

  publicIp(resourceGroup: string, name: string): AzurePublicIp | undefined {
    return this.publicIpResources.get(`${resourceGroup}/${name}`.toLowerCase());
  }

  #members(poolId: string): string[] {
    const nics = [...this.networkInterfaces.values()].flatMap((nic) =>
      nic.ipConfigurations.filter((configuration) => (configuration.loadBalancerBackendAddressPoolIds ?? []).some((id) => id.toLowerCase() === poolId.toLowerCase())).map((configuration) => `${nic.id}/ipConfigurations/${configuration.name}`),
    );
    return [...nics, ...this.poolMembersFrom(poolId)];
  }

  #render(balancer: AzureLoadBalancer): AzureLoadBalancer {
    const copy = structuredClone(balancer);
    for (const pool of copy.backendAddressPools) pool.backendIpConfigurationIds = pool.id === undefined ? [] : this.#members(pool.id);
    return copy;
  }

  /** Whether a backend pool (ARM ID) exists. */
  hasBackendPool(poolId: string): boolean {
    return [...this.loadBalancers.values()].some((balancer) => balancer.backendAddressPools.some((pool) => pool.id?.toLowerCase() === poolId.toLowerCase()));
  }

  /** ARM refuses to drop a backend pool a scale set names, or one with members (both HTTP 400). */
  #checkPoolUnused(operation: string, poolId: string): void {
    if (this.scaleSetsUsingPool(poolId).length > 0) throw armError(operation, 'Invalid', 'LoadBalancerInUseByVirtualMachineScaleSet', { httpStatus: 400 });
    if (this.#members(poolId).length > 0) throw armError(operation, 'Invalid', 'OperationNotAllowed', { httpStatus: 400 });
  }

  /** Which frontend uses a public IP. */
  #publicIpUser(publicIpId: string): string | undefined {
    for (const balancer of this.loadBalancers.values()) {
      const frontend = balancer.frontendIpConfigurations.find((candidate) => (candidate.publicIpAddressId ?? '').toLowerCase() === publicIpId.toLowerCase());
      if (frontend) return frontend.id;
    }
    return undefined;
  }

  async setNetworkInterfaceBackendPools(networkInterfaceId: string, ipConfigurationName: string, poolIds: readonly string[], condition: WriteCondition): Promise<void> {
    this.log.record('network.setNetworkInterfaceBackendPools', [networkInterfaceId, ipConfigurationName, poolIds, condition]);
    const nic = this.networkInterfaces.get(networkInterfaceId.toLowerCase());
    if (!nic) throw armError('network.setNetworkInterfaceBackendPools', 'NotFound', 'ResourceNotFound');
    checkEtag('network.setNetworkInterfaceBackendPools', nic.etag, condition);
    const configuration = nic.ipConfigurations.find((candidate) => candidate.name === ipConfigurationName);
    if (!configuration) throw armError('network.setNetworkInterfaceBackendPools', 'NotFound', 'NotFound');
    for (const poolId of poolIds) {
      const [balancerId] = poolId.split('/backendAddressPools/');
      const balancer = [...this.loadBalancers.values()].find((candidate) => candidate.id?.toLowerCase() === balancerId?.toLowerCase());
      if (!balancer?.backendAddressPools.some((pool) => pool.id?.toLowerCase() === poolId.toLowerCase())) throw armError('network.setNetworkInterfaceBackendPools', 'Invalid', 'InvalidResourceReference');
    }
    configuration.loadBalancerBackendAddressPoolIds = [...poolIds];
    nic.etag = this.#nextEtag();
  }

  async getLoadBalancer(resourceGroup: string, name: string): Promise<AzureLoadBalancer> {
    this.log.record('network.getLoadBalancer', [resourceGroup, name]);
    const balancer = this.loadBalancer(resourceGroup, name);
    if (!balancer) throw armError('network.getLoadBalancer', 'NotFound', 'ResourceNotFound');
    return this.#render(balancer);
  }

  async putLoadBalancer(resourceGroup: string, balancer: AzureLoadBalancer, condition: WriteCondition): Promise<AzureLoadBalancer> {
    const operation = 'network.putLoadBalancer';
    this.log.record(operation, [resourceGroup, structuredClone(balancer), condition]);
    const existing = this.loadBalancer(resourceGroup, balancer.name);
    checkEtag(operation, existing?.etag, condition);
    const id = this.#id(resourceGroup, 'loadBalancers', balancer.name);
    const names = (items: Array<{ name: string }>) => new Set(items.map((item) => item.name));
    const frontends = names(balancer.frontendIpConfigurations);
    const pools = names(balancer.backendAddressPools);
    const probes = names(balancer.probes);
    for (const frontend of balancer.frontendIpConfigurations) {
      if (frontend.publicIpAddressId === undefined && frontend.subnetId === undefined) throw armError(operation, 'Invalid', 'InvalidRequestFormat', { httpStatus: 400 });
    }
    for (const rule of balancer.loadBalancingRules) {
      if (!frontends.has(rule.frontendIpConfigurationName) || !pools.has(rule.backendAddressPoolName) || (rule.probeName !== undefined && !probes.has(rule.probeName))) {
        throw armError(operation, 'Invalid', 'InvalidResourceReference');
      }
    }
    if (balancer.probes.some((probe) => probe.protocol !== 'Tcp' && probe.requestPath === undefined)) throw armError(operation, 'Invalid', 'InvalidRequestPath', { httpStatus: 400 });
    const frontendIds = balancer.frontendIpConfigurations.map((frontend) => ({ ...frontend, id: `${id}/frontendIPConfigurations/${frontend.name}` }));
    for (const frontend of frontendIds) {
      if (frontend.publicIpAddressId !== undefined) {
        if (![...this.publicIpResources.values()].some((address) => address.id?.toLowerCase() === frontend.publicIpAddressId?.toLowerCase())) throw armError(operation, 'Invalid', 'InvalidResourceReference');
        const user = this.#publicIpUser(frontend.publicIpAddressId);
        if (user !== undefined && user.toLowerCase() !== frontend.id.toLowerCase()) throw armError(operation, 'Invalid', 'PublicIPAddressInUse', { httpStatus: 400 });
      }
      if (frontend.subnetId !== undefined) {
        const prefix = this.subnets.get(frontend.subnetId.toLowerCase());
        if (prefix === undefined) throw armError(operation, 'Invalid', 'InvalidResourceReference', { httpStatus: 400 });
        const range = parseIpv4Prefix(prefix);
        if (frontend.privateIpAllocationMethod === 'Static') {
          const requested = ipv4Number(frontend.privateIpAddress ?? '');
          if (requested === undefined || requested < range.base || requested >= range.base + range.size) throw armError(operation, 'Invalid', 'PrivateIPAddressNotInSubnet', { httpStatus: 400 });
        } else {
          // Dynamic: ARM keeps the address a frontend has, else gives the next free one.
          const previous = existing?.frontendIpConfigurations.find((candidate) => candidate.name === frontend.name && same(candidate.subnetId, frontend.subnetId))?.privateIpAddress;
          if (previous === undefined) this.#privateAddress += 1;
          frontend.privateIpAddress = previous ?? ipv4Text(range.base + 100 + this.#privateAddress);
        }
      }
    }
    for (const previous of existing?.backendAddressPools ?? []) {
      if (!pools.has(previous.name) && previous.id !== undefined) this.#checkPoolUnused(operation, previous.id);
    }
    const stored: AzureLoadBalancer = {
      ...structuredClone(balancer),
      id,
      etag: this.#nextEtag(),
      frontendIpConfigurations: frontendIds,
      backendAddressPools: balancer.backendAddressPools.map((pool) => ({
        name: pool.name,
        id: `${id}/backendAddressPools/${pool.name}`,
        ...(pool.virtualNetworkId === undefined ? {} : { virtualNetworkId: pool.virtualNetworkId }),
        ...(pool.backendAddresses === undefined ? {} : { backendAddresses: structuredClone(pool.backendAddresses) }),
      })),
    };
    this.loadBalancers.set(`${resourceGroup}/${balancer.name}`.toLowerCase(), stored);
    return this.#render(stored);
  }

  /** ARM's rules: the pool must exist or be new, IP-based members need the pool's virtual network, and a pool holds NICs or addresses, never both. */
  async putBackendAddressPool(resourceGroup: string, loadBalancerName: string, pool: AzureBackendAddressPool, condition: WriteCondition): Promise<AzureBackendAddressPool> {
    const operation = 'network.putBackendAddressPool';
    this.log.record(operation, [resourceGroup, loadBalancerName, structuredClone(pool), condition]);
    const balancer = this.loadBalancer(resourceGroup, loadBalancerName);
    if (!balancer) throw armError(operation, 'NotFound', 'ResourceNotFound');
    checkEtag(operation, balancer.etag, condition);
    const id = `${balancer.id ?? ''}/backendAddressPools/${pool.name}`;
    const addresses = pool.backendAddresses ?? [];
    if (addresses.length > 0 && pool.virtualNetworkId === undefined) throw armError(operation, 'Invalid', 'InvalidResourceReference');
    if (addresses.length > 0 && this.#members(id).length > 0) throw armError(operation, 'Conflict', 'OperationNotAllowed');
    const stored: AzureBackendAddressPool = {
      name: pool.name,
      id,
      ...(pool.virtualNetworkId === undefined ? {} : { virtualNetworkId: pool.virtualNetworkId }),
      ...(pool.backendAddresses === undefined ? {} : { backendAddresses: structuredClone(pool.backendAddresses) }),
    };
    const others = balancer.backendAddressPools.filter((candidate) => candidate.name !== pool.name);
    balancer.backendAddressPools = [...others, stored];
    balancer.etag = this.#nextEtag();
    return { ...structuredClone(stored), backendIpConfigurationIds: this.#members(id) };
  }

  async deleteLoadBalancer(resourceGroup: string, name: string): Promise<void> {
    this.log.record('network.deleteLoadBalancer', [resourceGroup, name]);
    const balancer = this.loadBalancer(resourceGroup, name);
    if (!balancer) return;
    for (const pool of balancer.backendAddressPools) {
      if (pool.id !== undefined) this.#checkPoolUnused('network.deleteLoadBalancer', pool.id);
    }
    this.loadBalancers.delete(`${resourceGroup}/${name}`.toLowerCase());
  }

  async getPublicIp(resourceGroup: string, name: string): Promise<AzurePublicIp> {
    this.log.record('network.getPublicIp', [resourceGroup, name]);
    const address = this.publicIp(resourceGroup, name);
    if (!address) throw armError('network.getPublicIp', 'NotFound', 'ResourceNotFound');
    return this.#renderPublicIp(address);
  }

  #renderPublicIp(address: AzurePublicIp): AzurePublicIp {
    const copy = structuredClone(address);
    const user = copy.id === undefined ? undefined : this.#publicIpUser(copy.id);
    if (user === undefined) delete copy.ipConfigurationId;
    else copy.ipConfigurationId = user;
    return copy;
  }

  async listPublicIps(resourceGroup: string): Promise<AzurePublicIp[]> {
    this.log.record('network.listPublicIps', [resourceGroup]);
    return [...this.publicIpResources.entries()].filter(([key]) => key.startsWith(`${resourceGroup.toLowerCase()}/`)).map(([, address]) => this.#renderPublicIp(address));
  }

  async putPublicIp(resourceGroup: string, address: AzurePublicIp, condition: WriteCondition): Promise<AzurePublicIp> {
    this.log.record('network.putPublicIp', [resourceGroup, structuredClone(address), condition]);
    const existing = this.publicIp(resourceGroup, address.name);
    checkEtag('network.putPublicIp', existing?.etag, condition);
    if (existing === undefined) this.#publicAddress += 1;
    const stored: AzurePublicIp = {
      ...structuredClone(address),
      id: this.#id(resourceGroup, 'publicIPAddresses', address.name),
      etag: this.#nextEtag(),
      ipAddress: existing?.ipAddress ?? (address.version === 'IPv6' ? `2603:1030::${this.#publicAddress.toString(16)}` : `20.0.0.${this.#publicAddress}`),
      ipTags: existing?.ipTags ?? address.ipTags,
    };
    delete stored.ipConfigurationId;
    this.publicIpResources.set(`${resourceGroup}/${address.name}`.toLowerCase(), stored);
    return this.#renderPublicIp(stored);
  }

  async deletePublicIp(resourceGroup: string, name: string): Promise<void> {
    this.log.record('network.deletePublicIp', [resourceGroup, name]);
    const address = this.publicIp(resourceGroup, name);
    if (!address) return;
    if (address.id !== undefined && this.#publicIpUser(address.id) !== undefined) throw armError('network.deletePublicIp', 'Invalid', 'PublicIPAddressCannotBeDeleted');
    this.publicIpResources.delete(`${resourceGroup}/${name}`.toLowerCase());
  }

  async getSecurityGroup(resourceGroup: string, name: string): Promise<AzureSecurityGroup> {
    this.log.record('network.getSecurityGroup', [resourceGroup, name]);
    const group = this.securityGroup(resourceGroup, name);
    if (!group) throw armError('network.getSecurityGroup', 'NotFound', 'ResourceNotFound');
    return structuredClone(group);
  }

  async putSecurityGroup(resourceGroup: string, group: AzureSecurityGroup, condition: WriteCondition): Promise<AzureSecurityGroup> {
    this.log.record('network.putSecurityGroup', [resourceGroup, structuredClone(group), condition]);
    const existing = this.securityGroup(resourceGroup, group.name);
    checkEtag('network.putSecurityGroup', existing?.etag, condition);
    const seen = new Set<string>();
    for (const rule of group.securityRules) {
      const key = `${rule.direction}/${rule.priority}`;
      if (seen.has(key)) throw armError('network.putSecurityGroup', 'Invalid', 'SecurityRuleConflict');
      if (rule.priority < 100 || rule.priority > 4096) throw armError('network.putSecurityGroup', 'Invalid', 'SecurityRuleInvalidPriority');
      seen.add(key);
    }
    const stored = { ...structuredClone(group), etag: this.#nextEtag() };
    this.securityGroups.set(`${resourceGroup}/${group.name}`.toLowerCase(), stored);
    return structuredClone(stored);
  }

  addNetworkInterface(nic: AzureNetworkInterface): void {
    this.networkInterfaces.set(nic.id.toLowerCase(), { etag: this.#nextEtag(), ...nic });
  }

  routeTable(resourceGroup: string, name: string): AzureRouteTable | undefined {
    return this.routeTables.get(`${resourceGroup.toLowerCase()}/${name}`);
  }

  async listNetworkInterfaces(resourceGroup: string): Promise<AzureNetworkInterface[]> {
    this.log.record('network.listNetworkInterfaces', [resourceGroup]);
    return [...this.networkInterfaces.values()].filter((nic) => nic.id.toLowerCase().startsWith(`${resourceGroupPrefix(nic.id, resourceGroup)}/providers/microsoft.network/networkinterfaces/`)).map((nic) => structuredClone(nic));
  }

  async listScaleSetNetworkInterfaces(resourceGroup: string, scaleSetName: string): Promise<AzureNetworkInterface[]> {
    this.log.record('network.listScaleSetNetworkInterfaces', [resourceGroup, scaleSetName]);
    const infix = `/providers/microsoft.compute/virtualmachinescalesets/${scaleSetName.toLowerCase()}/virtualmachines/`;
    return [...this.networkInterfaces.values()].filter((nic) => nic.id.toLowerCase().startsWith(`${resourceGroupPrefix(nic.id, resourceGroup)}${infix}`)).map((nic) => structuredClone(nic));
  }

  async listPublicIpAddresses(resourceGroup: string): Promise<Array<{ id: string; ipAddress: string }>> {
    this.log.record('network.listPublicIpAddresses', [resourceGroup]);
    const created = [...this.publicIpResources.values()].map((address) => [address.id ?? '', address.ipAddress] as const);
    return [...this.publicIps.entries(), ...created]
      .filter(([id]) => id.toLowerCase().startsWith(`${resourceGroupPrefix(id, resourceGroup)}/providers/microsoft.network/publicipaddresses/`))
      .map(([id, ipAddress]) => ({ id, ipAddress }));
  }

  async getNetworkInterface(networkInterfaceId: string): Promise<AzureNetworkInterface> {
    this.log.record('network.getNetworkInterface', [networkInterfaceId]);
    const nic = this.networkInterfaces.get(networkInterfaceId.toLowerCase());
    if (!nic) throw armError('network.getNetworkInterface', 'NotFound', 'ResourceNotFound');
    return structuredClone(nic);
  }

  async getPublicIpAddress(publicIpAddressId: string): Promise<string> {
    this.log.record('network.getPublicIpAddress', [publicIpAddressId]);
    const resource = [...this.publicIpResources.values()].find((candidate) => candidate.id?.toLowerCase() === publicIpAddressId.toLowerCase());
    if (resource) return resource.ipAddress;
    const address = this.publicIps.get(publicIpAddressId.toLowerCase());
    if (address === undefined) throw armError('network.getPublicIpAddress', 'NotFound', 'ResourceNotFound');
    return address;
  }

  async getRouteTable(resourceGroup: string, name: string): Promise<AzureRouteTable> {
    this.log.record('network.getRouteTable', [resourceGroup, name]);
    const table = this.routeTable(resourceGroup, name);
    if (!table) throw armError('network.getRouteTable', 'NotFound', 'ResourceNotFound');
    return structuredClone(table);
  }

  async createRouteTable(resourceGroup: string, table: { name: string; location: string; tags: Record<string, string> }): Promise<AzureRouteTable> {
    this.log.record('network.createRouteTable', [resourceGroup, table]);
    const created: AzureRouteTable = { name: table.name, location: table.location, tags: { ...table.tags }, routes: [], etag: this.#nextEtag() };
    this.routeTables.set(`${resourceGroup.toLowerCase()}/${table.name}`, created);
    return structuredClone(created);
  }

  async putRoute(resourceGroup: string, tableName: string, route: AzureRoute): Promise<void> {
    this.log.record('network.putRoute', [resourceGroup, tableName, route]);
    const table = this.routeTable(resourceGroup, tableName);
    if (!table) throw armError('network.putRoute', 'NotFound', 'ResourceNotFound');
    if (!ROUTE_NEXT_HOP_TYPES.includes(route.nextHopType)) throw armError('network.putRoute', 'Invalid', 'InvalidRequestFormat', { httpStatus: 400 });
    if (route.nextHopType === 'VirtualAppliance' && route.nextHopIpAddress === undefined) throw armError('network.putRoute', 'Invalid', 'InvalidNextHopIpAddress', { httpStatus: 400 });
    table.routes = [...table.routes.filter((existing) => existing.name !== route.name), { ...route }];
    table.etag = this.#nextEtag();
  }

  async deleteRoute(resourceGroup: string, tableName: string, routeName: string): Promise<void> {
    this.log.record('network.deleteRoute', [resourceGroup, tableName, routeName]);
    const table = this.routeTable(resourceGroup, tableName);
    if (!table) return;
    table.routes = table.routes.filter((existing) => existing.name !== routeName);
    table.etag = this.#nextEtag();
  }

  #nextEtag(): string {
    this.#etag += 1;
    return `W/"${this.#etag}"`;
  }
}
