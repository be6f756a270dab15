/**
 * VcenterPort over @ccm/vsphere-client (VIM SOAP + vAPI REST tagging): the only module that
 * imports the client. The client's errors leave it as `VsphereApiError`s.
 */
import { warnInsecureTls, type Logger } from '@ccm/core/logging';
import {
  VIRTUAL_MACHINE_PROPERTY_PATHS,
  VapiTaggingClient,
  VimClient,
  checkVsphereTlsOptions,
  createVsphereDispatcher,
  findVsphereError,
  type VirtualMachineProperties,
  type VsphereDispatcher,
  type VsphereClientLogger,
} from '@ccm/vsphere-client';
import type { VcenterConfig } from '../../config/vsphere-config.js';
import { VsphereApiError, VsphereProviderError } from '../../errors.js';
import type { CategoryRecord, DatacenterRef, EntityRecord, ObjectRef, TagRecord, TaggingPort, VcenterCredentials, VcenterPort, VmIdentity, VmRecord } from '../vcenter-port.js';

/** The VM properties the provider reads. */
export const VM_PROPERTY_PATHS: readonly string[] = VIRTUAL_MACHINE_PROPERTY_PATHS.filter((path) => path !== 'parent' && path !== 'config.instanceUuid');

/** What node discovery reads of every VM of a datacenter. */
export const VM_IDENTITY_PROPERTY_PATHS: readonly string[] = ['config.uuid', 'guest.hostName', 'guest.ipAddress', 'guest.net'];
/** Page size hint of the inventory read (the server may send fewer per page). */
export const VM_INVENTORY_PAGE_SIZE = 1000;

export interface VsphereClientVcenterPortOptions {
  name: string;
  /** `https://host:port`. */
  url: string;
  credentials: () => Promise<VcenterCredentials>;
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
      listAttachedTags: (ref, signal) => translated(() => rest.listAttachedTags(ref, { signal })),
      getTag: (id, signal): Promise<TagRecord> =>
        translated(async () => {
          const tag = await rest.getTag(id, { signal });
          return { id: tag.id, name: tag.name, categoryId: tag.categoryId };
        }),
      getCategory: (id, signal): Promise<CategoryRecord> =>
        translated(async () => {
          const category = await rest.getCategory(id, { signal });
          return { id: category.id, name: category.name };
        }),
      listCategories: (signal) => translated(() => rest.listCategories({ signal })),
    };
  }

  listDatacenters(signal?: AbortSignal): Promise<DatacenterRef[]> {
    return translated(async () => {
      const datacenters = await this.#vim.listDatacenters({ signal });
      return datacenters.map((datacenter) => ({ ref: datacenter.reference, name: datacenter.name, path: datacenter.path }));
    });
  }

  findVmByUuid(datacenter: DatacenterRef, uuid: string, signal?: AbortSignal): Promise<ObjectRef | undefined> {
    return translated(() => this.#vim.findByUuid(uuid, { datacenter: datacenter.ref, vmSearch: true, signal }));
  }

  findVmsByDnsName(datacenter: DatacenterRef, dnsName: string, signal?: AbortSignal): Promise<ObjectRef[]> {
    return translated(() => this.#vim.findAllByDnsName(dnsName, { datacenter: datacenter.ref, vmSearch: true, signal }));
  }

  findVmByIp(datacenter: DatacenterRef, ip: string, signal?: AbortSignal): Promise<ObjectRef | undefined> {
    return translated(() => this.#vim.findByIp(ip, { datacenter: datacenter.ref, vmSearch: true, signal }));
  }

  listVmIdentities(datacenter: DatacenterRef, signal?: AbortSignal): Promise<VmIdentity[]> {
    return translated(async () =>
      (await this.#vim.retrieveVirtualMachinesIn(datacenter.ref, VM_IDENTITY_PROPERTY_PATHS, { maxObjects: VM_INVENTORY_PAGE_SIZE, signal })).map(toVmIdentity),
    );
  }

  retrieveVms(refs: readonly ObjectRef[], signal?: AbortSignal): Promise<VmRecord[]> {
    return translated(async () => (await this.#vim.retrieveVirtualMachines(refs, VM_PROPERTY_PATHS, { signal })).map(toVmRecord));
  }

  ancestors(ref: ObjectRef, signal?: AbortSignal): Promise<EntityRecord[]> {
    return translated(async () => (await this.#vim.ancestors(ref, { signal })).map((entity) => ({ ref: entity.reference, name: entity.name })));
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.#vim.close(), this.#rest.logout()]);
  }
}

/**
 * The client's errors -> `VsphereApiError` (the client's kind as code, its message, the original
 * as cause); a credential source's `VsphereProviderError` and anything else pass unchanged.
 */
export function toVsphereApiError(error: unknown): unknown {
  if (error instanceof VsphereProviderError || error instanceof VsphereApiError) return error;
  const client = findVsphereError(error);
  if (client === undefined) return error;
  return new VsphereApiError(client.message, {
    code: client.kind,
    operation: client.operation,
    retryable: client.retryable,
    ...(client.httpStatus === undefined ? {} : { httpStatus: client.httpStatus }),
    cause: error,
  });
}

async function translated<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toVsphereApiError(error);
  }
}

/** The client's TLS settings check (CA file, thumbprint, insecure), for the config reader's report. */
export function checkVcenterTlsOptions(vcenter: Pick<VcenterConfig, 'insecure' | 'caFile' | 'thumbprint'>): void {
  checkVsphereTlsOptions({ insecure: vcenter.insecure, caFile: vcenter.caFile, thumbprint: vcenter.thumbprint });
}

/** The vCenter port of production: the client with the vCenter's TLS settings, logging through the CCM's logger. */
export function createVsphereClientVcenterPort(vcenter: VcenterConfig, credentials: () => Promise<VcenterCredentials>, logger: Logger): VcenterPort {
  const clientLogger: VsphereClientLogger = {
    debug: (message, fields) => logger.verbose(4, message, fields),
    warn: (message, fields) => logger.warn(message, fields),
  };
  if (vcenter.insecure) warnInsecureTls(logger, { what: `vCenter "${vcenter.name}" (${vcenterUrl(vcenter)})`, setting: 'insecure-flag' });
  return new VsphereClientVcenterPort({
    name: vcenter.name,
    url: vcenterUrl(vcenter),
    credentials,
    dispatcher: createVsphereDispatcher({ insecure: vcenter.insecure, caFile: vcenter.caFile, thumbprint: vcenter.thumbprint }),
    // One attempt per request: retries of transient failures are the port pipeline's (VSPHERE_RETRY_DEFAULTS).
    roundTripCount: 1,
    logger: clientLogger,
    userAgent: 'vsphere-cloud-controller-manager',
  });
}

/** `https://<server>:<port>`, IPv6 servers in brackets. */
export function vcenterUrl(vcenter: Pick<VcenterConfig, 'server' | 'port'>): string {
  const host = vcenter.server.includes(':') && !vcenter.server.startsWith('[') ? `[${vcenter.server}]` : vcenter.server;
  return `https://${host}:${vcenter.port}`;
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
    guestIpAddress: vm.guestIpAddress ?? '',
    guestNet: (vm.guestNet ?? []).map((nic) => ({ network: nic.network, ipAddresses: nic.ipAddresses, deviceConfigId: nic.deviceConfigId })),
    hasGuestNet: vm.guestNet !== undefined,
    powerState: vm.powerState ?? '',
    host: vm.host,
    resourcePool: vm.resourcePool,
    extraConfig: vm.extraConfig ?? new Map(),
  };
}

export function toVmIdentity(vm: VirtualMachineProperties): VmIdentity {
  return {
    ref: vm.reference,
    uuid: vm.uuid ?? '',
    guestHostName: vm.guestHostName ?? '',
    guestIpAddress: vm.guestIpAddress ?? '',
    guestIps: (vm.guestNet ?? []).flatMap((nic) => nic.ipAddresses),
  };
}
