/**
 * The Azure RBAC actions behind every Compute and Network port method. Typed by the ports, so a
 * new method does not compile until its actions are listed; the reference's role list is
 * generated from this table. Writes that join a NIC or scale set to a backend pool also need the
 * pool's `join/action`, and a frontend on a public IP or subnet their `join/action`.
 */
import type { ComputePort } from '../ports/compute-port.js';
import type { NetworkPort } from '../ports/network-port.js';

const POOL_JOIN = 'Microsoft.Network/loadBalancers/backendAddressPools/join/action';
/** An IP-based backend pool (`nodeIP`) names the virtual network of its addresses. */
const VNET_JOIN_LOAD_BALANCER = 'Microsoft.Network/virtualNetworks/joinLoadBalancer/action';

export const COMPUTE_ROLE_ACTIONS: Readonly<Record<keyof ComputePort, readonly string[]>> = {
  listVirtualMachines: ['Microsoft.Compute/virtualMachines/read'],
  listScaleSets: ['Microsoft.Compute/virtualMachineScaleSets/read'],
  listScaleSetVirtualMachines: ['Microsoft.Compute/virtualMachineScaleSets/virtualMachines/read'],
  getScaleSetNetwork: ['Microsoft.Compute/virtualMachineScaleSets/read'],
  setScaleSetBackendPools: ['Microsoft.Compute/virtualMachineScaleSets/read', 'Microsoft.Compute/virtualMachineScaleSets/write', POOL_JOIN, 'Microsoft.Network/virtualNetworks/subnets/join/action'],
  getScaleSetVirtualMachineNetwork: ['Microsoft.Compute/virtualMachineScaleSets/virtualMachines/read'],
  setScaleSetVirtualMachineBackendPools: [
    'Microsoft.Compute/virtualMachineScaleSets/virtualMachines/read',
    'Microsoft.Compute/virtualMachineScaleSets/virtualMachines/write',
    POOL_JOIN,
    'Microsoft.Network/virtualNetworks/subnets/join/action',
  ],
};

export const NETWORK_ROLE_ACTIONS: Readonly<Record<keyof NetworkPort, readonly string[]>> = {
  getNetworkInterface: ['Microsoft.Network/networkInterfaces/read', 'Microsoft.Compute/virtualMachineScaleSets/virtualMachines/networkInterfaces/read'],
  listNetworkInterfaces: ['Microsoft.Network/networkInterfaces/read'],
  listScaleSetNetworkInterfaces: ['Microsoft.Compute/virtualMachineScaleSets/networkInterfaces/read'],
  listPublicIpAddresses: ['Microsoft.Network/publicIPAddresses/read'],
  getPublicIpAddress: ['Microsoft.Network/publicIPAddresses/read', 'Microsoft.Compute/virtualMachineScaleSets/publicIPAddresses/read'],
  getRouteTable: ['Microsoft.Network/routeTables/read'],
  createRouteTable: ['Microsoft.Network/routeTables/write'],
  putRoute: ['Microsoft.Network/routeTables/routes/write'],
  deleteRoute: ['Microsoft.Network/routeTables/routes/delete'],
  setNetworkInterfaceBackendPools: ['Microsoft.Network/networkInterfaces/read', 'Microsoft.Network/networkInterfaces/write', POOL_JOIN, 'Microsoft.Network/virtualNetworks/subnets/join/action'],
  getLoadBalancer: ['Microsoft.Network/loadBalancers/read'],
  putLoadBalancer: ['Microsoft.Network/loadBalancers/write', 'Microsoft.Network/publicIPAddresses/join/action', 'Microsoft.Network/virtualNetworks/subnets/join/action', VNET_JOIN_LOAD_BALANCER],
  putBackendAddressPool: ['Microsoft.Network/loadBalancers/backendAddressPools/write', VNET_JOIN_LOAD_BALANCER],
  deleteLoadBalancer: ['Microsoft.Network/loadBalancers/delete'],
  getPublicIp: ['Microsoft.Network/publicIPAddresses/read'],
  listPublicIps: ['Microsoft.Network/publicIPAddresses/read'],
  putPublicIp: ['Microsoft.Network/publicIPAddresses/write'],
  deletePublicIp: ['Microsoft.Network/publicIPAddresses/delete'],
  getSecurityGroup: ['Microsoft.Network/networkSecurityGroups/read'],
  putSecurityGroup: ['Microsoft.Network/networkSecurityGroups/read', 'Microsoft.Network/networkSecurityGroups/write'],
};

/** Every action once, sorted. */
export function azureRoleActions(): string[] {
  return [...new Set([...Object.values(COMPUTE_ROLE_ACTIONS).flat(), ...Object.values(NETWORK_ROLE_ACTIONS).flat()])].sort();
}
