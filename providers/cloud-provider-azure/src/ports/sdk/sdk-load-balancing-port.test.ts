import type { BackendAddressPool } from '@azure/arm-network';
import { describe, expect, it } from 'vitest';
import type { AzureBackendAddressPool } from '../network-port.js';
import { backendAddressPoolBody, backendAddressPoolOf } from './sdk-load-balancing-port.js';

const VNET = '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet';
const NIC_CONFIGURATION = '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/networkInterfaces/nic/ipConfigurations/ipconfig1';

describe('backend pools as ARM returns them (IP-based or NIC-based)', () => {
  it.each<[string, BackendAddressPool, AzureBackendAddressPool]>([
    ['a NIC pool: its members are IP configurations, and ARM also lists them as addresses without an IP', { name: 'kubernetes', backendIPConfigurations: [{ id: NIC_CONFIGURATION }], loadBalancerBackendAddresses: [{ name: 'm', networkInterfaceIPConfiguration: { id: NIC_CONFIGURATION } }] }, { name: 'kubernetes', backendIpConfigurationIds: [NIC_CONFIGURATION] }],
    ['an IP pool made by upstream (nodeIP): addresses named after the nodes, the virtual network on the pool', { name: 'kubernetes', virtualNetwork: { id: VNET }, loadBalancerBackendAddresses: [{ name: 'node-a', ipAddress: '10.0.0.4' }] }, { name: 'kubernetes', backendIpConfigurationIds: [], virtualNetworkId: VNET, backendAddresses: [{ name: 'node-a', ipAddress: '10.0.0.4' }] }],
    ['an older upstream pool: the virtual network on each address', { name: 'kubernetes', loadBalancerBackendAddresses: [{ name: 'node-a', ipAddress: '10.0.0.4', virtualNetwork: { id: VNET } }] }, { name: 'kubernetes', backendIpConfigurationIds: [], virtualNetworkId: VNET, backendAddresses: [{ name: 'node-a', ipAddress: '10.0.0.4' }] }],
    ['an IP pool with no address left keeps its virtual network', { name: 'kubernetes', virtualNetwork: { id: VNET }, loadBalancerBackendAddresses: [] }, { name: 'kubernetes', backendIpConfigurationIds: [], virtualNetworkId: VNET, backendAddresses: [] }],
  ])('%s', (_name, read, expected) => {
    expect(backendAddressPoolOf(read)).toEqual(expected);
  });

  it('writes an IP pool with its virtual network and addresses, a NIC pool with its name only', () => {
    expect(backendAddressPoolBody({ name: 'kubernetes', virtualNetworkId: VNET, backendAddresses: [{ name: 'node-a', ipAddress: '10.0.0.4' }], backendIpConfigurationIds: [] })).toEqual({
      name: 'kubernetes',
      virtualNetwork: { id: VNET },
      loadBalancerBackendAddresses: [{ name: 'node-a', ipAddress: '10.0.0.4' }],
    });
    expect(backendAddressPoolBody({ name: 'kubernetes', backendIpConfigurationIds: [NIC_CONFIGURATION] })).toEqual({ name: 'kubernetes' });
  });
});
