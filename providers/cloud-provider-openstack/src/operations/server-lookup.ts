/**
 * Server lookups through core's Coalescer: concurrent lookups of many nodes by name become one
 * `GET /servers/detail?name=^(a|b|...)$` (upstream asks once per node, `^name$`), and concurrent
 * port lookups of many servers become one `GET /v2.0/ports?device_id=a&device_id=b...` (upstream:
 * one per server). A lookup by ID (`GET /servers/{id}`) cannot be batched by a project user.
 */
import { type CallOptions, Coalescer, type CoalescerObserver, notThrottled } from '@ccm/core/cloud';
import { isOpenStackErrorKind } from '../errors.js';
import type { ComputePort, OpenStackServer } from '../ports/compute-port.js';
import type { NetworkPort, NeutronPort } from '../ports/network-port.js';

/** Names per server list: keeps the regular expression (and the URL) well under 8 KiB. */
export const MAX_NAMES_PER_SERVER_LIST = 50;
/** Servers per port list: 50 `device_id` parameters of 47 characters each. */
export const MAX_SERVERS_PER_PORT_LIST = 50;
/** Window and concurrency of the lookup coalescers. */
export const SERVER_LOOKUP_COALESCING = { windowMs: 20, maxConcurrentBatches: 1 } as const;

export interface ServerLookup {
  /** Every server named exactly `name` (Nova allows duplicates). */
  serversNamed(name: string, options?: CallOptions): Promise<OpenStackServer[]>;
  /** The server with this ID, or undefined when Nova says 404. */
  serverById(serverId: string, options?: CallOptions): Promise<OpenStackServer | undefined>;
  /** The Neutron ports whose `device_id` is the server. */
  portsOfServer(serverId: string, options?: CallOptions): Promise<NeutronPort[]>;
}

export interface CoalescedServerLookupOptions {
  observers?: { byName?: CoalescerObserver; ports?: CoalescerObserver };
}

export class CoalescedServerLookup implements ServerLookup {
  readonly #compute: ComputePort;
  readonly #byName: Coalescer<string, OpenStackServer[]>;
  readonly #ports: Coalescer<string, NeutronPort[]>;

  constructor(compute: ComputePort, network: NetworkPort, options: CoalescedServerLookupOptions = {}) {
    this.#compute = compute;
    this.#byName = new Coalescer<string, OpenStackServer[]>({
      name: 'ServersListByName',
      ...SERVER_LOOKUP_COALESCING,
      maxBatchSize: MAX_NAMES_PER_SERVER_LIST,
      batchLoad: async (names, { signal }) => {
        const found = new Map<string, OpenStackServer[]>();
        for (const server of await compute.listServersByName(names, { signal })) found.set(server.name, [...(found.get(server.name) ?? []), server]);
        return found;
      },
      shouldFallBack: notThrottled,
      singleLoad: (name, { signal }) => compute.listServersByName([name], { signal }),
      resolveMissing: () => [],
      ...(options.observers?.byName === undefined ? {} : { observer: options.observers.byName }),
    });
    this.#ports = new Coalescer<string, NeutronPort[]>({
      name: 'PortsListByDevice',
      ...SERVER_LOOKUP_COALESCING,
      maxBatchSize: MAX_SERVERS_PER_PORT_LIST,
      batchLoad: async (serverIds, { signal }) => {
        const found = new Map<string, NeutronPort[]>();
        for (const port of await network.listPorts({ deviceIds: serverIds }, { signal })) found.set(port.deviceId, [...(found.get(port.deviceId) ?? []), port]);
        return found;
      },
      shouldFallBack: notThrottled,
      singleLoad: (serverId, { signal }) => network.listPorts({ deviceIds: [serverId] }, { signal }),
      resolveMissing: () => [],
      ...(options.observers?.ports === undefined ? {} : { observer: options.observers.ports }),
    });
  }

  serversNamed(name: string, options?: CallOptions): Promise<OpenStackServer[]> {
    return this.#byName.load(name, options);
  }

  async serverById(serverId: string, options?: CallOptions): Promise<OpenStackServer | undefined> {
    try {
      return await this.#compute.getServer(serverId, options);
    } catch (error) {
      if (isOpenStackErrorKind(error, 'NotFound')) return undefined;
      throw error;
    }
  }

  portsOfServer(serverId: string, options?: CallOptions): Promise<NeutronPort[]> {
    return this.#ports.load(serverId, options);
  }
}
