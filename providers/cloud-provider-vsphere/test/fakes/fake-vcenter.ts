/**
 * An in-memory vCenter behind the VcenterPort: datacenters, an entity tree (for ancestors),
 * VMs, tags and categories, a call log and failure injection. Unlike vcsim it honours the
 * datacenter scope of searches. test/simulator/vcenter-port-contract.integration.test.ts runs
 * one contract on it and on the production port against vcsim.
 */
import type { CategoryRecord, DatacenterRef, EntityRecord, GuestNic, ObjectRef, TagRecord, TaggingPort, VcenterPort, VmIdentity, VmRecord } from '../../src/ports/vcenter-port.js';
import { refKey } from '../../src/ports/vcenter-port.js';

export interface FakeVmSpec {
  name: string;
  uuid: string;
  datacenter?: string;
  host?: string;
  numCpu?: number;
  memorySizeMB?: number;
  guestId?: string;
  guestHostName?: string;
  ip?: string;
  guestNet?: GuestNic[];
  powerState?: string;
  extraConfig?: Record<string, string>;
}

interface Entity {
  ref: ObjectRef;
  name: string;
  parent: ObjectRef | undefined;
}

export class FakeVcenter implements VcenterPort {
  readonly name: string;
  readonly calls: string[] = [];
  readonly vms = new Map<string, { record: VmRecord; datacenter: string }>();
  readonly entities = new Map<string, Entity>();
  readonly tags = new Map<string, TagRecord>();
  readonly categories = new Map<string, CategoryRecord>();
  readonly attachments = new Map<string, string[]>();
  /** Return an error to make that call fail. */
  fail: (method: string) => Error | undefined = () => undefined;
  readonly tagging: TaggingPort;
  #next = 1;

  constructor(name: string, datacenters: string[] = ['dc-1']) {
    this.name = name;
    this.#entity({ type: 'Folder', value: 'group-d1' }, 'Datacenters', undefined);
    for (const datacenter of datacenters) this.addDatacenter(datacenter);
    this.tagging = {
      listAttachedTags: async (ref) => this.#call('listAttachedTags', () => [...(this.attachments.get(refKey(ref)) ?? [])]),
      getTag: async (id) =>
        this.#call('getTag', () => {
          const tag = this.tags.get(id);
          if (tag === undefined) throw new Error(`tag ${id} not found`);
          return tag;
        }),
      getCategory: async (id) =>
        this.#call('getCategory', () => {
          const category = this.categories.get(id);
          if (category === undefined) throw new Error(`category ${id} not found`);
          return category;
        }),
      listCategories: async () => this.#call('listCategories', () => [...this.categories.keys()]),
    };
  }

  addDatacenter(name: string): void {
    const datacenter = this.#entity({ type: 'Datacenter', value: `datacenter-${name}` }, name, { type: 'Folder', value: 'group-d1' });
    // The VM folder, parent of every VM of the datacenter (as vCenter's, so a VM's ancestors reach the datacenter).
    this.#entity({ type: 'Folder', value: `vm-folder-${name}` }, 'vm', datacenter.ref);
    const hostFolder = this.#entity({ type: 'Folder', value: `host-folder-${name}` }, 'host', datacenter.ref);
    const cluster = this.#entity({ type: 'ClusterComputeResource', value: `cluster-${name}` }, `${name}-cluster`, hostFolder.ref);
    this.#entity({ type: 'HostSystem', value: `host-${name}` }, `${name}-esx`, cluster.ref);
    this.#entity({ type: 'ResourcePool', value: `pool-${name}` }, 'Resources', cluster.ref);
  }

  datacenterRef(name: string): ObjectRef {
    return { type: 'Datacenter', value: `datacenter-${name}` };
  }

  hostRef(datacenter: string): ObjectRef {
    return { type: 'HostSystem', value: `host-${datacenter}` };
  }

  clusterRef(datacenter: string): ObjectRef {
    return { type: 'ClusterComputeResource', value: `cluster-${datacenter}` };
  }

  addVm(spec: FakeVmSpec): VmRecord {
    const datacenter = spec.datacenter ?? 'dc-1';
    const ref = { type: 'VirtualMachine', value: `vm-${this.#next++}` };
    this.#entity(ref, spec.name, { type: 'Folder', value: `vm-folder-${datacenter}` });
    const ip = spec.ip ?? '10.0.0.10';
    const record: VmRecord = {
      ref,
      name: spec.name,
      uuid: spec.uuid,
      numCpu: spec.numCpu ?? 2,
      memorySizeMB: spec.memorySizeMB ?? 4096,
      guestId: spec.guestId ?? 'ubuntu64Guest',
      guestHostName: spec.guestHostName ?? spec.name,
      guestIpAddress: ip,
      guestNet: spec.guestNet ?? [{ network: 'VM Network', ipAddresses: [ip], deviceConfigId: 4000 }],
      hasGuestNet: true,
      powerState: spec.powerState ?? 'poweredOn',
      host: spec.host === undefined ? this.hostRef(datacenter) : { type: 'HostSystem', value: spec.host },
      resourcePool: { type: 'ResourcePool', value: `pool-${datacenter}` },
      extraConfig: new Map(Object.entries(spec.extraConfig ?? {})),
    };
    this.vms.set(refKey(ref), { record, datacenter });
    return record;
  }

  update(ref: ObjectRef, change: Partial<VmRecord>): void {
    const entry = this.vms.get(refKey(ref));
    if (entry === undefined) throw new Error(`no VM ${refKey(ref)}`);
    entry.record = { ...entry.record, ...change };
  }

  remove(ref: ObjectRef): void {
    this.vms.delete(refKey(ref));
    this.entities.delete(refKey(ref));
  }

  addTag(category: string, tag: string, attachTo: ObjectRef): void {
    let categoryId = [...this.categories.values()].find((entry) => entry.name === category)?.id;
    if (categoryId === undefined) {
      categoryId = `urn:category:${category}`;
      this.categories.set(categoryId, { id: categoryId, name: category });
    }
    const tagId = `urn:tag:${category}:${tag}`;
    this.tags.set(tagId, { id: tagId, name: tag, categoryId });
    const list = this.attachments.get(refKey(attachTo)) ?? [];
    list.push(tagId);
    this.attachments.set(refKey(attachTo), list);
  }

  count(method: string): number {
    return this.calls.filter((call) => call === method).length;
  }

  async listDatacenters(): Promise<DatacenterRef[]> {
    return this.#call('listDatacenters', () =>
      [...this.entities.values()].filter((entity) => entity.ref.type === 'Datacenter').map((entity) => ({ ref: entity.ref, name: entity.name, path: `/${entity.name}` })),
    );
  }

  async findVmByUuid(datacenter: DatacenterRef, uuid: string): Promise<ObjectRef | undefined> {
    return this.#call('findVmByUuid', () => this.#inDatacenter(datacenter).find((vm) => vm.record.uuid === uuid)?.record.ref);
  }

  async findVmsByDnsName(datacenter: DatacenterRef, dnsName: string): Promise<ObjectRef[]> {
    return this.#call('findVmsByDnsName', () => this.#inDatacenter(datacenter).filter((vm) => vm.record.guestHostName === dnsName).map((vm) => vm.record.ref));
  }

  async findVmByIp(datacenter: DatacenterRef, ip: string): Promise<ObjectRef | undefined> {
    return this.#call('findVmByIp', () => this.#inDatacenter(datacenter).find((vm) => vm.record.guestIpAddress === ip)?.record.ref);
  }

  async listVmIdentities(datacenter: DatacenterRef): Promise<VmIdentity[]> {
    return this.#call('listVmIdentities', () =>
      this.#inDatacenter(datacenter).map(({ record }) => ({
        ref: record.ref,
        uuid: record.uuid,
        guestHostName: record.guestHostName,
        guestIpAddress: record.guestIpAddress,
        guestIps: record.guestNet.flatMap((nic) => nic.ipAddresses),
      })),
    );
  }

  async retrieveVms(refs: readonly ObjectRef[]): Promise<VmRecord[]> {
    return this.#call('retrieveVms', () => refs.map((ref) => this.vms.get(refKey(ref))?.record).filter((record): record is VmRecord => record !== undefined));
  }

  async ancestors(ref: ObjectRef): Promise<EntityRecord[]> {
    return this.#call('ancestors', () => {
      const chain: EntityRecord[] = [];
      let current: ObjectRef | undefined = ref;
      while (current !== undefined) {
        const entity = this.entities.get(refKey(current));
        if (entity === undefined) break;
        chain.push({ ref: entity.ref, name: entity.name });
        current = entity.parent;
      }
      if (chain.length === 0) throw new Error(`ManagedObjectNotFound: ${refKey(ref)}`);
      return chain;
    });
  }

  async close(): Promise<void> {
    this.calls.push('close');
  }

  #inDatacenter(datacenter: DatacenterRef): Array<{ record: VmRecord }> {
    return [...this.vms.values()].filter((vm) => vm.datacenter === datacenter.name);
  }

  #entity(ref: ObjectRef, name: string, parent: ObjectRef | undefined): Entity {
    const entity = { ref, name, parent };
    this.entities.set(refKey(ref), entity);
    return entity;
  }

  async #call<T>(method: string, body: () => T): Promise<T> {
    this.calls.push(method);
    await Promise.resolve();
    const failure = this.fail(method);
    if (failure !== undefined) throw failure;
    return body();
  }
}
