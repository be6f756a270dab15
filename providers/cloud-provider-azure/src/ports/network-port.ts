/**
 * The Network calls the Azure operations make, in the provider's own types (declared by their
 * consumers, `operations/node-addresses.ts` and `operations/route-table.ts`).
 */
import type { CloudCallOptions } from '@ccm/core/provider';

export interface AzureIpConfiguration {
  name: string;
  primary: boolean;
  privateIpAddress?: string;
  privateIpVersion: 'IPv4' | 'IPv6';
  /** The public IP address resource attached to this IP configuration. */
  publicIpAddressId?: string;
}

export interface AzureNetworkInterface {
  id: string;
  name: string;
  ipConfigurations: AzureIpConfiguration[];
}

export interface AzureRoute {
  name: string;
  addressPrefix: string;
  nextHopType: string;
  nextHopIpAddress?: string;
}

export interface AzureRouteTable {
  name: string;
  location: string;
  etag?: string;
  tags: Record<string, string>;
  routes: AzureRoute[];
}

export interface NetworkPort {
  /** A NIC by its ARM ID: a standalone NIC or one of a uniform scale-set VM. Throws NotFound. */
  getNetworkInterface(networkInterfaceId: string, options?: CloudCallOptions): Promise<AzureNetworkInterface>;
  /** Every NIC of a resource group (standalone and flexible-scale-set VMs). */
  listNetworkInterfaces(resourceGroup: string, options?: CloudCallOptions): Promise<AzureNetworkInterface[]>;
  /** Every NIC of the instances of a uniform scale set. */
  listScaleSetNetworkInterfaces(resourceGroup: string, scaleSetName: string, options?: CloudCallOptions): Promise<AzureNetworkInterface[]>;
  /** Every public IP of a resource group: ARM ID and address ('' when none is allocated). */
  listPublicIpAddresses(resourceGroup: string, options?: CloudCallOptions): Promise<Array<{ id: string; ipAddress: string }>>;
  /** The IP address of a public IP resource, '' when none is allocated. Throws NotFound. */
  getPublicIpAddress(publicIpAddressId: string, options?: CloudCallOptions): Promise<string>;
  /** Throws NotFound when the table does not exist. */
  getRouteTable(resourceGroup: string, name: string, options?: CloudCallOptions): Promise<AzureRouteTable>;
  /** Creates the (empty) table; waits for the long-running operation. */
  createRouteTable(resourceGroup: string, table: { name: string; location: string; tags: Record<string, string> }, options?: CloudCallOptions): Promise<AzureRouteTable>;
  /** Creates or replaces one route; waits for the long-running operation. */
  putRoute(resourceGroup: string, tableName: string, route: AzureRoute, options?: CloudCallOptions): Promise<void>;
  /** Deletes one route; resolves when it is already gone. */
  deleteRoute(resourceGroup: string, tableName: string, routeName: string, options?: CloudCallOptions): Promise<void>;
}
