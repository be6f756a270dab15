import { isIPv4, isIPv6 } from 'node:net';
import type { AddressPool } from './address-pool.js';
import { SandboxCloudError } from './sandbox-cloud-error.js';
import type {
  BatchGetInstancesRequest,
  BatchGetInstancesResult,
  CreateInstanceRequest,
  SandboxAddress,
  SandboxInstance,
  TagFilter,
  UpdateInstanceRequest,
} from './sandbox-types.js';
import { matchesTags, requireNonEmptyString, requireResourceName, validateAddresses, validateStringList, validateTags } from './sandbox-validation.js';

export interface InstanceStoreSettings {
  region: string;
  zones: string[];
  defaultInstanceType: string;
  internalDomain: string;
  externalDomain: string;
  internalPool: AddressPool;
  externalPool: AddressPool;
  ipv6Pool: AddressPool;
}

const clone = <T>(value: T): T => structuredClone(value);

/** The instances of the sandbox cloud (records are internal; callers get copies). */
export class InstanceStore {
  readonly #settings: InstanceStoreSettings;
  readonly #instances = new Map<string, SandboxInstance>();
  /** Instance ids per name (names never change), so lookups by name stay cheap at scale. */
  readonly #idsByName = new Map<string, Set<string>>();
  #counter = 0;

  constructor(settings: InstanceStoreSettings) {
    if (settings.zones.length === 0) throw new Error('zones must not be empty');
    this.#settings = settings;
  }

  create(request: CreateInstanceRequest): SandboxInstance {
    const name = requireResourceName('instance', request.name);
    const id = request.id === undefined ? this.#nextId() : requireNonEmptyString('id', request.id);
    if (this.#instances.has(id)) throw new SandboxCloudError('AlreadyExists', `instance ${id} already exists`);
    if (this.named(name).some((instance) => instance.state !== 'terminated')) {
      throw new SandboxCloudError('AlreadyExists', `an instance named ${name} already exists`);
    }
    for (const field of ['hostname', 'instanceType', 'zone', 'region'] as const) {
      if (request[field] !== undefined) requireNonEmptyString(field, request[field]);
    }
    if (request.state !== undefined && request.state !== 'running' && request.state !== 'stopped') {
      throw new SandboxCloudError('InvalidArgument', 'state must be running or stopped');
    }
    const tags = validateTags(request.tags);
    const { internalPool, externalPool, ipv6Pool, internalDomain, externalDomain } = this.#settings;
    const reserved: Array<{ pool: AddressPool; address: string }> = [];
    const take = (pool: AddressPool, wanted: string | undefined): string => {
      const address = wanted ?? pool.allocate();
      if (wanted !== undefined) pool.reserve(wanted);
      reserved.push({ pool, address });
      return address;
    };
    try {
      if (request.internalIp !== undefined && !isIPv4(request.internalIp)) throw new SandboxCloudError('InvalidArgument', 'internalIp must be an IPv4 address');
      const internalIp = take(internalPool, request.internalIp);
      const internalIpv6 =
        request.internalIpv6 === undefined || request.internalIpv6 === false ? undefined : take(ipv6Pool, request.internalIpv6 === true ? undefined : request.internalIpv6);
      const externalIp =
        request.externalIp === false ? undefined : take(externalPool, request.externalIp === true || request.externalIp === undefined ? undefined : request.externalIp);
      const hostname = request.hostname ?? name;
      const region = request.region ?? this.#settings.region;
      const addresses: SandboxAddress[] = [{ type: 'InternalIP', address: internalIp }];
      if (internalIpv6 !== undefined) addresses.push({ type: 'InternalIP', address: internalIpv6 });
      if (externalIp !== undefined) addresses.push({ type: 'ExternalIP', address: externalIp });
      addresses.push({ type: 'InternalDNS', address: `${name}.${region}.${internalDomain}` });
      if (externalIp !== undefined) addresses.push({ type: 'ExternalDNS', address: `${externalIp.replaceAll('.', '-')}.${region}.${externalDomain}` });
      addresses.push({ type: 'Hostname', address: hostname });
      const zones = this.#settings.zones;
      const instance: SandboxInstance = {
        id,
        name,
        hostname,
        instanceType: request.instanceType ?? this.#settings.defaultInstanceType,
        zone: request.zone ?? zones[this.#counter % zones.length]!,
        region,
        state: request.state ?? 'running',
        addresses,
        tags,
        generation: 1,
      };
      this.#counter++;
      this.#instances.set(id, instance);
      let ids = this.#idsByName.get(name);
      if (ids === undefined) this.#idsByName.set(name, (ids = new Set()));
      ids.add(id);
      return clone(instance);
    } catch (error) {
      for (const { pool, address } of reserved) pool.release(address);
      throw error;
    }
  }

  get(id: string): SandboxInstance {
    return clone(this.#record(id));
  }

  /** The record itself, or undefined; for the other stores (never hand it out). */
  find(id: string): Readonly<SandboxInstance> | undefined {
    return this.#instances.get(id);
  }

  list(filter: { name?: string; tags?: TagFilter } = {}): SandboxInstance[] {
    const candidates = filter.name === undefined ? [...this.#instances.values()] : this.named(filter.name);
    return candidates.filter((instance) => matchesTags(instance.tags, filter.tags)).map(clone);
  }

  batchGet(request: BatchGetInstancesRequest): BatchGetInstancesResult {
    const ids = request.ids === undefined ? [] : validateStringList('ids', request.ids);
    const names = request.names === undefined ? [] : validateStringList('names', request.names);
    const found = new Map<string, SandboxInstance>();
    const missingIds: string[] = [];
    const missingNames: string[] = [];
    for (const id of ids) {
      const instance = this.#instances.get(id);
      if (instance === undefined) missingIds.push(id);
      else found.set(instance.id, instance);
    }
    for (const name of names) {
      const matches = this.named(name);
      if (matches.length === 0) missingNames.push(name);
      for (const instance of matches) found.set(instance.id, instance);
    }
    return { instances: [...found.values()].map(clone), missingIds, missingNames };
  }

  setPower(id: string, state: 'running' | 'stopped'): SandboxInstance {
    const instance = this.#record(id);
    if (instance.state === 'terminated') throw new SandboxCloudError('InvalidState', `instance ${id} is terminated`);
    if (instance.state !== state) {
      instance.state = state;
      instance.generation++;
    }
    return clone(instance);
  }

  update(id: string, update: UpdateInstanceRequest): SandboxInstance {
    const instance = this.#record(id);
    if (instance.state === 'terminated') throw new SandboxCloudError('InvalidState', `instance ${id} is terminated`);
    if (update.addresses !== undefined) instance.addresses = validateAddresses(update.addresses);
    if (update.instanceType !== undefined) instance.instanceType = requireNonEmptyString('instanceType', update.instanceType);
    if (update.tags !== undefined) instance.tags = validateTags(update.tags);
    instance.generation++;
    return clone(instance);
  }

  delete(id: string, options: { purge?: boolean }): void {
    const instance = this.#record(id);
    if (instance.state !== 'terminated') {
      this.#releaseAddresses(instance);
      instance.state = 'terminated';
      instance.addresses = [];
      instance.generation++;
    }
    if (options.purge === true) {
      this.#instances.delete(id);
      this.#idsByName.get(instance.name)?.delete(id);
    }
  }

  /** Instances with this name, in creation order. */
  named(name: string): SandboxInstance[] {
    const ids = this.#idsByName.get(name);
    if (ids === undefined) return [];
    return [...ids].map((id) => this.#instances.get(id)).filter((instance): instance is SandboxInstance => instance !== undefined);
  }

  clear(): void {
    this.#instances.clear();
    this.#idsByName.clear();
    this.#counter = 0;
  }

  #nextId(): string {
    for (let counter = this.#counter + 1; ; counter++) {
      const id = `i-${counter.toString(16).padStart(17, '0')}`;
      if (!this.#instances.has(id)) return id;
    }
  }

  #record(id: string): SandboxInstance {
    const instance = this.#instances.get(id);
    if (instance === undefined) throw new SandboxCloudError('NotFound', `instance ${id} not found`);
    return instance;
  }

  #releaseAddresses(instance: SandboxInstance): void {
    for (const { type, address } of instance.addresses) {
      if (type === 'InternalIP' && isIPv4(address)) this.#settings.internalPool.release(address);
      else if (type === 'InternalIP' && isIPv6(address)) this.#settings.ipv6Pool.release(address);
      else if (type === 'ExternalIP') this.#settings.externalPool.release(address);
    }
  }
}
