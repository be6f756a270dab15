/** An in-memory Network: NICs, public IPs and route tables with their routes. */
import type { AzureNetworkInterface, AzureRoute, AzureRouteTable, NetworkPort } from '../../src/ports/network-port.js';
import { armError, FakeCallLog } from './fake-errors.js';

/** `/subscriptions/<sub>/resourcegroups/<rg>` of `id` (lower-cased) when it is in `resourceGroup`, else a prefix nothing matches. */
function resourceGroupPrefix(id: string, resourceGroup: string): string {
  const match = /^(\/subscriptions\/[^/]+\/resourcegroups\/[^/]+)/i.exec(id);
  const prefix = match?.[1]?.toLowerCase() ?? '';
  return prefix.endsWith(`/${resourceGroup.toLowerCase()}`) ? prefix : '\0';
}

export class FakeNetwork implements NetworkPort {
  readonly log = new FakeCallLog();
  readonly networkInterfaces = new Map<string, AzureNetworkInterface>();
  readonly publicIps = new Map<string, string>();
  readonly routeTables = new Map<string, AzureRouteTable>();
  #etag = 0;

  addNetworkInterface(nic: AzureNetworkInterface): void {
    this.networkInterfaces.set(nic.id.toLowerCase(), nic);
  }

  routeTable(resourceGroup: string, name: string): AzureRouteTable | undefined {
    return this.routeTables.get(`${resourceGroup.toLowerCase()}/${name}`);
  }

  async listNetworkInterfaces(resourceGroup: string): Promise<AzureNetworkInterface[]> {
    this.log.record('network.listNetworkInterfaces', [resourceGroup]);
    return [...this.networkInterfaces.values()].filter((nic) => nic.id.toLowerCase().startsWith(`${resourceGroupPrefix(nic.id, resourceGroup)}/providers/microsoft.network/networkinterfaces/`)).map((nic) => structuredClone(nic));
  }

  async listScaleSetNetworkInterfaces(resourceGroup: string, scaleSetName: string): Promise<AzureNetworkInterface[]> {
    this.log.record('network.listScaleSetNetworkInterfaces', [resourceGroup, scaleSetName]);
    const infix = `/providers/microsoft.compute/virtualmachinescalesets/${scaleSetName.toLowerCase()}/virtualmachines/`;
    return [...this.networkInterfaces.values()].filter((nic) => nic.id.toLowerCase().startsWith(`${resourceGroupPrefix(nic.id, resourceGroup)}${infix}`)).map((nic) => structuredClone(nic));
  }

  async listPublicIpAddresses(resourceGroup: string): Promise<Array<{ id: string; ipAddress: string }>> {
    this.log.record('network.listPublicIpAddresses', [resourceGroup]);
    return [...this.publicIps.entries()].filter(([id]) => id.startsWith(`${resourceGroupPrefix(id, resourceGroup)}/providers/microsoft.network/publicipaddresses/`)).map(([id, ipAddress]) => ({ id, ipAddress }));
  }

  async getNetworkInterface(networkInterfaceId: string): Promise<AzureNetworkInterface> {
    this.log.record('network.getNetworkInterface', [networkInterfaceId]);
    const nic = this.networkInterfaces.get(networkInterfaceId.toLowerCase());
    if (!nic) throw armError('network.getNetworkInterface', 'NotFound', 'ResourceNotFound');
    return structuredClone(nic);
  }

  async getPublicIpAddress(publicIpAddressId: string): Promise<string> {
    this.log.record('network.getPublicIpAddress', [publicIpAddressId]);
    const address = this.publicIps.get(publicIpAddressId.toLowerCase());
    if (address === undefined) throw armError('network.getPublicIpAddress', 'NotFound', 'ResourceNotFound');
    return address;
  }

  async getRouteTable(resourceGroup: string, name: string): Promise<AzureRouteTable> {
    this.log.record('network.getRouteTable', [resourceGroup, name]);
    const table = this.routeTable(resourceGroup, name);
    if (!table) throw armError('network.getRouteTable', 'NotFound', 'ResourceNotFound');
    return structuredClone(table);
  }

  async createRouteTable(resourceGroup: string, table: { name: string; location: string; tags: Record<string, string> }): Promise<AzureRouteTable> {
    this.log.record('network.createRouteTable', [resourceGroup, table]);
    const created: AzureRouteTable = { name: table.name, location: table.location, tags: { ...table.tags }, routes: [], etag: this.#nextEtag() };
    this.routeTables.set(`${resourceGroup.toLowerCase()}/${table.name}`, created);
    return structuredClone(created);
  }

  async putRoute(resourceGroup: string, tableName: string, route: AzureRoute): Promise<void> {
    this.log.record('network.putRoute', [resourceGroup, tableName, route]);
    const table = this.routeTable(resourceGroup, tableName);
    if (!table) throw armError('network.putRoute', 'NotFound', 'ResourceNotFound');
    table.routes = [...table.routes.filter((existing) => existing.name !== route.name), { ...route }];
    table.etag = this.#nextEtag();
  }

  async deleteRoute(resourceGroup: string, tableName: string, routeName: string): Promise<void> {
    this.log.record('network.deleteRoute', [resourceGroup, tableName, routeName]);
    const table = this.routeTable(resourceGroup, tableName);
    if (!table) return;
    table.routes = table.routes.filter((existing) => existing.name !== routeName);
    table.etag = this.#nextEtag();
  }

  #nextEtag(): string {
    this.#etag += 1;
    return `W/"${this.#etag}"`;
  }
}
