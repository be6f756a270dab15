/** The resource kinds the simulator serves, by provider namespace and type (case-insensitive). */
import type { ResourceKind } from './arm-state.js';
import { availabilitySets, scaleSetVirtualMachines, virtualMachineScaleSets, virtualMachines } from './compute-resources.js';
import { loadBalancers, networkInterfaces, networkSecurityGroups, publicIPAddresses, routeTables, scaleSetNetworkInterfaces, virtualNetworks } from './network-resources.js';
import type { ResourceKindHandler } from './resource-kind.js';

export const HANDLERS: Readonly<Record<ResourceKind, ResourceKindHandler>> = {
  virtualMachines,
  availabilitySets,
  virtualMachineScaleSets,
  scaleSetVirtualMachines,
  scaleSetNetworkInterfaces,
  virtualNetworks,
  networkInterfaces,
  publicIPAddresses,
  loadBalancers,
  networkSecurityGroups,
  routeTables,
};

/** Top-level types a client may PUT, keyed `namespace/type` in lower case. */
export const TOP_LEVEL_KINDS: ReadonlyMap<string, { namespace: 'Microsoft.Compute' | 'Microsoft.Network'; type: string; kind: ResourceKind }> = new Map(
  (
    [
      ['Microsoft.Compute', 'virtualMachines'],
      ['Microsoft.Compute', 'availabilitySets'],
      ['Microsoft.Compute', 'virtualMachineScaleSets'],
      ['Microsoft.Network', 'virtualNetworks'],
      ['Microsoft.Network', 'networkInterfaces'],
      ['Microsoft.Network', 'publicIPAddresses'],
      ['Microsoft.Network', 'loadBalancers'],
      ['Microsoft.Network', 'networkSecurityGroups'],
      ['Microsoft.Network', 'routeTables'],
    ] as const
  ).map(([namespace, type]) => [`${namespace}/${type}`.toLowerCase(), { namespace, type, kind: type as ResourceKind }]),
);

/** Nested collections a client may PUT/DELETE one item of (others are read-only views). */
export const WRITABLE_NESTED: ReadonlyMap<ResourceKind, readonly string[]> = new Map<ResourceKind, readonly string[]>([
  ['virtualNetworks', ['subnets']],
  ['loadBalancers', ['backendAddressPools']],
  ['networkSecurityGroups', ['securityRules']],
  ['routeTables', ['routes']],
]);

export const READABLE_NESTED: ReadonlyMap<ResourceKind, readonly string[]> = new Map<ResourceKind, readonly string[]>([
  ['virtualNetworks', ['subnets']],
  ['networkInterfaces', ['ipConfigurations']],
  ['loadBalancers', ['frontendIPConfigurations', 'backendAddressPools', 'loadBalancingRules', 'probes', 'outboundRules', 'inboundNatRules']],
  ['networkSecurityGroups', ['securityRules', 'defaultSecurityRules']],
  ['routeTables', ['routes']],
]);
