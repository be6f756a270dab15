/** References between resources are checked on write, back-references derived, in-use resources kept. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAzureSimulator, type AzureSimulator } from './index.js';
import { ArmFixture } from './test-support/arm-fixture.js';

let simulator: AzureSimulator;
let arm: ArmFixture;
let subnet: string;

beforeAll(async () => {
  simulator = await startAzureSimulator({ pollsBeforeDone: 0 });
  arm = await ArmFixture.create(simulator);
  await arm.resourceGroup('rg');
  subnet = await arm.network('rg');
});
afterAll(async () => {
  await simulator.close();
});

const net = (rest: string) => arm.path('rg', 'Microsoft.Network', rest);
const netId = (rest: string) => arm.id('rg', 'Microsoft.Network', rest);
const location = () => simulator.location;
const nic = (ipProperties: Record<string, unknown>) => ({ location: location(), properties: { ipConfigurations: [{ name: 'ipconfig1', properties: { subnet: { id: subnet }, ...ipProperties } }] } });

describe('network interfaces', () => {
  it('need an existing subnet and get the next free private address', async () => {
    const missing = await arm.request('PUT', net('networkInterfaces/n0'), { location: location(), properties: { ipConfigurations: [{ name: 'ip', properties: { subnet: { id: `${subnet}x` } } }] } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('InvalidResourceReference');
    const first = await arm.put(net('networkInterfaces/n1'), nic({}));
    const second = await arm.put(net('networkInterfaces/n2'), nic({}));
    expect(first.body.properties.ipConfigurations[0].properties).toMatchObject({ privateIPAddress: '10.240.0.4', privateIPAllocationMethod: 'Dynamic', primary: true });
    expect(second.body.properties.ipConfigurations[0].properties.privateIPAddress).toBe('10.240.0.5');
    const again = await arm.put(net('networkInterfaces/n1'), nic({}));
    expect(again.body.properties.ipConfigurations[0].properties.privateIPAddress).toBe('10.240.0.4');
  });

  it('refuse a static address outside the subnet or held by another NIC', async () => {
    expect((await arm.request('PUT', net('networkInterfaces/s1'), nic({ privateIPAllocationMethod: 'Static', privateIPAddress: '192.168.0.4' }))).body.error.code).toBe('PrivateIPAddressNotInSubnet');
    expect((await arm.request('PUT', net('networkInterfaces/s1'), nic({ privateIPAllocationMethod: 'Static', privateIPAddress: '10.240.0.4' }))).body.error.code).toBe('PrivateIPAddressInUse');
    expect((await arm.put(net('networkInterfaces/s1'), nic({ privateIPAllocationMethod: 'Static', privateIPAddress: '10.240.3.3' }))).body.properties.ipConfigurations[0].properties.privateIPAddress).toBe('10.240.3.3');
  });

  it('show up in the subnet and cannot be deleted while a VM uses them (NicInUse)', async () => {
    const subnetBody = await arm.request('GET', net('virtualNetworks/vnet/subnets/nodes'));
    expect(subnetBody.body.properties.ipConfigurations.map((configuration: { id: string }) => configuration.id)).toContain(`${netId('networkInterfaces/n1')}/ipConfigurations/ipconfig1`);
    await arm.put(arm.path('rg', 'Microsoft.Compute', 'virtualMachines/vm1'), { location: location(), properties: { hardwareProfile: { vmSize: 'Standard_B2s' }, networkProfile: { networkInterfaces: [{ id: netId('networkInterfaces/n2') }] } } });
    const inUse = await arm.request('DELETE', net('networkInterfaces/n2'));
    expect(inUse.status).toBe(400);
    expect(inUse.body.error.code).toBe('NicInUse');
    expect((await arm.request('GET', net('networkInterfaces/n2'))).body.properties.virtualMachine.id).toBe(arm.id('rg', 'Microsoft.Compute', 'virtualMachines/vm1'));
    const secondVm = await arm.request('PUT', arm.path('rg', 'Microsoft.Compute', 'virtualMachines/vm2'), { location: location(), properties: { hardwareProfile: { vmSize: 'Standard_B2s' }, networkProfile: { networkInterfaces: [{ id: netId('networkInterfaces/n2') }] } } });
    expect(secondVm.body.error.code).toBe('NicInUse');
    const noNic = await arm.request('PUT', arm.path('rg', 'Microsoft.Compute', 'virtualMachines/vm3'), { location: location(), properties: { hardwareProfile: { vmSize: 'Standard_B2s' }, networkProfile: { networkInterfaces: [{ id: netId('networkInterfaces/none') }] } } });
    expect(noNic.status).toBe(404);
    await arm.delete(arm.path('rg', 'Microsoft.Compute', 'virtualMachines/vm1'));
    expect((await arm.delete(net('networkInterfaces/n2'))).status).toBe(202);
  });
});

describe('subnets', () => {
  it('cannot be deleted (nor dropped from their VNet) while in use: InUseSubnetCannotBeDeleted', async () => {
    const deleted = await arm.request('DELETE', net('virtualNetworks/vnet/subnets/nodes'));
    expect(deleted.status).toBe(400);
    expect(deleted.body.error.code).toBe('InUseSubnetCannotBeDeleted');
    const vnet = (await arm.request('GET', net('virtualNetworks/vnet'))).body;
    const dropped = await arm.request('PUT', net('virtualNetworks/vnet'), { ...vnet, properties: { ...vnet.properties, subnets: [] } });
    expect(dropped.body.error.code).toBe('InUseSubnetCannotBeDeleted');
    expect((await arm.request('DELETE', net('virtualNetworks/vnet'))).body.error.code).toBe('InUseSubnetCannotBeDeleted');
  });

  it('need existing security groups and route tables, which then cannot be deleted', async () => {
    const bad = await arm.request('PUT', net('virtualNetworks/vnet/subnets/extra'), { properties: { addressPrefix: '10.241.0.0/24', routeTable: { id: netId('routeTables/none') } } });
    expect(bad.body.error.code).toBe('InvalidResourceReference');
    await arm.put(net('routeTables/rt'), { location: location(), properties: {} });
    await arm.put(net('networkSecurityGroups/nsg'), { location: location(), properties: {} });
    const good = await arm.put(net('virtualNetworks/vnet/subnets/extra'), { properties: { addressPrefix: '10.241.0.0/24', routeTable: { id: netId('routeTables/rt') }, networkSecurityGroup: { id: netId('networkSecurityGroups/nsg') } } });
    expect(good.status).toBe(200);
    expect((await arm.request('DELETE', net('routeTables/rt'))).body.error.code).toBe('InUseRouteTableCannotBeDeleted');
    expect((await arm.request('DELETE', net('networkSecurityGroups/nsg'))).body.error.code).toBe('InUseNetworkSecurityGroupCannotBeDeleted');
    expect((await arm.request('GET', net('routeTables/rt'))).body.properties.subnets).toEqual([{ id: `${netId('virtualNetworks/vnet')}/subnets/extra` }]);
  });
});

describe('public IPs and load balancers', () => {
  const lbBody = (publicIpName: string, extra: Record<string, unknown> = {}) => ({
    location: location(),
    properties: {
      frontendIPConfigurations: [{ name: 'fe', properties: { publicIPAddress: { id: netId(`publicIPAddresses/${publicIpName}`) } } }],
      backendAddressPools: [{ name: 'pool' }],
      ...extra,
    },
  });

  it('refuses a frontend on a missing public IP or one already in use (PublicIPAddressInUse)', async () => {
    expect((await arm.request('PUT', net('loadBalancers/lb'), lbBody('pip'))).body.error.code).toBe('InvalidResourceReference');
    const pip = await arm.put(net('publicIPAddresses/pip'), { location: location(), sku: { name: 'Standard' }, properties: { publicIPAllocationMethod: 'Static' } });
    expect(pip.body.properties.ipAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect((await arm.put(net('loadBalancers/lb'), lbBody('pip'))).status).toBe(200);
    expect((await arm.request('PUT', net('loadBalancers/other'), lbBody('pip'))).body.error.code).toBe('PublicIPAddressInUse');
    expect((await arm.request('GET', net('publicIPAddresses/pip'))).body.properties.ipConfiguration.id).toBe(`${netId('loadBalancers/lb')}/frontendIPConfigurations/fe`);
  });

  it('refuses to delete a public IP in use (PublicIPAddressCannotBeDeleted)', async () => {
    const response = await arm.request('DELETE', net('publicIPAddresses/pip'));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('PublicIPAddressCannotBeDeleted');
  });

  it('checks rule references inside the load balancer', async () => {
    const lb = netId('loadBalancers/lb');
    const rule = { name: 'r', properties: { frontendIPConfiguration: { id: `${lb}/frontendIPConfigurations/fe` }, backendAddressPool: { id: `${lb}/backendAddressPools/missing` }, protocol: 'Tcp', frontendPort: 80, backendPort: 80 } };
    expect((await arm.request('PUT', net('loadBalancers/lb'), lbBody('pip', { loadBalancingRules: [rule] }))).body.error.code).toBe('InvalidResourceReference');
    const probe = { name: 'p', properties: { protocol: 'Http', port: 10256 } };
    expect((await arm.request('PUT', net('loadBalancers/lb'), lbBody('pip', { probes: [probe] }))).body.error.code).toBe('InvalidRequestPath');
  });

  it('an IP-based pool (loadBalancerBackendAddresses) names an existing virtual network, on the pool or on its addresses', async () => {
    const pool = (virtualNetwork: string | undefined, onAddress = false) => ({
      name: 'pool',
      properties: {
        ...(virtualNetwork === undefined || onAddress ? {} : { virtualNetwork: { id: netId(`virtualNetworks/${virtualNetwork}`) } }),
        loadBalancerBackendAddresses: [{ name: 'node-a', properties: { ipAddress: '10.0.0.4', ...(virtualNetwork !== undefined && onAddress ? { virtualNetwork: { id: netId(`virtualNetworks/${virtualNetwork}`) } } : {}) } }],
      },
    });
    expect((await arm.request('PUT', net('loadBalancers/lb/backendAddressPools/pool'), pool('missing'))).body.error.code).toBe('InvalidResourceReference');
    expect((await arm.request('PUT', net('loadBalancers/lb/backendAddressPools/pool'), pool(undefined))).status).toBe(400);
    expect((await arm.put(net('loadBalancers/lb/backendAddressPools/pool'), pool('vnet', true))).status).toBeLessThan(300);
    const written = await arm.put(net('loadBalancers/lb/backendAddressPools/pool'), pool('vnet'));
    expect(written.status).toBeLessThan(300);
    const got = await arm.request('GET', net('loadBalancers/lb/backendAddressPools/pool'));
    expect(got.body.properties.loadBalancerBackendAddresses.map((address: { properties: { ipAddress: string } }) => address.properties.ipAddress)).toEqual(['10.0.0.4']);
    expect(got.body.properties.virtualNetwork.id).toBe(netId('virtualNetworks/vnet'));
    await arm.put(net('loadBalancers/lb/backendAddressPools/pool'), { name: 'pool', properties: {} });
  });

  it('lists NIC IP configurations that point at a pool in its backendIPConfigurations; the pool cannot go while they do', async () => {
    const pool = `${netId('loadBalancers/lb')}/backendAddressPools/pool`;
    await arm.put(net('networkInterfaces/member'), nic({ loadBalancerBackendAddressPools: [{ id: pool }] }));
    const got = await arm.request('GET', net('loadBalancers/lb/backendAddressPools/pool'));
    expect(got.body.properties.backendIPConfigurations).toEqual([{ id: `${netId('networkInterfaces/member')}/ipConfigurations/ipconfig1` }]);
    expect((await arm.request('PUT', net('networkInterfaces/stray'), nic({ loadBalancerBackendAddressPools: [{ id: `${pool}x` }] }))).body.error.code).toBe('InvalidResourceReference');
    expect((await arm.request('DELETE', net('loadBalancers/lb/backendAddressPools/pool'))).status).toBe(400);
    expect((await arm.request('DELETE', net('loadBalancers/lb'))).status).toBe(400);
    await arm.put(net('networkInterfaces/member'), nic({}));
    expect((await arm.delete(net('loadBalancers/lb'))).status).toBe(202);
    expect((await arm.delete(net('publicIPAddresses/pip'))).status).toBe(202);
  });

  it('gives an internal frontend an address from its subnet', async () => {
    const response = await arm.put(net('loadBalancers/internal'), { location: location(), properties: { frontendIPConfigurations: [{ name: 'fe', properties: { subnet: { id: subnet } } }] } });
    expect(response.body.properties.frontendIPConfigurations[0].properties).toMatchObject({ privateIPAllocationMethod: 'Dynamic', privateIPAddress: expect.stringMatching(/^10\.240\.0\.\d+$/) });
  });
});

describe('scale sets', () => {
  it('create uniform instances with NICs in the model subnet, refuse a model on a missing subnet, and shrink with capacity', async () => {
    const model = (subnetId: string, capacity: number) => ({
      location: location(),
      sku: { name: 'Standard_D2s_v3', tier: 'Standard', capacity },
      properties: {
        orchestrationMode: 'Uniform',
        virtualMachineProfile: { osProfile: { computerNamePrefix: 'pool' }, networkProfile: { networkInterfaceConfigurations: [{ name: 'nic', properties: { primary: true, ipConfigurations: [{ name: 'ip', properties: { subnet: { id: subnetId } } }] } }] } },
      },
    });
    expect((await arm.request('PUT', arm.path('rg', 'Microsoft.Compute', 'virtualMachineScaleSets/ss'), model(`${subnet}x`, 1))).body.error.code).toBe('InvalidResourceReference');
    await arm.put(arm.path('rg', 'Microsoft.Compute', 'virtualMachineScaleSets/ss'), model(subnet, 3));
    const listed = await arm.request('GET', arm.path('rg', 'Microsoft.Compute', 'virtualMachineScaleSets/ss/virtualMachines'));
    expect(listed.body.value.map((instance: { name: string }) => instance.name)).toEqual(['ss_0', 'ss_1', 'ss_2']);
    await arm.put(arm.path('rg', 'Microsoft.Compute', 'virtualMachineScaleSets/ss'), model(subnet, 1));
    const shrunk = await arm.request('GET', arm.path('rg', 'Microsoft.Compute', 'virtualMachineScaleSets/ss/virtualMachines'));
    expect(shrunk.body.value.map((instance: { properties: { osProfile: { computerName: string } } }) => instance.properties.osProfile.computerName)).toEqual(['pool000000']);
    const nicPath = `/subscriptions/${simulator.subscriptionId}/resourceGroups/rg/providers/Microsoft.Compute/virtualMachineScaleSets/ss/virtualMachines/2/networkInterfaces/nic?api-version=2018-10-01`;
    expect((await arm.request('GET', nicPath)).status).toBe(404);
  });

  it('refuse to drop a load balancer pool a scale-set model uses (LoadBalancerInUseByVirtualMachineScaleSet)', async () => {
    await arm.put(net('loadBalancers/sslb'), { location: location(), properties: { frontendIPConfigurations: [{ name: 'fe', properties: { subnet: { id: subnet } } }], backendAddressPools: [{ name: 'pool' }] } });
    const pool = `${netId('loadBalancers/sslb')}/backendAddressPools/pool`;
    const scaleSet = (await arm.request('GET', arm.path('rg', 'Microsoft.Compute', 'virtualMachineScaleSets/ss'))).body;
    scaleSet.properties.virtualMachineProfile.networkProfile.networkInterfaceConfigurations[0].properties.ipConfigurations[0].properties.loadBalancerBackendAddressPools = [{ id: pool }];
    await arm.put(arm.path('rg', 'Microsoft.Compute', 'virtualMachineScaleSets/ss'), scaleSet);
    const instance = (await arm.request('GET', arm.path('rg', 'Microsoft.Compute', 'virtualMachineScaleSets/ss/virtualMachines/0'))).body;
    expect(instance.properties.latestModelApplied).toBe(false);
    expect((await arm.request('DELETE', net('loadBalancers/sslb'))).body.error.code).toBe('LoadBalancerInUseByVirtualMachineScaleSet');
    const upgraded = await arm.request('POST', arm.path('rg', 'Microsoft.Compute', 'virtualMachineScaleSets/ss/manualupgrade'), { instanceIds: ['0'] });
    expect(upgraded.status).toBe(202);
    expect((await arm.request('GET', arm.path('rg', 'Microsoft.Compute', 'virtualMachineScaleSets/ss/virtualMachines/0'))).body.properties.latestModelApplied).toBe(true);
    expect((await arm.request('GET', net('loadBalancers/sslb/backendAddressPools/pool'))).body.properties.backendIPConfigurations).toHaveLength(1);
  });
});
