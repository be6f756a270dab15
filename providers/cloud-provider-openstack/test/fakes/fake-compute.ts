/**
 * An in-memory ComputePort with Nova's semantics the operations rely on: `getServer` answers
 * NotFound for a missing server, the name list matches exact names only (Nova's filter is a
 * regular expression; the adapter keeps exact matches), duplicate names are allowed, flavors by
 * ID and listed (except the unlisted ones). It logs every call and lets a test inject failures.
 */
import type { ComputePort, OpenStackFlavor, OpenStackServer, OpenStackServerAddress } from '../../src/ports/compute-port.js';
import { FakeCalls, fakeError } from './fake-errors.js';

type Method = keyof ComputePort;

export interface AddServerOptions {
  id?: string;
  status?: string;
  availabilityZone?: string;
  flavorId?: string;
  flavorOriginalName?: string;
  addresses?: Record<string, OpenStackServerAddress[]>;
  accessIPv4?: string;
  accessIPv6?: string;
  metadata?: Record<string, string>;
}

export class FakeCompute extends FakeCalls<Method> implements ComputePort {
  readonly servers = new Map<string, OpenStackServer>();
  readonly flavors = new Map<string, OpenStackFlavor>([['f-small', { id: 'f-small', name: 'm1.small' }]]);
  /** Flavors `getFlavor` finds but `listFlavors` does not show (private to another project, disabled). */
  readonly unlistedFlavors = new Set<string>();
  /** The names asked for by each `listServersByName` call. */
  readonly nameLists: string[][] = [];
  #nextId = 1;

  addServer(name: string, options: AddServerOptions = {}): OpenStackServer {
    const id = options.id ?? `00000000-0000-4000-8000-${String(this.#nextId++).padStart(12, '0')}`;
    const server: OpenStackServer = {
      id,
      name,
      status: options.status ?? 'ACTIVE',
      availabilityZone: options.availabilityZone ?? 'nova',
      flavor: { id: options.flavorId ?? 'f-small', originalName: options.flavorOriginalName ?? '' },
      addresses: options.addresses ?? {},
      accessIPv4: options.accessIPv4 ?? '',
      accessIPv6: options.accessIPv6 ?? '',
      metadata: options.metadata ?? {},
    };
    this.servers.set(id, server);
    return structuredClone(server);
  }

  async getServer(serverId: string): Promise<OpenStackServer> {
    this.enter('getServer');
    const server = this.servers.get(serverId);
    if (server === undefined) throw fakeError('NotFound', 'compute.getServer');
    return structuredClone(server);
  }

  async listServersByName(names: readonly string[]): Promise<OpenStackServer[]> {
    this.enter('listServersByName');
    this.nameLists.push([...names]);
    return [...this.servers.values()].filter((server) => names.includes(server.name)).map((server) => structuredClone(server));
  }

  /** Unbatched, as the SDK adapter: the port's coalesce stage answers it with `listServersByName`. */
  serversNamed(name: string): Promise<OpenStackServer[]> {
    return this.listServersByName([name]);
  }

  async listFlavors(): Promise<OpenStackFlavor[]> {
    this.enter('listFlavors');
    return [...this.flavors.values()].filter((flavor) => !this.unlistedFlavors.has(flavor.id)).map((flavor) => ({ ...flavor }));
  }

  async getFlavor(flavorId: string): Promise<OpenStackFlavor> {
    this.enter('getFlavor');
    const flavor = this.flavors.get(flavorId);
    if (flavor === undefined) throw fakeError('NotFound', 'compute.getFlavor');
    return { ...flavor };
  }
}
