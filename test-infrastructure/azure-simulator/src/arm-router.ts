/**
 * ARM's HTTP surface over the in-memory state: subscription, resource groups, the Compute and
 * Network resources (top-level and nested), scale-set instances and their NIC views, power
 * actions and the long-running operation URLs. Everything here speaks ARM's wire conventions:
 * case-insensitive paths, `api-version`, `If-Match`/`If-None-Match`, 200/201/202/204, error bodies.
 */
import { ArmError, invalidRequestFormat, nestedNotFound, resourceGroupNotFound, resourceNotFound } from './arm-error.js';
import { RESOURCE_TYPE, type ArmState, type ResourceKind, type StoredResource } from './arm-state.js';
import { checkApiVersion, type ApiVersionFamily } from './api-versions.js';
import { instanceView, scaleSetInstanceView, scaleSetInstances, type PowerState } from './compute-resources.js';
import type { LongRunningOperations } from './long-running-operations.js';
import { HANDLERS, READABLE_NESTED, TOP_LEVEL_KINDS, WRITABLE_NESTED } from './resource-kinds.js';
import { asArray, asObject, clone, idKey, providerResourceId, referenceId, resourceGroupId, sameId, type Json } from './resource-id.js';

export interface ArmRequest {
  method: string;
  url: URL;
  headers: Record<string, string | undefined>;
  /** Parsed JSON body ({} when empty). */
  body: Json;
}

export interface ArmReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Kinds whose writes and deletes are long-running operations (availability sets and resource groups answer synchronously). */
const SYNCHRONOUS: ReadonlySet<ResourceKind> = new Set(['availabilitySets']);

const POWER_ACTIONS: Readonly<Record<string, { during: PowerState; after: PowerState }>> = {
  poweroff: { during: 'stopping', after: 'stopped' },
  start: { during: 'starting', after: 'running' },
  restart: { during: 'starting', after: 'running' },
  deallocate: { during: 'deallocating', after: 'deallocated' },
};

export class ArmRouter {
  constructor(
    private readonly state: ArmState,
    private readonly operations: LongRunningOperations,
    private readonly baseUrl: () => string,
    /** Items per list page (ARM pages large lists with `nextLink`); undefined: one page. */
    private readonly pageSize: () => number | undefined = () => undefined,
  ) {}

  /** One page of a list: `{ value }`, plus `nextLink` (same URL with `$skiptoken`) when more remain. */
  private page(request: ArmRequest, items: Json[]): ArmReply {
    const size = this.pageSize();
    const skipToken = request.url.searchParams.get('$skiptoken');
    const start = skipToken === null ? 0 : Number(skipToken);
    if (!Number.isInteger(start) || start < 0) throw new ArmError(400, 'InvalidParameter', `The $skiptoken '${String(skipToken)}' is invalid.`);
    if (size === undefined) return { status: 200, body: { value: items.slice(start) } };
    const value = items.slice(start, start + size);
    if (start + size >= items.length) return { status: 200, body: { value } };
    const next = new URL(request.url.toString());
    next.searchParams.set('$skiptoken', String(start + size));
    return { status: 200, body: { value, nextLink: `${this.baseUrl()}${next.pathname}${next.search}` } };
  }

  handle(request: ArmRequest): ArmReply {
    const parts = request.url.pathname.split('/').filter((part) => part !== '').map(decodeURIComponent);
    const lower = parts.map((part) => part.toLowerCase());
    if (lower[0] !== 'subscriptions' || parts[1] === undefined) throw new ArmError(404, 'InvalidRequestUri', `The request uri '${request.url.pathname}' is not valid.`);
    if (parts[1].toLowerCase() !== this.state.subscriptionId.toLowerCase()) {
      throw new ArmError(404, 'SubscriptionNotFound', `The subscription '${parts[1]}' could not be found.`);
    }
    const apiVersion = request.url.searchParams.get('api-version');
    if (parts.length === 2) {
      checkApiVersion('Microsoft.Resources', apiVersion);
      return this.subscription(request.method);
    }
    if (lower[2] === 'resourcegroups') {
      if (parts.length <= 4) {
        checkApiVersion('Microsoft.Resources', apiVersion);
        return parts[3] === undefined ? this.listResourceGroups(request) : this.resourceGroup(request, parts[3]);
      }
      if (lower[4] !== 'providers' || parts[5] === undefined || parts[6] === undefined) throw this.unknownPath(request);
      const resourceGroup = parts[3] as string;
      const namespace = parts[5];
      const rest = parts.slice(6);
      return this.providerPath(request, resourceGroup, namespace, rest);
    }
    if (lower[2] === 'providers' && parts[3] !== undefined) {
      const namespace = parts[3];
      if (parts.length === 4) {
        checkApiVersion('Microsoft.Resources', apiVersion);
        return this.providerInformation(namespace);
      }
      if (lower[4] === 'locations' && (lower[6] === 'operations' || lower[6] === 'operationresults') && parts[7] !== undefined) {
        return this.operation(lower[6], parts[7]);
      }
      if (parts.length === 5) return this.listAcrossSubscription(request, namespace, parts[4] as string);
    }
    throw this.unknownPath(request);
  }

  // ---- subscription, providers, resource groups -----------------------------------------

  private subscription(method: string): ArmReply {
    requireMethod(method, ['GET']);
    return {
      status: 200,
      body: {
        id: `/subscriptions/${this.state.subscriptionId}`,
        subscriptionId: this.state.subscriptionId,
        displayName: 'azure-simulator',
        state: 'Enabled',
        subscriptionPolicies: { locationPlacementId: 'Public_2014-09-01', quotaId: 'PayAsYouGo_2014-09-01', spendingLimit: 'Off' },
        authorizationSource: 'RoleBased',
      },
    };
  }

  private providerInformation(namespace: string): ArmReply {
    const types = [...TOP_LEVEL_KINDS.values()].filter((entry) => entry.namespace.toLowerCase() === namespace.toLowerCase());
    if (types.length === 0) throw new ArmError(404, 'InvalidResourceNamespace', `The resource namespace '${namespace}' is invalid.`);
    const location = displayLocation(this.state.location);
    return {
      status: 200,
      body: {
        id: `/subscriptions/${this.state.subscriptionId}/providers/${types[0]?.namespace}`,
        namespace: types[0]?.namespace,
        registrationState: 'Registered',
        registrationPolicy: 'RegistrationRequired',
        resourceTypes: types.map((entry) => ({
          resourceType: entry.type,
          locations: [location],
          ...(entry.kind === 'virtualMachines' || entry.kind === 'virtualMachineScaleSets' || entry.kind === 'publicIPAddresses'
            ? { zoneMappings: [{ location, zones: ['1', '2', '3'] }] }
            : {}),
          apiVersions: [],
          capabilities: 'None',
        })),
      },
    };
  }

  private listResourceGroups(request: ArmRequest): ArmReply {
    requireMethod(request.method, ['GET']);
    return this.page(request, [...this.state.resourceGroups.values()].map((group) => this.renderResourceGroup(group.name)));
  }

  private renderResourceGroup(name: string): Json {
    const group = this.state.resourceGroup(name);
    return {
      id: resourceGroupId(this.state.subscriptionId, group.name),
      name: group.name,
      type: 'Microsoft.Resources/resourceGroups',
      location: group.location,
      ...(group.managedBy !== undefined ? { managedBy: group.managedBy } : {}),
      ...(group.tags ? { tags: clone(group.tags) } : {}),
      properties: { provisioningState: 'Succeeded' },
    };
  }

  private resourceGroup(request: ArmRequest, name: string): ArmReply {
    const key = name.toLowerCase();
    const existing = this.state.resourceGroups.get(key);
    switch (request.method) {
      case 'GET':
        return { status: 200, body: this.renderResourceGroup(name) };
      case 'HEAD':
        return { status: existing ? 204 : 404 };
      case 'PUT':
      case 'PATCH': {
        const location = request.body['location'];
        if (request.method === 'PUT' && (typeof location !== 'string' || location === '')) {
          throw new ArmError(400, 'LocationRequired', 'The location property is required for this definition.');
        }
        if (request.method === 'PATCH' && !existing) throw resourceGroupNotFound(name);
        if (existing && typeof location === 'string' && normalizeLocation(location) !== normalizeLocation(existing.location)) {
          throw new ArmError(409, 'InvalidResourceGroupLocation', `Invalid resource group location '${location}'. The Resource group already exists in location '${existing.location}'.`);
        }
        const tags = request.body['tags'] === undefined ? existing?.tags : checkTags(request.body['tags']);
        const managedBy = typeof request.body['managedBy'] === 'string' ? request.body['managedBy'] : existing?.managedBy;
        this.state.resourceGroups.set(key, {
          name: existing?.name ?? name,
          location: existing?.location ?? String(location),
          tags,
          ...(managedBy !== undefined ? { managedBy } : {}),
        });
        return { status: existing || request.method === 'PATCH' ? 200 : 201, body: this.renderResourceGroup(name) };
      }
      case 'DELETE': {
        if (!existing) throw resourceGroupNotFound(name);
        const prefix = `${resourceGroupId(this.state.subscriptionId, existing.name)}/`.toLowerCase();
        for (const id of [...this.state.resources.keys()]) if (id.startsWith(prefix)) this.state.resources.delete(id);
        this.state.resourceGroups.delete(key);
        const started = this.operations.start({ namespace: 'Microsoft.Resources', location: this.state.location, result: () => undefined, complete: () => {} }, request.url.searchParams.get('api-version') ?? '');
        return { status: 202, headers: { location: started.urls.location, 'retry-after': '0' } };
      }
      default:
        throw methodNotAllowed(request.method);
    }
  }

  // ---- provider paths ---------------------------------------------------------------------

  private providerPath(request: ArmRequest, resourceGroup: string, namespace: string, rest: string[]): ArmReply {
    const [type = '', name, ...tail] = rest;
    const entry = TOP_LEVEL_KINDS.get(`${namespace}/${type}`.toLowerCase());
    if (!entry) {
      if (![...TOP_LEVEL_KINDS.values()].some((known) => known.namespace.toLowerCase() === namespace.toLowerCase())) {
        throw new ArmError(404, 'InvalidResourceNamespace', `The resource namespace '${namespace}' is invalid.`);
      }
      throw new ArmError(400, 'InvalidResourceType', `The resource type '${type}' could not be found in the namespace '${namespace}' for api version '${request.url.searchParams.get('api-version') ?? ''}'.`);
    }
    const apiVersion = request.url.searchParams.get('api-version');
    const scaleSetView = entry.kind === 'virtualMachineScaleSets' && (tail.some((part) => part.toLowerCase() === 'networkinterfaces') || tail.some((part) => part.toLowerCase() === 'publicipaddresses'));
    const family: ApiVersionFamily = scaleSetView ? 'Microsoft.Network/scaleSetViews' : entry.namespace;
    checkApiVersion(family, apiVersion);
    this.state.resourceGroup(resourceGroup);
    if (name === undefined) {
      requireMethod(request.method, ['GET']);
      return this.list(request, entry.kind, resourceGroup);
    }
    const id = providerResourceId(this.state.subscriptionId, resourceGroup, entry.namespace, entry.type, name);
    if (tail.length === 0) return this.topLevel(request, entry.kind, id, name, resourceGroup);
    if (entry.kind === 'virtualMachines' && tail.length === 1) return this.machineSubPath(request, id, tail[0] as string);
    if (entry.kind === 'virtualMachineScaleSets') return this.scaleSetSubPath(request, id, tail);
    return this.nestedPath(request, entry.kind, id, tail);
  }

  private list(request: ArmRequest, kind: ResourceKind, resourceGroup?: string): ArmReply {
    let resources = this.state.ofKind(kind, resourceGroup);
    const filter = request.url.searchParams.get('$filter');
    if (filter !== null && kind === 'virtualMachines') {
      const match = /^\s*'?virtualMachineScaleSet\/id'?\s+eq\s+'([^']+)'\s*$/i.exec(filter);
      if (!match?.[1]) throw new ArmError(400, 'InvalidParameter', `The $filter '${filter}' is not supported; use 'virtualMachineScaleSet/id' eq '<id>'.`);
      const scaleSetId = match[1];
      resources = resources.filter((machine) => sameId(referenceId(asObject(machine.body['properties'])['virtualMachineScaleSet']), scaleSetId));
    }
    const expand = request.url.searchParams.get('$expand')?.toLowerCase() === 'instanceview' || request.url.searchParams.get('statusOnly') === 'true';
    return this.page(request, resources.map((resource) => this.render(resource, expand)));
  }

  private listAcrossSubscription(request: ArmRequest, namespace: string, type: string): ArmReply {
    const entry = TOP_LEVEL_KINDS.get(`${namespace}/${type}`.toLowerCase());
    if (!entry) throw new ArmError(400, 'InvalidResourceType', `The resource type '${type}' could not be found in the namespace '${namespace}'.`);
    checkApiVersion(entry.namespace, request.url.searchParams.get('api-version'));
    requireMethod(request.method, ['GET']);
    return this.list(request, entry.kind);
  }

  render(resource: StoredResource, expandInstanceView = false): Json {
    return HANDLERS[resource.kind].render(resource, this.state, { expandInstanceView });
  }

  private topLevel(request: ArmRequest, kind: ResourceKind, id: string, name: string, resourceGroup: string): ArmReply {
    const existing = this.state.get(id);
    switch (request.method) {
      case 'GET': {
        if (!existing) throw resourceNotFound(RESOURCE_TYPE[kind], name, resourceGroup);
        const expand = request.url.searchParams.get('$expand');
        return { status: 200, body: this.render(existing, expand?.toLowerCase() === 'instanceview') };
      }
      case 'PUT': {
        checkPreconditions(request, existing);
        return this.write(request, kind, id, name, resourceGroup, request.body, existing);
      }
      case 'PATCH': {
        if (!existing) throw resourceNotFound(RESOURCE_TYPE[kind], name, resourceGroup);
        checkPreconditions(request, existing);
        const current = this.render(existing);
        const merged = kind.startsWith('virtualMachine') || kind === 'availabilitySets' ? mergePatch(current, request.body) : { ...current, ...(request.body['tags'] !== undefined ? { tags: request.body['tags'] } : {}) };
        return this.write(request, kind, id, name, resourceGroup, merged, existing, true);
      }
      case 'DELETE': {
        if (!existing) return { status: 204 };
        checkPreconditions(request, existing);
        const handler = HANDLERS[kind];
        handler.checkDelete(existing, this.state);
        this.state.deleteResource(existing.id);
        handler.afterDelete?.(existing, this.state);
        if (SYNCHRONOUS.has(kind)) return { status: 200 };
        return this.accepted(request, existing, () => undefined);
      }
      default:
        throw methodNotAllowed(request.method);
    }
  }

  /** Validates and stores a top-level resource; answers 200/201 with the LRO headers where ARM has them. */
  private write(request: ArmRequest, kind: ResourceKind, id: string, name: string, resourceGroup: string, input: Json, existing: StoredResource | undefined, patch = false): ArmReply {
    const resource = this.store(kind, id, name, resourceGroup, input, existing);
    // Availability sets answer 200 to both creation and update (the SDK accepts nothing else).
    if (SYNCHRONOUS.has(kind)) return { status: 200, body: this.render(resource) };
    const during = existing ? 'Updating' : kind.startsWith('virtualMachine') ? 'Creating' : 'Updating';
    return this.startWrite(request, resource, during, existing || patch ? 200 : 201, () => this.render(resource));
  }

  /** Validates `input` with the kind's rules and stores it (new etag). */
  private store(kind: ResourceKind, id: string, name: string, resourceGroup: string, input: Json, existing: StoredResource | undefined): StoredResource {
    if (existing && typeof input['location'] === 'string' && normalizeLocation(input['location']) !== normalizeLocation(existing.location)) {
      throw new ArmError(
        400,
        'InvalidResourceLocation',
        `The resource '${name}' already exists in location '${existing.location}' in resource group '${resourceGroup}'. A resource with the same name cannot be created in location '${input['location']}'. Please select a new resource name.`,
      );
    }
    const tags = input['tags'] === undefined ? undefined : checkTags(input['tags']);
    const accepted = HANDLERS[kind].accept({ state: this.state, id: existing?.id ?? id, name: existing?.name ?? name, resourceGroup, input, existing });
    const resource: StoredResource = existing ?? {
      id,
      kind,
      name,
      resourceGroup,
      location: String(input['location']),
      tags,
      body: {},
      etag: '',
      provisioningState: 'Succeeded',
    };
    resource.body = accepted.body;
    resource.tags = tags;
    resource.etag = this.state.newEtag(kind);
    this.state.resources.set(idKey(resource.id), resource);
    accepted.afterStore?.(resource);
    return resource;
  }

  /** Starts the LRO of a write: provisioning state `during` until the operation completes. */
  private startWrite(request: ArmRequest, resource: StoredResource, during: string, status: number, body: () => Json | undefined): ArmReply {
    const apiVersion = request.url.searchParams.get('api-version') ?? '';
    resource.provisioningState = during;
    const namespace = RESOURCE_TYPE[resource.kind].split('/')[0] as string;
    let operationId = '';
    const started = this.operations.start(
      {
        namespace,
        location: resource.location,
        result: () => (this.state.get(resource.id) ? body() : undefined),
        complete: () => {
          if (resource.operationId === operationId || resource.operationId === undefined) {
            resource.provisioningState = 'Succeeded';
            resource.operationId = undefined;
          }
        },
      },
      apiVersion,
    );
    operationId = started.id;
    if (!started.done) resource.operationId = operationId;
    else resource.provisioningState = 'Succeeded';
    // Both URLs on every long-running answer: clients poll Azure-AsyncOperation; the operation
    // result (Location) answers 202 until done, then the resource (PUT) or an empty 200.
    const headers: Record<string, string> = { 'azure-asyncoperation': started.urls.asyncOperation, location: started.urls.location, ...(status === 202 ? { 'retry-after': '0' } : {}) };
    const replyBody = status === 202 ? undefined : body();
    return replyBody === undefined ? { status, headers } : { status, body: replyBody, headers };
  }

  /** 202 with both LRO headers (deletes and actions). */
  private accepted(request: ArmRequest, resource: StoredResource, complete: () => void): ArmReply {
    const namespace = RESOURCE_TYPE[resource.kind].split('/')[0] as string;
    const started = this.operations.start({ namespace, location: resource.location, result: () => undefined, complete }, request.url.searchParams.get('api-version') ?? '');
    return { status: 202, headers: { 'azure-asyncoperation': started.urls.asyncOperation, location: started.urls.location, 'retry-after': '0' } };
  }

  private operation(kind: string, id: string): ArmReply {
    if (kind === 'operations') {
      const status = this.operations.status(id);
      if (!status) throw new ArmError(404, 'NotFound', `Operation ${id} not found.`);
      return { status: 200, body: status };
    }
    const result = this.operations.result(id);
    if (!result) throw new ArmError(404, 'NotFound', `Operation ${id} not found.`);
    if (result.running) return { status: 202, headers: { 'retry-after': '0' } };
    // A finished operation without a resource (a delete, a power action) answers 200 with no body:
    // the Compute SDK accepts only 200/201/202 there.
    return result.body === undefined ? { status: 200 } : { status: 200, body: result.body };
  }

  // ---- virtual machines -------------------------------------------------------------------

  private machineSubPath(request: ArmRequest, id: string, segment: string): ArmReply {
    const machine = this.state.get(id);
    const action = segment.toLowerCase();
    if (!machine) {
      const parsed = id.split('/');
      throw resourceNotFound(RESOURCE_TYPE.virtualMachines, parsed[parsed.length - 1] as string, parsed[4] as string);
    }
    if (action === 'instanceview') {
      requireMethod(request.method, ['GET']);
      return { status: 200, body: instanceView(machine) };
    }
    return this.powerAction(request, machine, action);
  }

  private powerAction(request: ArmRequest, machine: StoredResource, action: string): ArmReply {
    const transition = POWER_ACTIONS[action];
    if (!transition) throw new ArmError(404, 'NotFound', `The requested action '${action}' is not supported.`);
    requireMethod(request.method, ['POST']);
    machine.powerState = transition.during;
    return this.accepted(request, machine, () => {
      if (machine.powerState === transition.during) machine.powerState = transition.after;
    });
  }

  // ---- scale sets -------------------------------------------------------------------------

  private scaleSetSubPath(request: ArmRequest, scaleSetId: string, tail: string[]): ArmReply {
    const scaleSet = this.state.get(scaleSetId);
    const parsed = scaleSetId.split('/');
    if (!scaleSet) throw resourceNotFound(RESOURCE_TYPE.virtualMachineScaleSets, parsed[parsed.length - 1] as string, parsed[4] as string);
    const lower = tail.map((part) => part.toLowerCase());
    const expand = request.url.searchParams.get('$expand')?.toLowerCase() === 'instanceview';
    if (lower.length === 1 && lower[0] === 'virtualmachines') {
      requireMethod(request.method, ['GET']);
      return this.page(request, scaleSetInstances(this.state, scaleSet.id).map((instance) => this.render(instance, expand)));
    }
    if (lower.length === 1 && lower[0] === 'networkinterfaces') {
      requireMethod(request.method, ['GET']);
      const nics = this.state.ofKind('scaleSetNetworkInterfaces').filter((nic) => nic.parentId !== undefined && scaleSetInstances(this.state, scaleSet.id).some((instance) => sameId(instance.id, nic.parentId)));
      return this.page(request, nics.map((nic) => this.render(nic)));
    }
    if (lower.length === 1 && lower[0] === 'manualupgrade') {
      requireMethod(request.method, ['POST']);
      return this.manualUpgrade(request, scaleSet);
    }
    if (lower[0] !== 'virtualmachines' || tail[1] === undefined) throw this.unknownPath(request);
    const instanceId = `${scaleSet.id}/virtualMachines/${tail[1]}`;
    const instance = this.state.get(instanceId);
    if (lower.length === 2) {
      if (request.method === 'DELETE') {
        if (!instance) return { status: 204 };
        HANDLERS.scaleSetVirtualMachines.afterDelete?.(instance, this.state);
        return this.accepted(request, instance, () => undefined);
      }
      if (!instance) throw nestedNotFound(instanceId);
      if (request.method === 'GET') return { status: 200, body: this.render(instance, expand) };
      if (request.method === 'PUT') {
        checkPreconditions(request, instance);
        const accepted = HANDLERS.scaleSetVirtualMachines.accept({ state: this.state, id: instance.id, name: instance.name, resourceGroup: instance.resourceGroup, input: request.body, existing: instance });
        instance.body = accepted.body;
        if (request.body['tags'] !== undefined) instance.tags = checkTags(request.body['tags']);
        instance.etag = this.state.newEtag('scaleSetVirtualMachines');
        accepted.afterStore?.(instance);
        return this.startWrite(request, instance, 'Updating', 200, () => this.render(instance));
      }
      throw methodNotAllowed(request.method);
    }
    if (!instance) throw nestedNotFound(instanceId);
    if (lower.length === 3 && lower[2] === 'instanceview') {
      requireMethod(request.method, ['GET']);
      return { status: 200, body: scaleSetInstanceView(instance) };
    }
    if (lower.length === 3 && lower[2] === 'networkinterfaces') {
      requireMethod(request.method, ['GET']);
      const nics = this.state.ofKind('scaleSetNetworkInterfaces').filter((nic) => sameId(nic.parentId, instance.id));
      return this.page(request, nics.map((nic) => this.render(nic)));
    }
    if (lower[2] === 'networkinterfaces' && tail[3] !== undefined) {
      requireMethod(request.method, ['GET']);
      const nicId = `${instance.id}/networkInterfaces/${tail[3]}`;
      const nic = this.state.get(nicId);
      if (!nic) throw nestedNotFound(nicId);
      const rendered = this.render(nic);
      if (lower.length === 4) return { status: 200, body: rendered };
      if (lower[4] === 'ipconfigurations') {
        const configurations = asArray(asObject(rendered['properties'])['ipConfigurations']);
        if (lower.length === 5) return this.page(request, configurations);
        const configuration = configurations.find((item) => String(item['name']).toLowerCase() === lower[5]);
        if (!configuration || lower.length > 6) throw nestedNotFound(`${nicId}/ipConfigurations/${tail[5] ?? ''}`);
        return { status: 200, body: configuration };
      }
    }
    if (lower.length === 3) return this.powerAction(request, instance, lower[2] as string);
    throw this.unknownPath(request);
  }

  private manualUpgrade(request: ArmRequest, scaleSet: StoredResource): ArmReply {
    const instanceIds = request.body['instanceIds'];
    if (!Array.isArray(instanceIds) || instanceIds.some((entry) => typeof entry !== 'string')) {
      throw new ArmError(400, 'InvalidParameter', "Required parameter 'instanceIds' is missing (null).");
    }
    const model = asObject(asObject(asObject(scaleSet.body['properties'])['virtualMachineProfile'])['networkProfile']);
    for (const instanceId of instanceIds as string[]) {
      const instance = this.state.get(`${scaleSet.id}/virtualMachines/${instanceId}`);
      if (!instance) throw new ArmError(400, 'InvalidParameter', `The provided instanceId ${instanceId} is not an active Virtual Machine Scale Set VM instanceId.`);
      const accepted = HANDLERS.scaleSetVirtualMachines.accept({
        state: this.state,
        id: instance.id,
        name: instance.name,
        resourceGroup: instance.resourceGroup,
        input: { properties: { networkProfileConfiguration: { networkInterfaceConfigurations: clone(asArray(model['networkInterfaceConfigurations'])) } } },
        existing: instance,
      });
      instance.body = accepted.body;
      accepted.afterStore?.(instance);
    }
    return this.accepted(request, scaleSet, () => undefined);
  }

  // ---- nested Microsoft.Network objects ----------------------------------------------------

  private nestedPath(request: ArmRequest, kind: ResourceKind, parentId: string, tail: string[]): ArmReply {
    const [collectionSegment = '', itemName, ...beyond] = tail;
    const collection = (READABLE_NESTED.get(kind) ?? []).find((name) => name.toLowerCase() === collectionSegment.toLowerCase());
    if (!collection || beyond.length > 0) throw this.unknownPath(request);
    const parent = this.state.get(parentId);
    const parentName = parentId.split('/').pop() as string;
    if (!parent) {
      if (request.method === 'DELETE') return { status: 204 };
      throw resourceNotFound(RESOURCE_TYPE[kind], parentName, parentId.split('/')[4] as string);
    }
    const rendered = () => asArray(asObject(this.render(parent)['properties'])[collection]);
    if (itemName === undefined) {
      requireMethod(request.method, ['GET']);
      return this.page(request, rendered());
    }
    const itemId = `${parent.id}/${collection}/${itemName}`;
    const find = () => rendered().find((item) => sameId(item['id'], itemId));
    const writable = (WRITABLE_NESTED.get(kind) ?? []).includes(collection);
    switch (request.method) {
      case 'GET': {
        const item = find();
        if (!item) throw nestedNotFound(itemId);
        return { status: 200, body: item };
      }
      case 'PUT': {
        if (!writable) throw methodNotAllowed('PUT');
        const existingItem = find();
        checkPreconditions(request, existingItem ? parent : undefined);
        const parentBody = this.render(parent);
        const properties = asObject(parentBody['properties']);
        const items = asArray(properties[collection]).filter((item) => !sameId(item['id'], itemId));
        const position = asArray(properties[collection]).findIndex((item) => sameId(item['id'], itemId));
        const newItem = { ...request.body, name: existingItem ? existingItem['name'] : itemName };
        items.splice(position < 0 ? items.length : position, 0, newItem);
        properties[collection] = items;
        this.store(kind, parent.id, parent.name, parent.resourceGroup, parentBody, parent);
        return this.startWrite(request, parent, 'Updating', existingItem ? 200 : 201, () => find());
      }
      case 'DELETE': {
        if (!writable) throw methodNotAllowed('DELETE');
        const existingItem = find();
        if (!existingItem) return { status: 204 };
        checkPreconditions(request, parent);
        const parentBody = this.render(parent);
        const properties = asObject(parentBody['properties']);
        properties[collection] = asArray(properties[collection]).filter((item) => !sameId(item['id'], itemId));
        this.store(kind, parent.id, parent.name, parent.resourceGroup, parentBody, parent);
        return this.startWrite(request, parent, 'Updating', 202, () => undefined);
      }
      default:
        throw methodNotAllowed(request.method);
    }
  }

  private unknownPath(request: ArmRequest): ArmError {
    return new ArmError(404, 'NotFound', `No HTTP resource was found that matches the request URI '${this.baseUrl()}${request.url.pathname}${request.url.search}'.`);
  }
}

function requireMethod(method: string, allowed: readonly string[]): void {
  if (!allowed.includes(method)) throw methodNotAllowed(method);
}

function methodNotAllowed(method: string): ArmError {
  return new ArmError(405, 'MethodNotAllowed', `The requested resource does not support http method '${method}'.`);
}

/** `If-Match` (`*` or an etag) and `If-None-Match: *`, answered with 412 PreconditionFailed. */
function checkPreconditions(request: ArmRequest, existing: StoredResource | undefined): void {
  const ifMatch = request.headers['if-match'];
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifMatch !== undefined && ifMatch !== '') {
    if (!existing) throw new ArmError(412, 'PreconditionFailed', `The condition specified using HTTP conditional header(s) is not met: If-Match '${ifMatch}' was given for a resource that does not exist.`);
    if (ifMatch !== '*' && !ifMatch.split(',').map((value) => value.trim()).some((value) => value === existing.etag)) {
      throw new ArmError(412, 'PreconditionFailed', `The condition specified using HTTP conditional header(s) is not met: If-Match '${ifMatch}' does not match the current etag ${existing.etag}.`);
    }
  }
  if (ifNoneMatch === '*' && existing) {
    throw new ArmError(412, 'PreconditionFailed', `The condition specified using HTTP conditional header(s) is not met: If-None-Match '*' was given but the resource ${existing.id} exists.`);
  }
}

function checkTags(tags: unknown): Record<string, string> {
  if (typeof tags !== 'object' || tags === null || Array.isArray(tags)) throw invalidRequestFormat('tags must be an object of strings.');
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(tags)) {
    if (typeof value !== 'string') throw new ArmError(400, 'InvalidTagValue', `The value of tag '${key}' must be a string.`);
    if (key.length > 512 || value.length > 256) throw new ArmError(400, 'InvalidTagNameCharacters', `Tag '${key}' is too long: names are limited to 512 characters and values to 256.`);
    result[key] = value;
  }
  if (Object.keys(result).length > 50) throw new ArmError(400, 'InvalidTagCount', 'A resource can have at most 50 tags.');
  return result;
}

/** JSON merge patch (RFC 7386), as Compute's PATCH applies it. */
function mergePatch(target: Json, patch: Json): Json {
  const result = clone(target);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else if (typeof value === 'object' && !Array.isArray(value) && typeof result[key] === 'object' && result[key] !== null && !Array.isArray(result[key])) {
      result[key] = mergePatch(result[key] as Json, value as Json);
    } else result[key] = clone(value);
  }
  return result;
}

export function normalizeLocation(location: string): string {
  return location.toLowerCase().replace(/\s+/g, '');
}

/** `eastus` -> `East US` (the display name providers list). */
function displayLocation(location: string): string {
  const known: Record<string, string> = { eastus: 'East US', eastus2: 'East US 2', westus: 'West US', westus2: 'West US 2', westeurope: 'West Europe', northeurope: 'North Europe', centralus: 'Central US' };
  return known[normalizeLocation(location)] ?? location;
}

