/** VcenterPort over @ccm/vsphere-client (VIM SOAP + vAPI REST tagging). */
import {
  VIRTUAL_MACHINE_PROPERTY_PATHS,
  VapiTaggingClient,
  VimClient,
  type VirtualMachineProperties,
  type VsphereDispatcher,
  type VsphereClientLogger,
  type VsphereCredentialsProvider,
} from '@ccm/vsphere-client';

import type { CategoryRecord, DatacenterRef, EntityRecord, ObjectRef, TagRecord, TaggingPort, VcenterPort, VmRecord } from './vcenter-port.js';

/** The VM properties the provider reads. */
export const VM_PROPERTY_PATHS: readonly string[] = VIRTUAL_MACHINE_PROPERTY_PATHS.filter((path) => path !== 'parent' && path !== 'config.instanceUuid');

export interface VsphereClientVcenterPortOptions {
  name: string;
  /** `https://host:port`. */
  url: string;
  credentials: VsphereCredentialsProvider;
  dispatcher: VsphereDispatcher;
  roundTripCount: number;
  logger: VsphereClientLogger;
  requestTimeoutMs?: number;
  keepAliveIntervalMs?: number;
  userAgent?: string;
}

export class VsphereClientVcenterPort implements VcenterPort {
  readonly name: string;
  readonly tagging: TaggingPort;
  readonly #vim: VimClient;
  readonly #rest: VapiTaggingClient;

  constructor(options: VsphereClientVcenterPortOptions) {
    this.name = options.name;
    const common = {
      server: options.url,
      credentials: options.credentials,
      dispatcher: options.dispatcher,
      logger: options.logger,
      ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
      ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
    };
    this.#vim = new VimClient({
      ...common,
      roundTripCount: options.roundTripCount,
      ...(options.keepAliveIntervalMs === undefined ? {} : { keepAliveIntervalMs: options.keepAliveIntervalMs }),
    });
    this.#rest = new VapiTaggingClient(common);
    const rest = this.#rest;
    this.tagging = {
      listAttachedTags: (ref, signal) => rest.listAttachedTags(ref, { signal }),
      getTag: async (id, signal): Promise<TagRecord> => {
        const tag = await rest.getTag(id, { signal });
        return { id: tag.id, name: tag.name, categoryId: tag.categoryId };
      },
      getCategory: async (id, signal): Promise<CategoryRecord> => {
        const category = await rest.getCategory(id, { signal });
        return { id: category.id, name: category.name };
      },
      listCategories: (signal) => rest.listCategories({ signal }),
    };
  }

  async listDatacenters(signal?: AbortSignal): Promise<DatacenterRef[]> {
    const datacenters = await this.#vim.listDatacenters({ signal });
    return datacenters.map((datacenter) => ({ ref: datacenter.reference, name: datacenter.name, path: datacenter.path }));
  }

  findVmByUuid(datacenter: DatacenterRef, uuid: string, signal?: AbortSignal): Promise<ObjectRef | undefined> {
    return this.#vim.findByUuid(uuid, { datacenter: datacenter.ref, vmSearch: true, signal });
  }

  findVmsByDnsName(datacenter: DatacenterRef, dnsName: string, signal?: AbortSignal): Promise<ObjectRef[]> {
    return this.#vim.findAllByDnsName(dnsName, { datacenter: datacenter.ref, vmSearch: true, signal });
  }

  findVmByIp(datacenter: DatacenterRef, ip: string, signal?: AbortSignal): Promise<ObjectRef | undefined> {
    return this.#vim.findByIp(ip, { datacenter: datacenter.ref, vmSearch: true, signal });
  }

  async retrieveVms(refs: readonly ObjectRef[], signal?: AbortSignal): Promise<VmRecord[]> {
    const vms = await this.#vim.retrieveVirtualMachines(refs, VM_PROPERTY_PATHS, { signal });
    return vms.map(toVmRecord);
  }

  async ancestors(ref: ObjectRef, signal?: AbortSignal): Promise<EntityRecord[]> {
    const chain = await this.#vim.ancestors(ref, { signal });
    return chain.map((entity) => ({ ref: entity.reference, name: entity.name }));
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.#vim.close(), this.#rest.logout()]);
  }
}

export function toVmRecord(vm: VirtualMachineProperties): VmRecord {
  return {
    ref: vm.reference,
    name: vm.name ?? '',
    uuid: vm.uuid ?? '',
    numCpu: vm.numCpu ?? 0,
    memorySizeMB: vm.memorySizeMB ?? 0,
    guestId: vm.guestId ?? '',
    guestHostName: vm.guestHostName ?? '',
    guestNet: (vm.guestNet ?? []).map((nic) => ({ network: nic.network, ipAddresses: nic.ipAddresses, deviceConfigId: nic.deviceConfigId })),
    hasGuestNet: vm.guestNet !== undefined,
    powerState: vm.powerState ?? '',
    host: vm.host,
    resourcePool: vm.resourcePool,
    extraConfig: vm.extraConfig ?? new Map(),
  };
}
