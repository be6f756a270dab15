/** The pinned Azure SDKs (identity, arm-network, arm-compute) run a CCM-like session against the simulator. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAzureSimulator, type AzureSimulator } from './index.js';
import { azureClients } from './test-support/azure-clients.js';
import { SESSION, runRealisticSession } from './test-support/realistic-session.js';

let simulator: AzureSimulator;

beforeAll(async () => {
  simulator = await startAzureSimulator({ recordExchanges: true });
  await runRealisticSession(simulator);
}, 120_000);
afterAll(async () => {
  await simulator.close();
});

describe('a CCM-like session through the Azure SDKs', () => {
  it('fills the backend pool with the VM NICs and the scale-set instances, and derives the back-references', async () => {
    const { network } = azureClients(simulator);
    const pool = await network.loadBalancerBackendAddressPools.get(SESSION.resourceGroup, SESSION.loadBalancer, 'kubernetes');
    const members = (pool.backendIPConfigurations ?? []).map((configuration) => configuration.id?.toLowerCase());
    expect(members).toHaveLength(4);
    expect(members.filter((id) => id?.includes('/networkinterfaces/agent-'))).toHaveLength(2);
    expect(members.filter((id) => id?.includes('/virtualmachinescalesets/vmss-pool/virtualmachines/'))).toHaveLength(2);
    const publicIp = await network.publicIPAddresses.get(SESSION.resourceGroup, SESSION.publicIp);
    expect(publicIp.ipConfiguration?.id).toMatch(/\/loadBalancers\/kubernetes\/frontendIPConfigurations\/a1234567890abcdef$/);
    expect(publicIp.ipAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const subnet = await network.subnets.get(SESSION.resourceGroup, SESSION.vnet, SESSION.subnet);
    // Two agent NICs, two scale-set NICs, the flexible VM's NIC and the internal frontend.
    expect(subnet.ipConfigurations).toHaveLength(6);
    expect(subnet.provisioningState).toBe('Succeeded');
  });

  it('serves VMs with instance views, power states and availability-set fault domains', async () => {
    const { compute } = azureClients(simulator);
    const running = await compute.virtualMachines.get(SESSION.resourceGroup, 'agent-0', { expand: 'instanceView' });
    expect(running.instanceView?.statuses?.map((status) => status.code)).toEqual(['ProvisioningState/succeeded', 'PowerState/running']);
    const stopped = await compute.virtualMachines.instanceView(SESSION.resourceGroup, 'agent-1');
    expect(stopped.statuses?.[1]?.code).toBe('PowerState/stopped');
    expect(stopped.platformFaultDomain).toBe(1);
    const set = await compute.availabilitySets.get(SESSION.resourceGroup, SESSION.availabilitySet);
    expect(set.virtualMachines?.map((machine) => machine.id)).toEqual([
      `/subscriptions/${simulator.subscriptionId}/resourceGroups/RG-CLUSTER/providers/Microsoft.Compute/virtualMachines/AGENT-0`,
      `/subscriptions/${simulator.subscriptionId}/resourceGroups/RG-CLUSTER/providers/Microsoft.Compute/virtualMachines/AGENT-1`,
    ]);
  });

  it('serves uniform scale-set instances with computer names, zones and NICs, and flexible members by reference', async () => {
    const { compute, network } = azureClients(simulator);
    const instances = [];
    for await (const instance of compute.virtualMachineScaleSetVMs.list(SESSION.resourceGroup, SESSION.scaleSet)) instances.push(instance);
    expect(instances.map((instance) => [instance.instanceId, instance.name, instance.osProfile?.computerName, instance.zones])).toEqual([
      ['0', 'vmss-pool_0', 'aks-pool-vmss000000', ['1']],
      ['1', 'vmss-pool_1', 'aks-pool-vmss000001', ['2']],
    ]);
    expect(instances.every((instance) => instance.latestModelApplied === true)).toBe(true);
    const nic = await network.networkInterfaces.getVirtualMachineScaleSetNetworkInterface(SESSION.resourceGroup, SESSION.scaleSet, '1', 'pool-nic');
    expect(nic.ipConfigurations?.[0]?.privateIPAddress).toMatch(/^10\.240\.0\.\d+$/);
    expect(nic.virtualMachine?.id).toBe(instances[1]?.id);
    const members = [];
    for await (const machine of compute.virtualMachines.list(SESSION.resourceGroup, { filter: `'virtualMachineScaleSet/id' eq '${(await compute.virtualMachineScaleSets.get(SESSION.resourceGroup, SESSION.flexibleScaleSet)).id}'` })) members.push(machine.name);
    expect(members).toEqual([SESSION.flexibleMachine]);
  });

  it('keeps routes and security rules written one by one and as a whole', async () => {
    const { network } = azureClients(simulator);
    const table = await network.routeTables.get(SESSION.resourceGroup, SESSION.routeTable);
    expect(table.routes?.map((route) => [route.name, route.addressPrefix, route.nextHopIpAddress])).toEqual([
      ['agent-0', '10.244.0.0/24', '10.240.0.4'],
      ['agent-1', '10.244.1.0/24', '10.240.0.5'],
    ]);
    expect(table.subnets).toHaveLength(1);
    const nsg = await network.networkSecurityGroups.get(SESSION.resourceGroup, SESSION.nsg);
    expect(nsg.securityRules?.map((rule) => rule.name)).toEqual(['k8s-azure-lb_allow_IPv4_0123456789abcdef']);
    expect(nsg.defaultSecurityRules).toHaveLength(6);
  });

  it('applies PATCH (update) to scale sets and VMs as a merge, keeping the rest of the model', async () => {
    const { compute } = azureClients(simulator);
    const updated = await compute.virtualMachineScaleSets.update(SESSION.resourceGroup, SESSION.scaleSet, { tags: { 'k8s-azure-cluster-name': 'kubernetes' } }, { updateIntervalInMs: 5 });
    expect(updated.tags).toEqual({ 'k8s-azure-cluster-name': 'kubernetes' });
    expect(updated.virtualMachineProfile?.networkProfile?.networkInterfaceConfigurations?.[0]?.ipConfigurations?.[0]?.loadBalancerBackendAddressPools).toHaveLength(1);
    const machine = await compute.virtualMachines.update(SESSION.resourceGroup, 'agent-0', { hardwareProfile: { vmSize: 'Standard_D4s_v3' } }, { updateIntervalInMs: 5 });
    expect(machine.hardwareProfile?.vmSize).toBe('Standard_D4s_v3');
    expect(machine.networkProfile?.networkInterfaces).toHaveLength(1);
    expect(machine.tags).toEqual({ 'kubernetes.io-role': 'agent' });
  });

  it('pages lists with nextLink when a page size is set, and the SDK iterators follow it', async () => {
    const { compute, network } = azureClients(simulator);
    const count = async <T>(iterator: AsyncIterable<T>) => {
      let total = 0;
      for await (const item of iterator) total += item === undefined ? 0 : 1;
      return total;
    };
    simulator.setPageSize(1);
    try {
      expect(await count(compute.virtualMachines.list(SESSION.resourceGroup))).toBe(3);
      expect(await count(compute.virtualMachineScaleSetVMs.list(SESSION.resourceGroup, SESSION.scaleSet, { expand: 'instanceView' }))).toBe(2);
      expect(await count(network.loadBalancers.list(SESSION.resourceGroup))).toBe(2);
      expect(await count(network.networkInterfaces.listVirtualMachineScaleSetNetworkInterfaces(SESSION.resourceGroup, SESSION.scaleSet))).toBe(2);
      const pages = simulator.exchanges.filter((exchange) => exchange.path.includes('%24skiptoken=') || exchange.path.includes('$skiptoken='));
      expect(pages.length).toBeGreaterThanOrEqual(5);
    } finally {
      simulator.setPageSize(undefined);
    }
  });

  it('deletes through the SDKs (compute and network long-running deletes) and refuses in-use deletes with RestErrors', async () => {
    const { compute, network } = azureClients(simulator);
    await expect(network.publicIPAddresses.beginDeleteAndWait(SESSION.resourceGroup, SESSION.publicIp, { updateIntervalInMs: 5 })).rejects.toMatchObject({ statusCode: 400, code: 'PublicIPAddressCannotBeDeleted' });
    await expect(network.networkInterfaces.beginDeleteAndWait(SESSION.resourceGroup, `${SESSION.flexibleMachine}-nic`, { updateIntervalInMs: 5 })).rejects.toMatchObject({ statusCode: 400, code: 'NicInUse' });
    await compute.virtualMachines.delete(SESSION.resourceGroup, SESSION.flexibleMachine, { updateIntervalInMs: 5 });
    await network.networkInterfaces.beginDeleteAndWait(SESSION.resourceGroup, `${SESSION.flexibleMachine}-nic`, { updateIntervalInMs: 5 });
    await expect(compute.virtualMachines.get(SESSION.resourceGroup, SESSION.flexibleMachine)).rejects.toMatchObject({ statusCode: 404, code: 'ResourceNotFound' });
    await compute.virtualMachineScaleSetVMs.delete(SESSION.resourceGroup, SESSION.scaleSet, '1', { updateIntervalInMs: 5 });
    expect((await compute.virtualMachineScaleSets.get(SESSION.resourceGroup, SESSION.scaleSet)).sku?.capacity).toBe(1);
    const pool = await network.loadBalancerBackendAddressPools.get(SESSION.resourceGroup, SESSION.loadBalancer, 'kubernetes');
    expect(pool.backendIPConfigurations).toHaveLength(3);
    const stale = await network.loadBalancers.get(SESSION.resourceGroup, SESSION.internalLoadBalancer);
    await network.loadBalancers.beginCreateOrUpdateAndWait(SESSION.resourceGroup, SESSION.internalLoadBalancer, { ...stale, tags: { touched: 'yes' } }, { updateIntervalInMs: 5 });
    await expect(network.loadBalancers.beginCreateOrUpdateAndWait(SESSION.resourceGroup, SESSION.internalLoadBalancer, stale, { requestOptions: { customHeaders: { 'If-Match': stale.etag ?? '' } }, updateIntervalInMs: 5 })).rejects.toMatchObject({ statusCode: 412, code: 'PreconditionFailed' });
  });

  it('polled every long-running operation to completion (no resource left Updating)', () => {
    const states = simulator.exchanges
      .filter((exchange) => exchange.method === 'GET' && exchange.status === 200 && typeof exchange.responseBody === 'object' && exchange.responseBody !== null && 'status' in exchange.responseBody)
      .map((exchange) => (exchange.responseBody as { status: string }).status);
    expect(states).toContain('InProgress');
    expect(states).toContain('Succeeded');
  });
});
