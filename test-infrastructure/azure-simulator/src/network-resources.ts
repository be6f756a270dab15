/**
 * Microsoft.Network resources: virtual networks (subnets inside), network interfaces (and the
 * read-only scale-set NIC views), public IP addresses, load balancers (frontends, pools, rules,
 * probes, outbound and inbound NAT rules inside), network security groups (rules inside) and
 * route tables (routes inside). References are checked on write; back-references
 * (`backendIPConfigurations`, a subnet's `ipConfigurations`, a public IP's `ipConfiguration`, ...)
 * are derived on every read, so they are never stale.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ArmError, invalidRequestFormat, invalidResourceReference } from './arm-error.js';
import { RESOURCE_TYPE, conflict, type ArmState, type StoredResource } from './arm-state.js';
import { nextFreeAddress, prefixContains, parsePrefix } from './ip-address-allocator.js';
import { envelope, normalizeNested, withoutKeys, type AcceptRequest, type ResourceKindHandler } from './resource-kind.js';
import { asArray, asObject, clone, idKey, referenceId, sameId, topLevelId, type Json } from './resource-id.js';

const NESTED_TYPES: Record<string, Record<string, string>> = {
  virtualNetworks: { subnets: 'Microsoft.Network/virtualNetworks/subnets' },
  networkInterfaces: { ipConfigurations: 'Microsoft.Network/networkInterfaces/ipConfigurations' },
  scaleSetNetworkInterfaces: { ipConfigurations: 'Microsoft.Network/networkInterfaces/ipConfigurations' },
  loadBalancers: {
    frontendIPConfigurations: 'Microsoft.Network/loadBalancers/frontendIPConfigurations',
    backendAddressPools: 'Microsoft.Network/loadBalancers/backendAddressPools',
    loadBalancingRules: 'Microsoft.Network/loadBalancers/loadBalancingRules',
    probes: 'Microsoft.Network/loadBalancers/probes',
    inboundNatRules: 'Microsoft.Network/loadBalancers/inboundNatRules',
    outboundRules: 'Microsoft.Network/loadBalancers/outboundRules',
  },
  networkSecurityGroups: {
    securityRules: 'Microsoft.Network/networkSecurityGroups/securityRules',
    defaultSecurityRules: 'Microsoft.Network/networkSecurityGroups/defaultSecurityRules',
  },
  routeTables: { routes: 'Microsoft.Network/routeTables/routes' },
};

/** The nested collections of a kind and their item types. */
export function nestedTypes(kind: string): Record<string, string> {
  return NESTED_TYPES[kind] ?? {};
}

/** The common Microsoft.Network rendering: provisioning state, resource GUID, nested etags and types. */
function renderNetwork(resource: StoredResource, derive: (properties: Json) => void): Json {
  const body = clone(resource.body);
  const properties = asObject(body['properties']);
  for (const [collection, type] of Object.entries(nestedTypes(resource.kind))) {
    const items = properties[collection];
    if (!Array.isArray(items)) continue;
    properties[collection] = asArray(items).map((item) => ({
      name: item['name'],
      id: item['id'],
      etag: resource.etag,
      type,
      ...withoutKeys(item, ['name', 'id', 'etag', 'type']),
      properties: { provisioningState: resource.provisioningState, ...asObject(item['properties']) },
    }));
  }
  derive(properties);
  return envelope(resource, RESOURCE_TYPE[resource.kind], { ...body, properties: { ...properties, provisioningState: resource.provisioningState } });
}

const references = (ids: string[]): Json[] | undefined => (ids.length === 0 ? undefined : ids.map((id) => ({ id })));

function setIfAny(target: Json, key: string, value: unknown): void {
  if (value === undefined) delete target[key];
  else target[key] = value;
}

function requireLocation(request: AcceptRequest): void {
  if (typeof request.input['location'] !== 'string' || request.input['location'] === '') {
    throw new ArmError(400, 'LocationRequired', 'The location property is required for this definition.');
  }
}

function checkReference(referenced: string | undefined, referencingId: string, exists: (id: string) => boolean): void {
  if (referenced !== undefined && !exists(referenced)) throw invalidResourceReference(referenced, referencingId);
}

const resourceExists = (state: ArmState, kind: StoredResource['kind']) => (id: string) => state.get(id)?.kind === kind;

/** Subnet prefixes (`addressPrefix` and `addressPrefixes`). */
function subnetPrefixes(subnet: Json): string[] {
  const properties = asObject(subnet['properties']);
  const prefixes = Array.isArray(properties['addressPrefixes']) ? properties['addressPrefixes'].filter((entry): entry is string => typeof entry === 'string') : [];
  const single = properties['addressPrefix'];
  return typeof single === 'string' ? [single, ...prefixes] : prefixes;
}

/**
 * Gives an IP configuration (NIC or LB frontend) its private address: keeps a previous allocation on
 * the same subnet, checks a static one, or takes the subnet's next free address.
 */
export function assignPrivateAddress(state: ArmState, ownerId: string, configurationId: string, properties: Json, previous: Json | undefined): void {
  const subnetId = referenceId(properties['subnet']);
  if (subnetId === undefined) return;
  const subnet = state.subnet(subnetId);
  if (!subnet) throw invalidResourceReference(subnetId, configurationId);
  const version = properties['privateIPAddressVersion'] === 'IPv6' ? 'IPv6' : 'IPv4';
  const prefixes = subnetPrefixes(subnet).filter((prefix) => parsePrefix(prefix)?.version === version);
  const used = state.privateAddressesInSubnet(subnetId, ownerId);
  const method = properties['privateIPAllocationMethod'] === 'Static' ? 'Static' : 'Dynamic';
  properties['privateIPAllocationMethod'] = method;
  properties['privateIPAddressVersion'] = version;
  const requested = properties['privateIPAddress'];
  if (method === 'Static') {
    if (typeof requested !== 'string' || !prefixes.some((prefix) => prefixContains(prefix, requested))) {
      throw conflict('PrivateIPAddressNotInSubnet', `IP configuration ${configurationId} references private IP address ${String(requested)} which is not in the address range of subnet ${subnetId}.`);
    }
    const holder = used.get(requested);
    if (holder !== undefined) throw conflict('PrivateIPAddressInUse', `IP configuration ${configurationId} is using the private IP address ${requested} which is already allocated to resource ${holder}.`);
    return;
  }
  const previousProperties = asObject(previous?.['properties']);
  const kept = previousProperties['privateIPAddress'];
  if (typeof kept === 'string' && sameId(referenceId(previousProperties['subnet']), subnetId) && !used.has(kept)) {
    properties['privateIPAddress'] = kept;
    return;
  }
  for (const prefix of prefixes) {
    const free = nextFreeAddress(prefix, used.keys());
    if (free !== undefined) {
      properties['privateIPAddress'] = free;
      return;
    }
  }
  throw conflict('SubnetIsFull', `Subnet ${String(subnet['name'])} with address prefix ${prefixes.join(',')} does not have enough capacity for 1 IP addresses.`);
}

/** A public IP may back one IP configuration only. */
function checkPublicAddressFree(state: ArmState, publicAddressId: string, configurationId: string): void {
  const holder = state.ipConfigurationUses().find((use) => sameId(referenceId(use.properties['publicIPAddress']), publicAddressId) && !sameId(use.id, configurationId));
  if (holder) {
    throw conflict('PublicIPAddressInUse', `Resource ${configurationId} is referencing public IP address ${publicAddressId} that is already allocated to resource ${holder.id}.`);
  }
}

function loadBalancerPart(state: ArmState, id: string, collection: string): boolean {
  const parent = state.get(topLevelId(id) ?? '');
  if (!parent || parent.kind !== 'loadBalancers') return false;
  return asArray(asObject(parent.body['properties'])[collection]).some((item) => sameId(item['id'], id));
}

/** Checks the references of NIC IP configurations and assigns their private addresses. */
export function acceptIpConfigurations(state: ArmState, ownerId: string, configurations: Json[], previous: Json[]): void {
  if (configurations.length === 0) throw invalidRequestFormat(`Network interface ${ownerId} must have at least one IP configuration.`);
  const subnets = new Set(configurations.map((configuration) => idKey(referenceId(asObject(configuration['properties'])['subnet']) ?? '')));
  if (subnets.size > 1) throw conflict('IpConfigurationsOnSameNicCannotUseDifferentSubnets', `IP configurations on the same network interface ${ownerId} cannot use different subnets.`);
  for (const configuration of configurations) {
    const id = String(configuration['id']);
    const properties = asObject(configuration['properties']);
    configuration['properties'] = properties;
    if (configurations.length === 1 && properties['primary'] === undefined) properties['primary'] = true;
    if (referenceId(properties['subnet']) === undefined) throw invalidRequestFormat(`IP configuration ${id} must reference a subnet.`);
    assignPrivateAddress(state, ownerId, id, properties, previous.find((item) => sameId(item['id'], id)));
    const publicAddressId = referenceId(properties['publicIPAddress']);
    if (publicAddressId !== undefined) {
      checkReference(publicAddressId, id, resourceExists(state, 'publicIPAddresses'));
      checkPublicAddressFree(state, publicAddressId, id);
    }
    for (const pool of asArray(properties['loadBalancerBackendAddressPools'])) {
      const poolId = referenceId(pool);
      checkReference(poolId, id, (candidate) => loadBalancerPart(state, candidate, 'backendAddressPools'));
    }
    for (const rule of asArray(properties['loadBalancerInboundNatRules'])) {
      checkReference(referenceId(rule), id, (candidate) => loadBalancerPart(state, candidate, 'inboundNatRules'));
    }
  }
}

function macAddress(): string {
  return ['00', '0D', '3A', ...[...randomBytes(3)].map((byte) => byte.toString(16).padStart(2, '0').toUpperCase())].join('-');
}

const NETWORK_READ_ONLY = ['provisioningState', 'resourceGuid'];

// ---- virtual networks ----------------------------------------------------------------------

export const virtualNetworks: ResourceKindHandler = {
  kind: 'virtualNetworks',
  accept(request) {
    requireLocation(request);
    const input = request.input;
    const properties = withoutKeys(asObject(input['properties']), NETWORK_READ_ONLY);
    const subnets = normalizeNested(request.id, properties['subnets'], 'subnets', ['ipConfigurations', 'ipConfigurationProfiles', 'purpose', 'privateEndpoints']);
    for (const subnet of subnets) checkSubnet(request.state, subnet);
    const addressPrefixes = asArray([asObject(properties['addressSpace'])]).flatMap((space) => (Array.isArray(space['addressPrefixes']) ? space['addressPrefixes'] : []));
    if (addressPrefixes.length === 0) throw invalidRequestFormat('properties.addressSpace.addressPrefixes must list at least one prefix.');
    for (const previous of asArray(asObject(request.existing?.body['properties'])['subnets'])) {
      if (!subnets.some((subnet) => sameId(subnet['id'], previous['id']))) checkSubnetUnused(request.state, String(previous['id']), String(previous['name']));
    }
    return {
      body: {
        ...withoutKeys(input, ['id', 'name', 'type', 'etag', 'location', 'tags', 'properties']),
        properties: { ...properties, subnets, resourceGuid: existingGuid(request) },
      },
    };
  },
  render(resource, state) {
    return renderNetwork(resource, (properties) => {
      for (const subnet of asArray(properties['subnets'])) deriveSubnet(state, subnet);
    });
  },
  checkDelete(resource, state) {
    for (const subnet of asArray(asObject(resource.body['properties'])['subnets'])) checkSubnetUnused(state, String(subnet['id']), String(subnet['name']));
  },
};

function existingGuid(request: AcceptRequest): string {
  const previous = asObject(request.existing?.body['properties'])['resourceGuid'];
  return typeof previous === 'string' ? previous : randomUUID();
}

export function checkSubnet(state: ArmState, subnet: Json): void {
  const properties = asObject(subnet['properties']);
  const prefixes = subnetPrefixes(subnet);
  if (prefixes.length === 0) throw invalidRequestFormat(`Subnet ${String(subnet['name'])} needs properties.addressPrefix or properties.addressPrefixes.`);
  for (const prefix of prefixes) if (!parsePrefix(prefix)) throw invalidRequestFormat(`Subnet ${String(subnet['name'])} has an invalid address prefix '${prefix}'.`);
  checkReference(referenceId(properties['networkSecurityGroup']), String(subnet['id']), resourceExists(state, 'networkSecurityGroups'));
  checkReference(referenceId(properties['routeTable']), String(subnet['id']), resourceExists(state, 'routeTables'));
}

export function subnetUsers(state: ArmState, subnetId: string): string[] {
  return state
    .ipConfigurationUses()
    .filter((use) => sameId(referenceId(use.properties['subnet']), subnetId))
    .map((use) => use.id);
}

export function checkSubnetUnused(state: ArmState, subnetId: string, name: string): void {
  const users = subnetUsers(state, subnetId);
  if (users.length > 0) {
    throw conflict(
      'InUseSubnetCannotBeDeleted',
      `Subnet ${name} is in use by ${users.join(' and ')} and cannot be deleted. In order to delete the subnet, delete all the resources within the subnet. See aka.ms/deletesubnet.`,
    );
  }
}

export function deriveSubnet(state: ArmState, subnet: Json): void {
  const properties = asObject(subnet['properties']);
  setIfAny(properties, 'ipConfigurations', references(subnetUsers(state, String(subnet['id']))));
  subnet['properties'] = properties;
}

// ---- network interfaces --------------------------------------------------------------------

export const networkInterfaces: ResourceKindHandler = {
  kind: 'networkInterfaces',
  accept(request) {
    requireLocation(request);
    const properties = withoutKeys(asObject(request.input['properties']), [...NETWORK_READ_ONLY, 'virtualMachine', 'macAddress', 'primary', 'hostedWorkloads', 'tapConfigurations', 'privateEndpoint', 'dscpConfiguration', 'vnetEncryptionSupported', 'defaultOutboundConnectivityEnabled']);
    const previousProperties = asObject(request.existing?.body['properties']);
    const ipConfigurations = normalizeNested(request.id, properties['ipConfigurations'], 'ipConfigurations', []);
    acceptIpConfigurations(request.state, request.id, ipConfigurations, asArray(previousProperties['ipConfigurations']));
    checkReference(referenceId(properties['networkSecurityGroup']), request.id, resourceExists(request.state, 'networkSecurityGroups'));
    const mac = typeof previousProperties['macAddress'] === 'string' ? previousProperties['macAddress'] : macAddress();
    return {
      body: {
        ...withoutKeys(request.input, ['id', 'name', 'type', 'etag', 'location', 'tags', 'properties']),
        properties: { ...properties, ipConfigurations, macAddress: mac, resourceGuid: existingGuid(request) },
      },
    };
  },
  render(resource, state) {
    return renderNetwork(resource, (properties) => deriveNetworkInterface(state, resource, properties));
  },
  checkDelete(resource, state) {
    const user = virtualMachineUsing(state, resource.id);
    if (user) {
      throw conflict(
        'NicInUse',
        `Network Interface ${resource.id} is used by existing resource ${user.id}. In order to delete the network interface, it must be dissociated from the resource. To learn more, see aka.ms/deletenic.`,
      );
    }
  },
};

function virtualMachineUsing(state: ArmState, networkInterfaceId: string): StoredResource | undefined {
  return state.ofKind('virtualMachines').find((machine) =>
    asArray(asObject(asObject(machine.body['properties'])['networkProfile'])['networkInterfaces']).some((reference) => sameId(reference['id'], networkInterfaceId)),
  );
}

function deriveNetworkInterface(state: ArmState, resource: StoredResource, properties: Json): void {
  if (resource.kind === 'scaleSetNetworkInterfaces') {
    properties['virtualMachine'] = { id: resource.parentId };
    properties['primary'] = properties['primary'] ?? true;
    return;
  }
  const machine = virtualMachineUsing(state, resource.id);
  if (!machine) {
    delete properties['virtualMachine'];
    return;
  }
  properties['virtualMachine'] = { id: machine.id };
  const references = asArray(asObject(asObject(machine.body['properties'])['networkProfile'])['networkInterfaces']);
  const mine = references.find((reference) => sameId(reference['id'], resource.id));
  properties['primary'] = references.length === 1 || asObject(mine?.['properties'])['primary'] === true;
}

/** Scale-set NICs: read-only views ARM serves under `.../virtualMachineScaleSets/.../networkInterfaces`. */
export const scaleSetNetworkInterfaces: ResourceKindHandler = {
  kind: 'scaleSetNetworkInterfaces',
  accept() {
    throw new ArmError(405, 'MethodNotAllowed', 'Scale set network interfaces are managed through the scale set.');
  },
  render(resource, state) {
    return renderNetwork(resource, (properties) => deriveNetworkInterface(state, resource, properties));
  },
  checkDelete() {
    throw new ArmError(405, 'MethodNotAllowed', 'Scale set network interfaces are managed through the scale set.');
  },
};

// ---- public IP addresses -------------------------------------------------------------------

export const publicIPAddresses: ResourceKindHandler = {
  kind: 'publicIPAddresses',
  accept(request) {
    requireLocation(request);
    const location = String(request.input['location']);
    const properties = withoutKeys(asObject(request.input['properties']), [...NETWORK_READ_ONLY, 'ipConfiguration', 'natGateway', 'servicePublicIPAddress', 'linkedPublicIPAddress', 'migrationPhase']);
    const sku = { name: 'Standard', tier: 'Regional', ...asObject(request.input['sku']) };
    const previous = asObject(request.existing?.body['properties']);
    const version = properties['publicIPAddressVersion'] === 'IPv6' ? 'IPv6' : 'IPv4';
    properties['publicIPAddressVersion'] = version;
    properties['publicIPAllocationMethod'] = properties['publicIPAllocationMethod'] ?? (sku.name === 'Standard' ? 'Static' : 'Dynamic');
    if (sku.name === 'Standard' && properties['publicIPAllocationMethod'] !== 'Static') {
      throw conflict('StandardSkuPublicIPAddressesMustBeStatic', `Standard sku publicIp ${request.id} must have AllocationMethod set to Static.`);
    }
    properties['idleTimeoutInMinutes'] = properties['idleTimeoutInMinutes'] ?? 4;
    if (typeof properties['ipAddress'] !== 'string') {
      properties['ipAddress'] = typeof previous['ipAddress'] === 'string' ? previous['ipAddress'] : request.state.publicAddresses.allocate(version, request.state.publicAddressesInUse());
    }
    const dnsSettings = asObject(properties['dnsSettings']);
    const label = dnsSettings['domainNameLabel'];
    if (typeof label === 'string' && label !== '') {
      const fqdn = `${label}.${location.toLowerCase().replace(/\s+/g, '')}.cloudapp.azure.com`;
      const holder = request.state
        .ofKind('publicIPAddresses')
        .find((other) => !sameId(other.id, request.id) && asObject(asObject(other.body['properties'])['dnsSettings'])['fqdn'] === fqdn);
      if (holder) throw conflict('DnsRecordInUse', `DNS record ${fqdn} is already used by another public IP.`);
      properties['dnsSettings'] = { ...dnsSettings, fqdn };
    } else if (Object.keys(dnsSettings).length > 0) {
      properties['dnsSettings'] = withoutKeys(dnsSettings, ['fqdn']);
    }
    return {
      body: {
        ...withoutKeys(request.input, ['id', 'name', 'type', 'etag', 'location', 'tags', 'properties', 'sku']),
        sku,
        properties: { ...properties, resourceGuid: existingGuid(request) },
      },
    };
  },
  render(resource, state) {
    return renderNetwork(resource, (properties) => {
      const user = state.ipConfigurationUses().find((use) => sameId(referenceId(use.properties['publicIPAddress']), resource.id));
      setIfAny(properties, 'ipConfiguration', user ? { id: user.id } : undefined);
    });
  },
  checkDelete(resource, state) {
    const user = state.ipConfigurationUses().find((use) => sameId(referenceId(use.properties['publicIPAddress']), resource.id));
    if (user) {
      throw conflict(
        'PublicIPAddressCannotBeDeleted',
        `Public IP address ${resource.id} can not be deleted since it is still allocated to resource ${user.id}. In order to delete the public IP, disassociate/detach the Public IP address from the resource.  To learn how to do this, see aka.ms/deletepublicip.`,
      );
    }
  },
};

// ---- load balancers ------------------------------------------------------------------------

const LOAD_BALANCER_READ_ONLY: Record<string, string[]> = {
  frontendIPConfigurations: ['inboundNatRules', 'inboundNatPools', 'outboundRules', 'loadBalancingRules'],
  backendAddressPools: ['backendIPConfigurations', 'loadBalancingRules', 'outboundRule', 'outboundRules', 'inboundNatRules'],
  loadBalancingRules: [],
  probes: ['loadBalancingRules'],
  inboundNatRules: ['backendIPConfiguration'],
  outboundRules: [],
};

export const loadBalancers: ResourceKindHandler = {
  kind: 'loadBalancers',
  accept(request) {
    requireLocation(request);
    const { state, id } = request;
    const properties = withoutKeys(asObject(request.input['properties']), NETWORK_READ_ONLY);
    const parts: Record<string, Json[]> = {};
    for (const [collection, readOnly] of Object.entries(LOAD_BALANCER_READ_ONLY)) {
      parts[collection] = normalizeNested(id, properties[collection], collection, readOnly);
    }
    const inside = (collection: string) => (candidate: string) => (parts[collection] ?? []).some((item) => sameId(item['id'], candidate));
    const previousFrontends = asArray(asObject(request.existing?.body['properties'])['frontendIPConfigurations']);
    for (const frontend of parts['frontendIPConfigurations'] ?? []) {
      const frontendProperties = asObject(frontend['properties']);
      const publicAddressId = referenceId(frontendProperties['publicIPAddress']);
      const subnetId = referenceId(frontendProperties['subnet']);
      if (publicAddressId !== undefined) {
        checkReference(publicAddressId, String(frontend['id']), resourceExists(state, 'publicIPAddresses'));
        checkPublicAddressFree(state, publicAddressId, String(frontend['id']));
      } else if (subnetId !== undefined) {
        assignPrivateAddress(state, id, String(frontend['id']), frontendProperties, previousFrontends.find((item) => sameId(item['id'], frontend['id'])));
      } else if (referenceId(frontendProperties['publicIPPrefix']) === undefined) {
        throw invalidRequestFormat(`Frontend IP configuration ${String(frontend['id'])} needs a public IP address or a subnet.`);
      }
    }
    for (const rule of parts['loadBalancingRules'] ?? []) {
      const ruleProperties = asObject(rule['properties']);
      const ruleId = String(rule['id']);
      const frontendId = referenceId(ruleProperties['frontendIPConfiguration']);
      if (frontendId === undefined) throw invalidRequestFormat(`Load balancing rule ${ruleId} needs a frontendIPConfiguration.`);
      checkReference(frontendId, ruleId, inside('frontendIPConfigurations'));
      checkReference(referenceId(ruleProperties['backendAddressPool']), ruleId, inside('backendAddressPools'));
      for (const pool of asArray(ruleProperties['backendAddressPools'])) checkReference(referenceId(pool), ruleId, inside('backendAddressPools'));
      checkReference(referenceId(ruleProperties['probe']), ruleId, inside('probes'));
      for (const key of ['protocol', 'frontendPort', 'backendPort']) {
        if (ruleProperties[key] === undefined) throw invalidRequestFormat(`Load balancing rule ${ruleId} needs properties.${key}.`);
      }
    }
    for (const probe of parts['probes'] ?? []) {
      const probeProperties = asObject(probe['properties']);
      if (probeProperties['protocol'] === undefined || probeProperties['port'] === undefined) throw invalidRequestFormat(`Probe ${String(probe['id'])} needs properties.protocol and properties.port.`);
      if (probeProperties['protocol'] !== 'Tcp' && typeof probeProperties['requestPath'] !== 'string') {
        throw conflict('InvalidRequestPath', `Probe ${String(probe['id'])} with protocol ${String(probeProperties['protocol'])} needs a requestPath.`);
      }
    }
    // IP-based pools (`loadBalancerBackendAddresses`): the virtual network of the addresses, on the pool or on each address, must exist.
    for (const pool of parts['backendAddressPools'] ?? []) {
      const poolProperties = asObject(pool['properties']);
      for (const address of asArray(poolProperties['loadBalancerBackendAddresses'])) {
        const addressProperties = asObject(address['properties']);
        const virtualNetworkId = referenceId(poolProperties['virtualNetwork']) ?? referenceId(addressProperties['virtualNetwork']);
        if (typeof addressProperties['ipAddress'] === 'string' && virtualNetworkId === undefined) {
          throw invalidRequestFormat(`Backend address ${String(address['name'])} of ${String(pool['id'])} has an IP address but no virtual network.`);
        }
        checkReference(virtualNetworkId, String(pool['id']), resourceExists(state, 'virtualNetworks'));
      }
    }
    for (const rule of parts['outboundRules'] ?? []) {
      const ruleProperties = asObject(rule['properties']);
      for (const frontend of asArray(ruleProperties['frontendIPConfigurations'])) checkReference(referenceId(frontend), String(rule['id']), inside('frontendIPConfigurations'));
      checkReference(referenceId(ruleProperties['backendAddressPool']), String(rule['id']), inside('backendAddressPools'));
    }
    for (const rule of parts['inboundNatRules'] ?? []) {
      checkReference(referenceId(asObject(rule['properties'])['frontendIPConfiguration']), String(rule['id']), inside('frontendIPConfigurations'));
    }
    for (const previous of asArray(asObject(request.existing?.body['properties'])['backendAddressPools'])) {
      if (!inside('backendAddressPools')(String(previous['id']))) checkPoolUnused(state, String(previous['id']));
    }
    return {
      body: {
        ...withoutKeys(request.input, ['id', 'name', 'type', 'etag', 'location', 'tags', 'properties', 'sku']),
        sku: { name: 'Standard', tier: 'Regional', ...asObject(request.input['sku']) },
        properties: { ...properties, ...parts, resourceGuid: existingGuid(request) },
      },
    };
  },
  render(resource, state) {
    return renderNetwork(resource, (properties) => {
      const rules = asArray(properties['loadBalancingRules']);
      const outbound = asArray(properties['outboundRules']);
      const inboundNat = asArray(properties['inboundNatRules']);
      const referencing = (items: Json[], key: string, id: unknown, many = false) =>
        items
          .filter((item) => {
            const itemProperties = asObject(item['properties']);
            return many ? asArray(itemProperties[key]).some((reference) => sameId(reference['id'], id)) : sameId(referenceId(itemProperties[key]), id);
          })
          .map((item) => String(item['id']));
      for (const frontend of asArray(properties['frontendIPConfigurations'])) {
        const frontendProperties = asObject(frontend['properties']);
        setIfAny(frontendProperties, 'loadBalancingRules', references(referencing(rules, 'frontendIPConfiguration', frontend['id'])));
        setIfAny(frontendProperties, 'outboundRules', references(referencing(outbound, 'frontendIPConfigurations', frontend['id'], true)));
        setIfAny(frontendProperties, 'inboundNatRules', references(referencing(inboundNat, 'frontendIPConfiguration', frontend['id'])));
      }
      for (const pool of asArray(properties['backendAddressPools'])) {
        const poolProperties = asObject(pool['properties']);
        setIfAny(poolProperties, 'backendIPConfigurations', references(poolMembers(state, String(pool['id']))));
        const ruleIds = [...new Set([...referencing(rules, 'backendAddressPool', pool['id']), ...referencing(rules, 'backendAddressPools', pool['id'], true)])];
        setIfAny(poolProperties, 'loadBalancingRules', references(ruleIds));
        setIfAny(poolProperties, 'outboundRules', references(referencing(outbound, 'backendAddressPool', pool['id'])));
      }
      for (const probe of asArray(properties['probes'])) {
        setIfAny(asObject(probe['properties']), 'loadBalancingRules', references(referencing(rules, 'probe', probe['id'])));
      }
    });
  },
  checkDelete(resource, state) {
    for (const pool of asArray(asObject(resource.body['properties'])['backendAddressPools'])) checkPoolUnused(state, String(pool['id']));
  },
};

/** NIC IP configurations (standalone and scale-set NICs) in a backend pool. */
export function poolMembers(state: ArmState, poolId: string): string[] {
  return state
    .ipConfigurationUses()
    .filter((use) => asArray(use.properties['loadBalancerBackendAddressPools']).some((reference) => sameId(reference['id'], poolId)))
    .map((use) => use.id);
}

function scaleSetsUsingPool(state: ArmState, poolId: string): StoredResource[] {
  return state.ofKind('virtualMachineScaleSets').filter((scaleSet) => JSON.stringify(scaleSet.body).toLowerCase().includes(`"${poolId.toLowerCase()}"`));
}

export function checkPoolUnused(state: ArmState, poolId: string): void {
  const scaleSet = scaleSetsUsingPool(state, poolId)[0];
  if (scaleSet) {
    throw conflict(
      'LoadBalancerInUseByVirtualMachineScaleSet',
      `Cannot delete backend address pool ${poolId} since it is in use by virtual machine scale set ${scaleSet.id}.`,
    );
  }
  const members = poolMembers(state, poolId);
  if (members.length > 0) {
    throw conflict('OperationNotAllowed', `Backend address pool ${poolId} is referenced by IP configurations ${members.join(', ')}; remove them from the pool first.`);
  }
}

// ---- network security groups ---------------------------------------------------------------

function defaultSecurityRules(nsgId: string): Json[] {
  const rule = (name: string, direction: string, priority: number, access: string, source: string, destination: string, description: string): Json => ({
    name,
    id: `${nsgId}/defaultSecurityRules/${name}`,
    properties: {
      description,
      protocol: '*',
      sourcePortRange: '*',
      destinationPortRange: '*',
      sourceAddressPrefix: source,
      sourceAddressPrefixes: [],
      destinationAddressPrefix: destination,
      destinationAddressPrefixes: [],
      sourcePortRanges: [],
      destinationPortRanges: [],
      access,
      priority,
      direction,
    },
  });
  return [
    rule('AllowVnetInBound', 'Inbound', 65000, 'Allow', 'VirtualNetwork', 'VirtualNetwork', 'Allow inbound traffic from all VMs in VNET'),
    rule('AllowAzureLoadBalancerInBound', 'Inbound', 65001, 'Allow', 'AzureLoadBalancer', '*', 'Allow inbound traffic from azure load balancer'),
    rule('DenyAllInBound', 'Inbound', 65500, 'Deny', '*', '*', 'Deny all inbound traffic'),
    rule('AllowVnetOutBound', 'Outbound', 65000, 'Allow', 'VirtualNetwork', 'VirtualNetwork', 'Allow outbound traffic from all VMs to all VMs in VNET'),
    rule('AllowInternetOutBound', 'Outbound', 65001, 'Allow', '*', 'Internet', 'Allow outbound traffic from all VMs to Internet'),
    rule('DenyAllOutBound', 'Outbound', 65500, 'Deny', '*', '*', 'Deny all outbound traffic'),
  ];
}

export function checkSecurityRules(rules: Json[]): void {
  const byPriority = new Map<string, string>();
  for (const rule of rules) {
    const properties = asObject(rule['properties']);
    const name = String(rule['name']);
    const priority = properties['priority'];
    if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 100 || priority > 4096) {
      throw conflict('SecurityRuleInvalidPriority', `Security rule ${name} has invalid Priority. Value provided: ${String(priority)} Allowed range 100-4096.`);
    }
    for (const key of ['protocol', 'access', 'direction']) {
      if (typeof properties[key] !== 'string') throw invalidRequestFormat(`Security rule ${name} needs properties.${key}.`);
    }
    const key = `${String(properties['direction'])}/${priority}`;
    const other = byPriority.get(key);
    if (other !== undefined) {
      throw conflict('SecurityRuleConflict', `Security rule ${other} conflicts with rule ${name}. Rules cannot have the same Priority and Direction. To learn more, see aka.ms/nsgrules.`);
    }
    byPriority.set(key, name);
  }
}

export const networkSecurityGroups: ResourceKindHandler = {
  kind: 'networkSecurityGroups',
  accept(request) {
    requireLocation(request);
    const properties = withoutKeys(asObject(request.input['properties']), [...NETWORK_READ_ONLY, 'defaultSecurityRules', 'subnets', 'networkInterfaces', 'flowLogs']);
    const securityRules = normalizeNested(request.id, properties['securityRules'], 'securityRules', []);
    checkSecurityRules(securityRules);
    return {
      body: {
        ...withoutKeys(request.input, ['id', 'name', 'type', 'etag', 'location', 'tags', 'properties']),
        properties: { ...properties, securityRules, defaultSecurityRules: defaultSecurityRules(request.id), resourceGuid: existingGuid(request) },
      },
    };
  },
  render(resource, state) {
    return renderNetwork(resource, (properties) => {
      const users = securityGroupUsers(state, resource.id);
      setIfAny(properties, 'subnets', references(users.subnets));
      setIfAny(properties, 'networkInterfaces', references(users.networkInterfaces));
    });
  },
  checkDelete(resource, state) {
    const users = securityGroupUsers(state, resource.id);
    const all = [...users.subnets, ...users.networkInterfaces];
    if (all.length > 0) {
      throw conflict('InUseNetworkSecurityGroupCannotBeDeleted', `Network security group ${resource.id} cannot be deleted because it is in use by the following resources: ${all.join(', ')}. In order to delete the Network security group, remove the association with the resource(s). To learn how to do this, see aka.ms/deletensg.`);
    }
  },
};

function securityGroupUsers(state: ArmState, nsgId: string): { subnets: string[]; networkInterfaces: string[] } {
  const subnets: string[] = [];
  for (const network of state.ofKind('virtualNetworks')) {
    for (const subnet of asArray(asObject(network.body['properties'])['subnets'])) {
      if (sameId(referenceId(asObject(subnet['properties'])['networkSecurityGroup']), nsgId)) subnets.push(String(subnet['id']));
    }
  }
  const networkInterfaces = [...state.ofKind('networkInterfaces'), ...state.ofKind('scaleSetNetworkInterfaces')]
    .filter((nic) => sameId(referenceId(asObject(nic.body['properties'])['networkSecurityGroup']), nsgId))
    .map((nic) => nic.id);
  return { subnets, networkInterfaces };
}

// ---- route tables --------------------------------------------------------------------------

const NEXT_HOP_TYPES = ['VirtualNetworkGateway', 'VnetLocal', 'Internet', 'VirtualAppliance', 'None'];

export function checkRoutes(routes: Json[]): void {
  for (const route of routes) {
    const properties = asObject(route['properties']);
    const name = String(route['name']);
    if (typeof properties['addressPrefix'] !== 'string') throw invalidRequestFormat(`Route ${name} needs properties.addressPrefix.`);
    if (!NEXT_HOP_TYPES.includes(String(properties['nextHopType']))) {
      throw invalidRequestFormat(`Route ${name} has nextHopType '${String(properties['nextHopType'])}'; allowed: ${NEXT_HOP_TYPES.join(', ')}.`);
    }
    if (properties['nextHopType'] === 'VirtualAppliance' && typeof properties['nextHopIpAddress'] !== 'string') {
      throw conflict('InvalidNextHopIpAddress', `Route ${name} has next hop type VirtualAppliance but no nextHopIpAddress.`);
    }
  }
}

export const routeTables: ResourceKindHandler = {
  kind: 'routeTables',
  accept(request) {
    requireLocation(request);
    const properties = withoutKeys(asObject(request.input['properties']), [...NETWORK_READ_ONLY, 'subnets']);
    const routes = normalizeNested(request.id, properties['routes'], 'routes', []);
    checkRoutes(routes);
    return {
      body: {
        ...withoutKeys(request.input, ['id', 'name', 'type', 'etag', 'location', 'tags', 'properties']),
        properties: { disableBgpRoutePropagation: false, ...properties, routes, resourceGuid: existingGuid(request) },
      },
    };
  },
  render(resource, state) {
    return renderNetwork(resource, (properties) => {
      setIfAny(properties, 'subnets', references(routeTableSubnets(state, resource.id)));
    });
  },
  checkDelete(resource, state) {
    const subnets = routeTableSubnets(state, resource.id);
    if (subnets.length > 0) {
      throw conflict('InUseRouteTableCannotBeDeleted', `Route table ${resource.id} is in use and cannot be deleted. In order to delete the route table, remove the association with the subnets ${subnets.join(', ')}.`);
    }
  },
};

function routeTableSubnets(state: ArmState, routeTableId: string): string[] {
  const subnets: string[] = [];
  for (const network of state.ofKind('virtualNetworks')) {
    for (const subnet of asArray(asObject(network.body['properties'])['subnets'])) {
      if (sameId(referenceId(asObject(subnet['properties'])['routeTable']), routeTableId)) subnets.push(String(subnet['id']));
    }
  }
  return subnets;
}
