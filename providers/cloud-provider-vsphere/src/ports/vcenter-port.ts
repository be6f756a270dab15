/**
 * The ports the vSphere operations need, declared by their consumer with plain types only (no
 * client library types). `sdk/vsphere-client-vcenter-port.ts` implements them over
 * @ccm/vsphere-client (the only place that imports it); tests use the in-memory fake
 * (test/fakes/fake-vcenter.ts). Failed calls throw `VsphereApiError` (vsphere-api-error.ts).
 */
import type { PortNaming } from '@ccm/core/cloud';

/** What a vCenter login needs; a `CredentialSource` answers it at every login. */
export interface VcenterCredentials {
  username: string;
  password: string;
}

/** A managed object reference (`{ type: 'VirtualMachine', value: 'vm-42' }`). */
export interface ObjectRef {
  readonly type: string;
  readonly value: string;
}

export interface DatacenterRef {
  ref: ObjectRef;
  name: string;
  /** Inventory path, `/dc` or `/folder/dc`. */
  path: string;
}

export interface GuestNic {
  network: string | undefined;
  ipAddresses: readonly string[];
  /** -1 for interfaces that are not virtual NICs (bridges, CNI devices). */
  deviceConfigId: number | undefined;
}

/** The VM properties the provider reads (one RetrievePropertiesEx per batch of VMs). */
export interface VmRecord {
  ref: ObjectRef;
  name: string;
  /** BIOS UUID, `config.uuid`. */
  uuid: string;
  numCpu: number;
  memorySizeMB: number;
  guestId: string;
  guestHostName: string;
  /** `guest.ipAddress`, the primary IP VMware Tools reports ('' when none). */
  guestIpAddress: string;
  guestNet: readonly GuestNic[];
  /** False when the VM has no `guest.net` at all (VMware Tools not running). */
  hasGuestNet: boolean;
  powerState: string;
  host: ObjectRef | undefined;
  resourcePool: ObjectRef | undefined;
  /** `config.extraConfig` values (guestinfo.metadata and its encoding among them). */
  extraConfig: ReadonlyMap<string, string>;
}

/** What node discovery matches a VM by (read for all VMs of a datacenter at once). */
export interface VmIdentity {
  ref: ObjectRef;
  /** BIOS UUID, `config.uuid`, as vCenter spells it ('' when unknown). */
  uuid: string;
  guestHostName: string;
  /** `guest.ipAddress` ('' when none). */
  guestIpAddress: string;
  /** Every IP of `guest.net`. */
  guestIps: readonly string[];
}

/** One entity of an ancestor chain. */
export interface EntityRecord {
  ref: ObjectRef;
  name: string;
}

export interface VcenterPort {
  /** The vCenter's config name, for messages. */
  readonly name: string;
  listDatacenters(signal?: AbortSignal): Promise<DatacenterRef[]>;
  findVmByUuid(datacenter: DatacenterRef, uuid: string, signal?: AbortSignal): Promise<ObjectRef | undefined>;
  findVmsByDnsName(datacenter: DatacenterRef, dnsName: string, signal?: AbortSignal): Promise<ObjectRef[]>;
  findVmByIp(datacenter: DatacenterRef, ip: string, signal?: AbortSignal): Promise<ObjectRef | undefined>;
  /** The identities of every VM in the datacenter (a container view read in pages). */
  listVmIdentities(datacenter: DatacenterRef, signal?: AbortSignal): Promise<VmIdentity[]>;
  /** Properties of many VMs in one call; VMs that do not exist are absent from the result. */
  retrieveVms(refs: readonly ObjectRef[], signal?: AbortSignal): Promise<VmRecord[]>;
  /** The entity and its ancestors, nearest first (host, cluster, folders, datacenter, root). */
  ancestors(ref: ObjectRef, signal?: AbortSignal): Promise<EntityRecord[]>;
  readonly tagging: TaggingPort;
  close(): Promise<void>;
}

export interface TagRecord {
  id: string;
  name: string;
  categoryId: string;
}

export interface CategoryRecord {
  id: string;
  name: string;
}

export interface TaggingPort {
  listAttachedTags(ref: ObjectRef, signal?: AbortSignal): Promise<string[]>;
  getTag(id: string, signal?: AbortSignal): Promise<TagRecord>;
  getCategory(id: string, signal?: AbortSignal): Promise<CategoryRecord>;
  listCategories(signal?: AbortSignal): Promise<string[]>;
}

export function refKey(ref: ObjectRef): string {
  return `${ref.type}:${ref.value}`;
}

/** How the port pipeline names the port's calls: the metric labels (`request`) the metrics have always used. */
export const VCENTER_PORT_NAMING = {
  operations: {
    listDatacenters: 'ListDatacenters',
    findVmByUuid: 'FindByUuid',
    findVmsByDnsName: 'FindAllByDnsName',
    findVmByIp: 'FindByIp',
    listVmIdentities: 'ReadVirtualMachineInventory',
    retrieveVms: 'RetrieveVirtualMachines',
    ancestors: 'RetrieveAncestors',
    'tagging.listAttachedTags': 'ListAttachedTags',
    'tagging.getTag': 'GetTag',
    'tagging.getCategory': 'GetCategory',
    'tagging.listCategories': 'ListCategories',
  },
  nested: ['tagging'],
  passThrough: ['close'],
} as const satisfies PortNaming<VcenterPort>;
