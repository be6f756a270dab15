/**
 * Microsoft.Compute resources: virtual machines (availability-set, standalone and flexible
 * scale-set members), availability sets, scale sets and uniform scale-set instances with their
 * NICs. A uniform scale set makes `sku.capacity` instances from its model; each gets one NIC per
 * network interface configuration, with addresses from the model's subnet. Power state lives in
 * the instance view and changes through the start/powerOff/deallocate/restart actions.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ArmError } from './arm-error.js';
import { RESOURCE_TYPE, type ArmState, type StoredResource } from './arm-state.js';
import { acceptIpConfigurations } from './network-resources.js';
import { envelope, withoutKeys, type AcceptRequest, type RenderOptions, type ResourceKindHandler } from './resource-kind.js';
import { asArray, asObject, clone, idKey, parseResourceId, referenceId, sameId, type Json } from './resource-id.js';

export type PowerState = 'starting' | 'running' | 'stopping' | 'stopped' | 'deallocating' | 'deallocated';

const POWER_DISPLAY: Record<PowerState, string> = {
  starting: 'VM starting',
  running: 'VM running',
  stopping: 'VM stopping',
  stopped: 'VM stopped',
  deallocating: 'VM deallocating',
  deallocated: 'VM deallocated',
};

function invalidParameter(message: string, target: string): ArmError {
  const error = new ArmError(400, 'InvalidParameter', message);
  return Object.assign(error, { target });
}

function requireLocation(request: AcceptRequest): void {
  if (typeof request.input['location'] !== 'string' || request.input['location'] === '') {
    throw new ArmError(400, 'LocationRequired', 'The location property is required for this definition.');
  }
}

function computeNotFound(kindLabel: string, id: string): ArmError {
  return new ArmError(404, 'NotFound', `The ${kindLabel} '${id}' could not be found.`);
}

const TOP_LEVEL_READ_ONLY = ['id', 'name', 'type', 'etag', 'location', 'tags', 'properties', 'resources', 'managedBy'];

function keep(previous: Json, key: string, make: () => unknown): unknown {
  return previous[key] ?? make();
}

/** The `statuses` of an instance view: provisioning state, then power state. */
function statuses(resource: StoredResource): Json[] {
  const time = asObject(resource.body['properties'])['timeCreated'];
  const provisioning: Json = {
    code: `ProvisioningState/${resource.provisioningState.toLowerCase()}`,
    level: 'Info',
    displayStatus: resource.provisioningState === 'Succeeded' ? 'Provisioning succeeded' : `Provisioning ${resource.provisioningState.toLowerCase()}`,
    ...(typeof time === 'string' ? { time } : {}),
  };
  const power = (resource.powerState ?? 'running') as PowerState;
  return [provisioning, { code: `PowerState/${power}`, level: 'Info', displayStatus: POWER_DISPLAY[power] }];
}

export function instanceView(resource: StoredResource): Json {
  const properties = asObject(resource.body['properties']);
  return {
    computerName: asObject(properties['osProfile'])['computerName'],
    osName: 'ubuntu',
    osVersion: '22.04',
    platformUpdateDomain: resource.updateDomain ?? 0,
    platformFaultDomain: resource.faultDomain ?? 0,
    hyperVGeneration: 'V2',
    statuses: statuses(resource),
  };
}

function renderCompute(resource: StoredResource, extra: Json, options: RenderOptions): Json {
  const body = clone(resource.body);
  const properties: Json = { ...asObject(body['properties']), ...extra, provisioningState: resource.provisioningState };
  if (options.expandInstanceView && resource.powerState !== undefined) properties['instanceView'] = instanceView(resource);
  return envelope(resource, RESOURCE_TYPE[resource.kind], { ...body, properties });
}

// ---- virtual machines ----------------------------------------------------------------------

function checkMachineNetworkInterfaces(state: ArmState, machineId: string, networkProfile: Json): void {
  const references = asArray(networkProfile['networkInterfaces']);
  if (references.length === 0 && asArray(networkProfile['networkInterfaceConfigurations']).length === 0) {
    throw invalidParameter('At least one network interface is required: properties.networkProfile.networkInterfaces is empty.', 'networkProfile.networkInterfaces');
  }
  if (references.length > 1 && !references.some((reference) => asObject(reference['properties'])['primary'] === true)) {
    throw invalidParameter('Virtual machine has multiple network interfaces; one of them must be marked primary.', 'networkProfile.networkInterfaces');
  }
  for (const reference of references) {
    const nicId = referenceId(reference);
    const nic = nicId === undefined ? undefined : state.get(nicId);
    if (!nic || nic.kind !== 'networkInterfaces') throw computeNotFound('network interface', String(nicId));
    const holder = state
      .ofKind('virtualMachines')
      .find((machine) => !sameId(machine.id, machineId) && asArray(asObject(asObject(machine.body['properties'])['networkProfile'])['networkInterfaces']).some((other) => sameId(other['id'], nicId)));
    if (holder) {
      throw new ArmError(400, 'NicInUse', `Network Interface ${String(nicId)} is used by existing resource ${holder.id}. A network interface can be attached to one virtual machine only.`);
    }
  }
}

function placeInAvailabilitySet(state: ArmState, machineId: string, availabilitySetId: string): { faultDomain: number; updateDomain: number } {
  const set = state.get(availabilitySetId);
  const properties = asObject(set?.body['properties']);
  const faultDomains = Number(properties['platformFaultDomainCount'] ?? 2);
  const updateDomains = Number(properties['platformUpdateDomainCount'] ?? 5);
  const members = state.ofKind('virtualMachines').filter((machine) => sameId(referenceId(asObject(machine.body['properties'])['availabilitySet']), availabilitySetId) && !sameId(machine.id, machineId));
  const index = members.length;
  return { faultDomain: index % faultDomains, updateDomain: index % updateDomains };
}

export const virtualMachines: ResourceKindHandler = {
  kind: 'virtualMachines',
  accept(request) {
    requireLocation(request);
    const { state, id, existing } = request;
    const properties = withoutKeys(asObject(request.input['properties']), ['provisioningState', 'instanceView', 'vmId', 'timeCreated']);
    const previous = asObject(existing?.body['properties']);
    const hardwareProfile = asObject(properties['hardwareProfile']);
    if (typeof hardwareProfile['vmSize'] !== 'string') throw invalidParameter('Required parameter \'hardwareProfile.vmSize\' is missing (null).', 'hardwareProfile.vmSize');
    checkMachineNetworkInterfaces(state, id, asObject(properties['networkProfile']));
    const availabilitySetId = referenceId(properties['availabilitySet']);
    if (availabilitySetId !== undefined && state.get(availabilitySetId)?.kind !== 'availabilitySets') throw computeNotFound('availability set', availabilitySetId);
    const scaleSetId = referenceId(properties['virtualMachineScaleSet']);
    if (scaleSetId !== undefined) {
      const scaleSet = state.get(scaleSetId);
      if (scaleSet?.kind !== 'virtualMachineScaleSets') throw computeNotFound('virtual machine scale set', scaleSetId);
      if (asObject(scaleSet.body['properties'])['orchestrationMode'] !== 'Flexible') {
        throw invalidParameter(`Virtual machine scale set ${scaleSetId} uses Uniform orchestration; only Flexible scale sets take virtual machines by reference.`, 'virtualMachineScaleSet');
      }
    }
    if (existing && !sameId(referenceId(previous['availabilitySet']), availabilitySetId)) {
      throw new ArmError(409, 'OperationNotAllowed', 'Availability set of an existing virtual machine cannot be changed.');
    }
    const osProfile = { computerName: request.name, ...asObject(properties['osProfile']) };
    const placement = availabilitySetId !== undefined && !existing ? placeInAvailabilitySet(state, id, availabilitySetId) : undefined;
    const requestedFaultDomain = properties['platformFaultDomain'];
    return {
      body: {
        ...withoutKeys(request.input, TOP_LEVEL_READ_ONLY),
        properties: {
          ...properties,
          osProfile,
          vmId: keep(previous, 'vmId', randomUUID),
          timeCreated: keep(previous, 'timeCreated', () => new Date().toISOString()),
        },
      },
      afterStore(resource) {
        if (placement) Object.assign(resource, placement);
        if (typeof requestedFaultDomain === 'number') resource.faultDomain = requestedFaultDomain;
        resource.faultDomain ??= 0;
        resource.updateDomain ??= 0;
        resource.powerState ??= 'running';
      },
    };
  },
  render(resource, _state, options) {
    return renderCompute(resource, {}, options);
  },
  checkDelete() {},
};

// ---- availability sets ---------------------------------------------------------------------

export const availabilitySets: ResourceKindHandler = {
  kind: 'availabilitySets',
  accept(request) {
    requireLocation(request);
    const properties = withoutKeys(asObject(request.input['properties']), ['virtualMachines', 'statuses']);
    const faultDomains = properties['platformFaultDomainCount'] ?? 2;
    if (typeof faultDomains !== 'number' || faultDomains < 1 || faultDomains > 3) {
      throw invalidParameter(`The specified fault domain count ${String(faultDomains)} must fall in the range 1 to 3.`, 'platformFaultDomainCount');
    }
    return {
      body: {
        ...withoutKeys(request.input, [...TOP_LEVEL_READ_ONLY, 'sku']),
        sku: { name: 'Aligned', ...asObject(request.input['sku']) },
        properties: { ...properties, platformFaultDomainCount: faultDomains, platformUpdateDomainCount: properties['platformUpdateDomainCount'] ?? 5 },
      },
    };
  },
  render(resource, state) {
    const body = clone(resource.body);
    const members = availabilitySetMembers(state, resource.id).map((machine) => ({ id: upperCaseId(machine.id) }));
    const { etag: _etag, ...rest } = envelope(resource, RESOURCE_TYPE.availabilitySets, { ...body, properties: { ...asObject(body['properties']), ...(members.length > 0 ? { virtualMachines: members } : {}) } });
    return rest;
  },
  checkDelete(resource, state) {
    const members = availabilitySetMembers(state, resource.id);
    if (members.length > 0) {
      throw new ArmError(409, 'OperationNotAllowed', `Availability set ${resource.id} cannot be deleted. Before deleting an Availability Set please ensure that it does not contain any VM. It contains ${members.map((machine) => machine.name).join(', ')}.`);
    }
  },
};

function availabilitySetMembers(state: ArmState, availabilitySetId: string): StoredResource[] {
  return state.ofKind('virtualMachines').filter((machine) => sameId(referenceId(asObject(machine.body['properties'])['availabilitySet']), availabilitySetId));
}

/** Availability sets list their members with upper-cased resource group and VM names, as Azure does. */
function upperCaseId(id: string): string {
  const parsed = parseResourceId(id);
  if (!parsed) return id;
  return `/subscriptions/${parsed.subscriptionId}/resourceGroups/${parsed.resourceGroup.toUpperCase()}/providers/${parsed.namespace}/${parsed.segments.map(([type, name]) => `${type}/${name.toUpperCase()}`).join('/')}`;
}

// ---- scale sets ----------------------------------------------------------------------------

function networkConfigurations(model: Json): Json[] {
  return asArray(asObject(asObject(model['networkProfile']))['networkInterfaceConfigurations']);
}

/** Checks a scale-set model's network references (subnets, pools, NSGs) the way NRP would for its NICs. */
function checkScaleSetNetwork(state: ArmState, scaleSetId: string, configurations: Json[]): void {
  for (const configuration of configurations) {
    const properties = asObject(configuration['properties']);
    const nicId = `${scaleSetId}/virtualMachines/model/networkInterfaces/${String(configuration['name'])}`;
    const nsgId = referenceId(properties['networkSecurityGroup']);
    if (nsgId !== undefined && state.get(nsgId)?.kind !== 'networkSecurityGroups') throw new ArmError(400, 'InvalidResourceReference', `Resource ${nsgId} referenced by resource ${nicId} was not found.`);
    for (const ipConfiguration of asArray(properties['ipConfigurations'])) {
      const ipProperties = asObject(ipConfiguration['properties']);
      const subnetId = referenceId(ipProperties['subnet']);
      if (subnetId === undefined || !state.subnet(subnetId)) {
        throw new ArmError(400, 'InvalidResourceReference', `Resource ${String(subnetId)} referenced by resource ${nicId}/ipConfigurations/${String(ipConfiguration['name'])} was not found. Please make sure that the referenced resource exists, and that both resources are in the same region.`);
      }
      for (const pool of asArray(ipProperties['loadBalancerBackendAddressPools'])) {
        const poolId = referenceId(pool) ?? '';
        const found = state.nested(poolId);
        if (!found || found.parent.kind !== 'loadBalancers') {
          throw new ArmError(400, 'InvalidResourceReference', `Resource ${poolId} referenced by resource ${nicId}/ipConfigurations/${String(ipConfiguration['name'])} was not found. Please make sure that the referenced resource exists, and that both resources are in the same region.`);
        }
      }
    }
  }
}

/** `aks-nodepool1-vmss` + instance 10 -> `aks-nodepool1-vmss00000a` (six base-36 digits, as Azure names uniform instances). */
export function scaleSetComputerName(prefix: string, instanceId: number): string {
  return `${prefix}${instanceId.toString(36).padStart(6, '0')}`;
}

export const virtualMachineScaleSets: ResourceKindHandler = {
  kind: 'virtualMachineScaleSets',
  accept(request) {
    requireLocation(request);
    const { state, id, existing } = request;
    const properties = withoutKeys(asObject(request.input['properties']), ['provisioningState', 'uniqueId', 'timeCreated']);
    const previous = asObject(existing?.body['properties']);
    const orchestrationMode = properties['orchestrationMode'] ?? previous['orchestrationMode'] ?? 'Uniform';
    if (existing && orchestrationMode !== previous['orchestrationMode']) {
      throw invalidParameter('The orchestration mode of an existing scale set cannot be changed.', 'orchestrationMode');
    }
    const sku = asObject(request.input['sku']);
    const model = asObject(properties['virtualMachineProfile']);
    if (orchestrationMode === 'Uniform') {
      if (typeof sku['name'] !== 'string' || typeof sku['capacity'] !== 'number') {
        throw invalidParameter("Required parameters 'sku.name' and 'sku.capacity' are missing for a Uniform scale set.", 'sku');
      }
      if (networkConfigurations(model).length === 0) {
        throw invalidParameter('Required parameter \'virtualMachineProfile.networkProfile.networkInterfaceConfigurations\' is missing.', 'virtualMachineProfile.networkProfile');
      }
    }
    checkScaleSetNetwork(state, id, networkConfigurations(model));
    const computerNamePrefix = asObject(model['osProfile'])['computerNamePrefix'];
    if (orchestrationMode === 'Uniform' && Object.keys(model).length > 0) {
      model['osProfile'] = { computerNamePrefix: typeof computerNamePrefix === 'string' ? computerNamePrefix : request.name, ...asObject(model['osProfile']) };
    }
    const modelChanged = existing !== undefined && JSON.stringify(networkConfigurations(asObject(previous['virtualMachineProfile']))) !== JSON.stringify(networkConfigurations(model));
    return {
      body: {
        ...withoutKeys(request.input, TOP_LEVEL_READ_ONLY),
        properties: {
          ...properties,
          ...(Object.keys(model).length > 0 ? { virtualMachineProfile: model } : {}),
          orchestrationMode,
          ...(orchestrationMode === 'Flexible' ? { platformFaultDomainCount: properties['platformFaultDomainCount'] ?? 1 } : { overprovision: properties['overprovision'] ?? false, upgradePolicy: properties['upgradePolicy'] ?? { mode: 'Manual' } }),
          uniqueId: keep(previous, 'uniqueId', randomUUID),
          timeCreated: keep(previous, 'timeCreated', () => new Date().toISOString()),
        },
      },
      afterStore(resource) {
        resource.nextInstanceId ??= 0;
        if (orchestrationMode !== 'Uniform') return;
        if (modelChanged) {
          for (const instance of scaleSetInstances(state, resource.id)) instance.body['properties'] = { ...asObject(instance.body['properties']), latestModelApplied: false };
        }
        reconcileCapacity(state, resource);
      },
    };
  },
  render(resource, _state, options) {
    return renderCompute(resource, {}, { ...options, expandInstanceView: false });
  },
  checkDelete() {},
  afterDelete(resource, state) {
    for (const instance of scaleSetInstances(state, resource.id)) deleteInstance(state, instance);
  },
};

export function scaleSetInstances(state: ArmState, scaleSetId: string): StoredResource[] {
  return state
    .ofKind('scaleSetVirtualMachines')
    .filter((instance) => sameId(instance.parentId, scaleSetId))
    .sort((left, right) => Number(left.body['instanceId']) - Number(right.body['instanceId']));
}

export function deleteInstance(state: ArmState, instance: StoredResource): void {
  for (const nic of state.ofKind('scaleSetNetworkInterfaces')) if (sameId(nic.parentId, instance.id)) state.deleteResource(nic.id);
  state.deleteResource(instance.id);
}

/** Adds instances up to `sku.capacity` or removes the newest ones above it. */
function reconcileCapacity(state: ArmState, scaleSet: StoredResource): void {
  const capacity = Number(asObject(scaleSet.body['sku'])['capacity'] ?? 0);
  const instances = scaleSetInstances(state, scaleSet.id);
  for (const extra of instances.slice(capacity).reverse()) deleteInstance(state, extra);
  for (let count = instances.length; count < capacity; count += 1) createInstance(state, scaleSet);
}

function createInstance(state: ArmState, scaleSet: StoredResource): void {
  const instanceNumber = scaleSet.nextInstanceId ?? 0;
  scaleSet.nextInstanceId = instanceNumber + 1;
  const instanceId = String(instanceNumber);
  const id = `${scaleSet.id}/virtualMachines/${instanceId}`;
  const scaleSetProperties = asObject(scaleSet.body['properties']);
  const model = asObject(scaleSetProperties['virtualMachineProfile']);
  const configurations = clone(networkConfigurations(model));
  const zones = Array.isArray(scaleSet.body['zones']) ? (scaleSet.body['zones'] as string[]) : [];
  const sku = asObject(scaleSet.body['sku']);
  const prefix = String(asObject(model['osProfile'])['computerNamePrefix'] ?? scaleSet.name);
  const instance: StoredResource = {
    id,
    kind: 'scaleSetVirtualMachines',
    name: `${scaleSet.name}_${instanceId}`,
    resourceGroup: scaleSet.resourceGroup,
    location: scaleSet.location,
    tags: scaleSet.tags ? clone(scaleSet.tags) : undefined,
    body: {
      instanceId,
      sku: { name: sku['name'], ...(sku['tier'] !== undefined ? { tier: sku['tier'] } : {}) },
      ...(zones.length > 0 ? { zones: [zones[instanceNumber % zones.length]] } : {}),
      properties: {
        latestModelApplied: true,
        vmId: randomUUID(),
        hardwareProfile: {},
        osProfile: { computerName: scaleSetComputerName(prefix, instanceNumber), ...(asObject(model['osProfile'])['adminUsername'] !== undefined ? { adminUsername: asObject(model['osProfile'])['adminUsername'] } : {}) },
        networkProfile: {
          networkInterfaces: configurations.map((configuration) => ({
            id: `${id}/networkInterfaces/${String(configuration['name'])}`,
            ...(asObject(configuration['properties'])['primary'] !== undefined ? { properties: { primary: asObject(configuration['properties'])['primary'] } } : {}),
          })),
        },
        networkProfileConfiguration: { networkInterfaceConfigurations: configurations },
        timeCreated: new Date().toISOString(),
      },
    },
    etag: state.newEtag('scaleSetVirtualMachines'),
    provisioningState: 'Succeeded',
    powerState: 'running',
    parentId: scaleSet.id,
    faultDomain: instanceNumber % Math.max(1, Number(scaleSetProperties['platformFaultDomainCount'] ?? 5)),
    updateDomain: instanceNumber % 5,
  };
  delete asObject(instance.body['properties'])['hardwareProfile'];
  state.resources.set(idKey(id), instance);
  writeInstanceNetworkInterfaces(state, instance, configurations);
}

/** Creates or updates an instance's NICs from network interface configurations (keeping addresses). */
function writeInstanceNetworkInterfaces(state: ArmState, instance: StoredResource, configurations: Json[]): void {
  for (const configuration of configurations) {
    const configurationProperties = asObject(configuration['properties']);
    const nicId = `${instance.id}/networkInterfaces/${String(configuration['name'])}`;
    const existing = state.get(nicId);
    const previous = asArray(asObject(existing?.body['properties'])['ipConfigurations']);
    const ipConfigurations = asArray(configurationProperties['ipConfigurations']).map((ipConfiguration) => {
      const ipProperties = asObject(ipConfiguration['properties']);
      return {
        name: ipConfiguration['name'],
        id: `${nicId}/ipConfigurations/${String(ipConfiguration['name'])}`,
        properties: {
          subnet: { id: referenceId(ipProperties['subnet']) },
          ...(ipProperties['primary'] !== undefined ? { primary: ipProperties['primary'] } : {}),
          privateIPAllocationMethod: 'Dynamic',
          privateIPAddressVersion: ipProperties['privateIPAddressVersion'] ?? 'IPv4',
          ...(asArray(ipProperties['loadBalancerBackendAddressPools']).length > 0 ? { loadBalancerBackendAddressPools: asArray(ipProperties['loadBalancerBackendAddressPools']).map((pool) => ({ id: referenceId(pool) })) } : {}),
          ...(asArray(ipProperties['loadBalancerInboundNatPools']).length > 0 ? { loadBalancerInboundNatRules: [] } : {}),
        } as Json,
      };
    });
    acceptIpConfigurations(state, nicId, ipConfigurations, previous);
    const nic: StoredResource = {
      id: nicId,
      kind: 'scaleSetNetworkInterfaces',
      name: String(configuration['name']),
      resourceGroup: instance.resourceGroup,
      location: instance.location,
      tags: undefined,
      body: {
        properties: {
          ipConfigurations,
          ...(configurationProperties['primary'] !== undefined ? { primary: configurationProperties['primary'] } : {}),
          enableAcceleratedNetworking: configurationProperties['enableAcceleratedNetworking'] ?? false,
          enableIPForwarding: configurationProperties['enableIPForwarding'] ?? false,
          ...(referenceId(configurationProperties['networkSecurityGroup']) !== undefined ? { networkSecurityGroup: { id: referenceId(configurationProperties['networkSecurityGroup']) } } : {}),
          dnsSettings: { dnsServers: [], appliedDnsServers: [] },
          macAddress: asObject(existing?.body['properties'])['macAddress'] ?? ['00', '0D', '3A', ...[...randomBytes(3)].map((byte) => byte.toString(16).padStart(2, '0').toUpperCase())].join('-'),
          resourceGuid: asObject(existing?.body['properties'])['resourceGuid'] ?? randomUUID(),
        },
      },
      etag: `W/"${randomUUID()}"`,
      provisioningState: 'Succeeded',
      parentId: instance.id,
    };
    state.resources.set(idKey(nicId), nic);
  }
}

// ---- scale-set instances -------------------------------------------------------------------

export const scaleSetVirtualMachines: ResourceKindHandler = {
  kind: 'scaleSetVirtualMachines',
  accept(request) {
    const { state, existing } = request;
    if (!existing) throw new ArmError(404, 'NotFound', `The entity was not found in this Azure location. Scale set instances are created through the scale set's capacity (${request.id}).`);
    const properties = withoutKeys(asObject(request.input['properties']), ['provisioningState', 'instanceView', 'vmId', 'timeCreated', 'latestModelApplied', 'modelDefinitionApplied', 'networkProfile']);
    const previous = asObject(existing.body['properties']);
    const configurations = networkConfigurations({ networkProfile: asObject(properties['networkProfileConfiguration']) });
    const nextConfigurations = configurations.length > 0 ? configurations : networkConfigurations({ networkProfile: asObject(previous['networkProfileConfiguration']) });
    checkScaleSetNetwork(state, existing.parentId ?? '', nextConfigurations);
    const scaleSet = state.get(existing.parentId ?? '');
    const model = networkConfigurations(asObject(asObject(scaleSet?.body['properties'])['virtualMachineProfile']));
    return {
      body: {
        ...clone(existing.body),
        properties: {
          ...previous,
          ...properties,
          networkProfile: previous['networkProfile'],
          networkProfileConfiguration: { networkInterfaceConfigurations: nextConfigurations },
          latestModelApplied: JSON.stringify(nextConfigurations) === JSON.stringify(model),
        },
      },
      afterStore(resource) {
        writeInstanceNetworkInterfaces(state, resource, nextConfigurations);
      },
    };
  },
  render(resource, _state, options) {
    return renderCompute(resource, {}, options);
  },
  checkDelete() {},
  afterDelete(resource, state) {
    deleteInstance(state, resource);
    const scaleSet = state.get(resource.parentId ?? '');
    if (scaleSet) {
      const sku = asObject(scaleSet.body['sku']);
      scaleSet.body['sku'] = { ...sku, capacity: Math.max(0, Number(sku['capacity'] ?? 1) - 1) };
    }
  },
};

/** The scale-set instance view (`/virtualMachineScaleSets/{s}/virtualMachines/{i}/instanceView`). */
export function scaleSetInstanceView(resource: StoredResource): Json {
  const view = instanceView(resource);
  delete view['computerName'];
  delete view['hyperVGeneration'];
  return { ...view, computerName: asObject(asObject(resource.body['properties'])['osProfile'])['computerName'] };
}
