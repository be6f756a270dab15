/**
 * The simulator's in-memory ARM state: resource groups and the resources in them, keyed by
 * lower-cased id. Nested resources (subnets, load balancer parts, security rules, routes) live
 * inside their parent's body, as ARM returns them; scale-set instances and their NICs are
 * resources of their own.
 */
import { randomUUID } from 'node:crypto';
import { ArmError, resourceGroupNotFound } from './arm-error.js';
import { PublicAddressPool } from './ip-address-allocator.js';
import { asArray, asObject, idKey, referenceId, sameId, topLevelId, type Json } from './resource-id.js';

export type ResourceKind =
  | 'virtualMachines'
  | 'availabilitySets'
  | 'virtualMachineScaleSets'
  | 'scaleSetVirtualMachines'
  | 'scaleSetNetworkInterfaces'
  | 'virtualNetworks'
  | 'networkInterfaces'
  | 'publicIPAddresses'
  | 'loadBalancers'
  | 'networkSecurityGroups'
  | 'routeTables';

export const RESOURCE_TYPE: Readonly<Record<ResourceKind, string>> = {
  virtualMachines: 'Microsoft.Compute/virtualMachines',
  availabilitySets: 'Microsoft.Compute/availabilitySets',
  virtualMachineScaleSets: 'Microsoft.Compute/virtualMachineScaleSets',
  scaleSetVirtualMachines: 'Microsoft.Compute/virtualMachineScaleSets/virtualMachines',
  scaleSetNetworkInterfaces: 'Microsoft.Network/networkInterfaces',
  virtualNetworks: 'Microsoft.Network/virtualNetworks',
  networkInterfaces: 'Microsoft.Network/networkInterfaces',
  publicIPAddresses: 'Microsoft.Network/publicIPAddresses',
  loadBalancers: 'Microsoft.Network/loadBalancers',
  networkSecurityGroups: 'Microsoft.Network/networkSecurityGroups',
  routeTables: 'Microsoft.Network/routeTables',
};

export interface StoredResource {
  /** The id with the spelling of the PUT that created it. */
  id: string;
  kind: ResourceKind;
  name: string;
  resourceGroup: string;
  location: string;
  tags: Record<string, string> | undefined;
  /** Every top-level key except id, name, type, location, tags and etag (properties, sku, zones, ...). */
  body: Json;
  etag: string;
  /** Succeeded, or Creating/Updating/Deleting while a long-running operation is unfinished. */
  provisioningState: string;
  /** Compute only: running, stopped, deallocated, ... */
  powerState?: string;
  /** Scale-set instances and their NICs: the scale set's (or the instance's) id. */
  parentId?: string;
  /** Compute: the platform fault and update domains the simulator placed the machine in. */
  faultDomain?: number;
  updateDomain?: number;
  /** The unfinished long-running operation that last wrote this resource. */
  operationId?: string;
  /** Scale sets: the next instance id to hand out. */
  nextInstanceId?: number;
}

export interface StoredResourceGroup {
  name: string;
  location: string;
  tags: Record<string, string> | undefined;
  managedBy?: string;
}

/** An IP configuration that references network objects: a NIC's (standalone or scale-set) or a load balancer frontend's. */
export interface IpConfigurationUse {
  /** The id of the IP configuration itself. */
  id: string;
  owner: StoredResource;
  properties: Json;
}

export class ArmState {
  readonly resourceGroups = new Map<string, StoredResourceGroup>();
  readonly resources = new Map<string, StoredResource>();
  readonly publicAddresses = new PublicAddressPool();
  private computeEtag = 0;

  constructor(
    readonly subscriptionId: string,
    readonly location: string,
  ) {}

  resourceGroup(name: string): StoredResourceGroup {
    const group = this.resourceGroups.get(name.toLowerCase());
    if (!group) throw resourceGroupNotFound(name);
    return group;
  }

  get(id: string): StoredResource | undefined {
    return this.resources.get(idKey(id));
  }

  ofKind(kind: ResourceKind, resourceGroup?: string): StoredResource[] {
    return [...this.resources.values()].filter(
      (resource) => resource.kind === kind && (resourceGroup === undefined || resource.resourceGroup.toLowerCase() === resourceGroup.toLowerCase()),
    );
  }

  newEtag(kind: ResourceKind): string {
    if (RESOURCE_TYPE[kind].startsWith('Microsoft.Compute/')) {
      this.computeEtag += 1;
      return `"${this.computeEtag}"`;
    }
    return `W/"${randomUUID()}"`;
  }

  /** A nested object inside a top-level resource (`.../virtualNetworks/v/subnets/s`), or undefined. */
  nested(id: string): { parent: StoredResource; item: Json } | undefined {
    const parentId = topLevelId(id);
    const parent = parentId === undefined ? undefined : this.get(parentId);
    if (!parent) return undefined;
    for (const collection of Object.values(asObject(parent.body['properties']))) {
      for (const item of asArray(collection)) if (sameId(item['id'], id)) return { parent, item };
    }
    return undefined;
  }

  /** The subnet object for a subnet id, or undefined. */
  subnet(id: string): Json | undefined {
    const found = this.nested(id);
    return found && found.parent.kind === 'virtualNetworks' && id.toLowerCase().includes('/subnets/') ? found.item : undefined;
  }

  /** Every NIC IP configuration (standalone and scale-set NICs) and load balancer frontend. */
  ipConfigurationUses(): IpConfigurationUse[] {
    const uses: IpConfigurationUse[] = [];
    for (const resource of this.resources.values()) {
      const properties = asObject(resource.body['properties']);
      const collection =
        resource.kind === 'networkInterfaces' || resource.kind === 'scaleSetNetworkInterfaces'
          ? properties['ipConfigurations']
          : resource.kind === 'loadBalancers'
            ? properties['frontendIPConfigurations']
            : undefined;
      for (const item of asArray(collection)) uses.push({ id: String(item['id']), owner: resource, properties: asObject(item['properties']) });
    }
    return uses;
  }

  /** Private addresses in use in a subnet, except those of `exceptOwner`. */
  privateAddressesInSubnet(subnetId: string, exceptOwnerId?: string): Map<string, string> {
    const used = new Map<string, string>();
    for (const use of this.ipConfigurationUses()) {
      if (exceptOwnerId !== undefined && sameId(use.owner.id, exceptOwnerId)) continue;
      if (!sameId(referenceId(use.properties['subnet']), subnetId)) continue;
      const address = use.properties['privateIPAddress'];
      if (typeof address === 'string') used.set(address, use.id);
    }
    return used;
  }

  publicAddressesInUse(): Set<string> {
    const used = new Set<string>();
    for (const resource of this.ofKind('publicIPAddresses')) {
      const address = asObject(resource.body['properties'])['ipAddress'];
      if (typeof address === 'string') used.add(address);
    }
    return used;
  }

  deleteResource(id: string): void {
    this.resources.delete(idKey(id));
  }
}

export function conflict(code: string, message: string): ArmError {
  return new ArmError(400, code, message);
}
