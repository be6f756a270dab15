/** The Compute port over openstack-client-ts's Nova client: the only code that sees Nova's JSON. */
import type { NovaClient, Server } from 'openstack-client-ts';
import type { CallOptions } from '@ccm/core/cloud';
import type { ComputePort, OpenStackFlavor, OpenStackServer, OpenStackServerAddress } from '../compute-port.js';
import { serverNamesFilter } from './list-query-budget.js';
import { callOpenStack } from './sdk-errors.js';

function toServerAddress(address: Server['addresses'][string][number]): OpenStackServerAddress {
  const type = address['OS-EXT-IPS:type'];
  return { address: address.addr, version: address.version === 6 ? 6 : 4, type: type === 'fixed' || type === 'floating' ? type : '' };
}

export function toOpenStackServer(server: Server): OpenStackServer {
  const addresses: Record<string, OpenStackServerAddress[]> = {};
  for (const [network, list] of Object.entries(server.addresses ?? {})) addresses[network] = (list ?? []).map(toServerAddress);
  const flavor = server.flavor ?? {};
  return {
    id: server.id,
    name: server.name,
    status: server.status,
    availabilityZone: typeof server['OS-EXT-AZ:availability_zone'] === 'string' ? server['OS-EXT-AZ:availability_zone'] : '',
    flavor: { id: typeof flavor.id === 'string' ? flavor.id : '', originalName: typeof flavor.original_name === 'string' ? flavor.original_name : '' },
    addresses,
    accessIPv4: server.accessIPv4 ?? '',
    accessIPv6: server.accessIPv6 ?? '',
    metadata: { ...(server.metadata ?? {}) },
  };
}

export function createSdkComputePort(nova: NovaClient): ComputePort {
  const signalOf = (options: CallOptions | undefined): AbortSignal | undefined => options?.signal;
  const listOptions = (options: CallOptions | undefined): { signal?: AbortSignal } => (options?.signal === undefined ? {} : { signal: options.signal });
  const listServersByName = (names: readonly string[], options: CallOptions | undefined): Promise<OpenStackServer[]> =>
    callOpenStack('compute.listServersByName', async () => {
      if (names.length === 0) return [];
      const wanted = new Set(names);
      const servers = await nova.listServersDetail({ name: serverNamesFilter(names) }, listOptions(options));
      // The filter is a regular expression on the server side: keep exact matches only.
      return servers.filter((server) => wanted.has(server.name)).map(toOpenStackServer);
    });
  return {
    getServer: (serverId, options) => callOpenStack('compute.getServer', async () => toOpenStackServer(await nova.getServer(serverId, signalOf(options)))),
    listServersByName,
    serversNamed: (name, options) => listServersByName([name], options),
    getFlavor: (flavorId, options) =>
      callOpenStack('compute.getFlavor', async (): Promise<OpenStackFlavor> => {
        const flavor = await nova.getFlavor(flavorId, signalOf(options));
        return { id: flavor.id, name: flavor.name };
      }),
    listFlavors: (options) => callOpenStack('compute.listFlavors', async () => (await nova.listFlavors({}, listOptions(options))).map((flavor): OpenStackFlavor => ({ id: flavor.id, name: flavor.name }))),
  };
}
