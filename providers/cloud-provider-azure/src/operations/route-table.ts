/**
 * The cluster's route table (`routeTableName` in `routeTableResourceGroup`): one route per pod
 * CIDR, next hop `VirtualAppliance` = the node's private IP of the CIDR's family. The table is
 * created (in `location`, with the config's tags) when the first route needs it.
 */
import { isAzureErrorKind } from '../errors.js';
import type { AzureRoute, AzureRouteTable, NetworkPort } from '../ports/network-port.js';
import { nodeNameOfRoute, routeNameOf } from './route-names.js';

export interface RouteTableSettings {
  resourceGroup: string;
  name: string;
  location: string;
  tags: Record<string, string>;
}

export interface ObservedRoute {
  name: string;
  targetNodeName: string;
  destinationCidr: string;
}

function isIpv6(text: string): boolean {
  return text.includes(':');
}

/** The next hop for `destinationCidr` among a node's private IPs: the first of the same family. */
export function nextHopFor(destinationCidr: string, privateIps: readonly string[]): string | undefined {
  return privateIps.find((ip) => isIpv6(ip) === isIpv6(destinationCidr));
}

export class RouteTableOperations {
  readonly #network: NetworkPort;
  readonly #settings: RouteTableSettings;

  constructor(network: NetworkPort, settings: RouteTableSettings) {
    this.#network = network;
    this.#settings = settings;
  }

  get settings(): RouteTableSettings {
    return this.#settings;
  }

  /** Every route of the table (none when the table does not exist yet). */
  async listRoutes(): Promise<ObservedRoute[]> {
    const table = await this.#readTable();
    return (table?.routes ?? []).map((route) => ({ name: route.name, targetNodeName: nodeNameOfRoute(route.name), destinationCidr: route.addressPrefix }));
  }

  /** Creates (or replaces) the route of `nodeName`'s `destinationCidr` via `nextHopIp`. */
  async ensureRoute(nodeName: string, destinationCidr: string, nextHopIp: string): Promise<void> {
    const table = (await this.#readTable()) ?? (await this.#createTable());
    const route: AzureRoute = { name: routeNameOf(nodeName, destinationCidr), addressPrefix: destinationCidr, nextHopType: 'VirtualAppliance', nextHopIpAddress: nextHopIp };
    const existing = table.routes.find((candidate) => candidate.name === route.name);
    if (existing && existing.addressPrefix === route.addressPrefix && existing.nextHopType === route.nextHopType && existing.nextHopIpAddress === route.nextHopIpAddress) return;
    await this.#network.putRoute(this.#settings.resourceGroup, this.#settings.name, route);
  }

  /** Deletes a route by its name; resolves when it is already gone. */
  async deleteRoute(routeName: string): Promise<void> {
    await this.#network.deleteRoute(this.#settings.resourceGroup, this.#settings.name, routeName);
  }

  async #readTable(): Promise<AzureRouteTable | undefined> {
    try {
      return await this.#network.getRouteTable(this.#settings.resourceGroup, this.#settings.name);
    } catch (error) {
      if (isAzureErrorKind(error, 'NotFound')) return undefined;
      throw error;
    }
  }

  #createTable(): Promise<AzureRouteTable> {
    return this.#network.createRouteTable(this.#settings.resourceGroup, { name: this.#settings.name, location: this.#settings.location, tags: this.#settings.tags });
  }
}
