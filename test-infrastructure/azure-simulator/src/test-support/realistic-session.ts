/**
 * A realistic session through the pinned JS SDKs, shaped like what a cloud controller manager
 * does against ARM: a cluster resource group with a VNet, NSG, route table, availability-set VMs,
 * a uniform and a flexible scale set, the shared external and internal load balancers with a
 * Service's frontend/rule/probe, NIC and scale-set pool membership, routes, security rules, and
 * the reads the CCM makes (VMs with instance view, scale-set VMs and their NICs, ...).
 */
import type { AzureSimulator } from '../start-azure-simulator.js';
import { accessToken, azureClients, rawRequest } from './azure-clients.js';

export const SESSION = {
  resourceGroup: 'rg-cluster',
  vnet: 'cluster-vnet',
  subnet: 'nodes',
  nsg: 'cluster-nsg',
  routeTable: 'cluster-rt',
  availabilitySet: 'as-agents',
  machines: ['agent-0', 'agent-1'],
  scaleSet: 'vmss-pool',
  flexibleScaleSet: 'vmss-flex',
  flexibleMachine: 'flex-0',
  loadBalancer: 'kubernetes',
  internalLoadBalancer: 'kubernetes-internal',
  publicIp: 'kubernetes-a1234567890abcdef',
  frontend: 'a1234567890abcdef',
} as const;

const poll = { updateIntervalInMs: 5 };

export interface SessionResult {
  /** Resource ids the session wrote, by kind, for the cross-check. */
  ids: Record<string, string[]>;
}

export async function runRealisticSession(simulator: AzureSimulator): Promise<SessionResult> {
  const { network, compute } = azureClients(simulator);
  const s = SESSION;
  const rg = s.resourceGroup;
  const location = simulator.location;
  const sub = `/subscriptions/${simulator.subscriptionId}/resourceGroups/${rg}/providers`;
  const token = await accessToken(simulator);
  const group = await rawRequest(simulator, 'PUT', `/subscriptions/${simulator.subscriptionId}/resourcegroups/${rg}?api-version=2024-03-01`, { token, body: { location, tags: { cluster: 'kubernetes' } } });
  if (group.status !== 201) throw new Error(`resource group PUT answered ${group.status}`);

  const nsg = await network.networkSecurityGroups.beginCreateOrUpdateAndWait(rg, s.nsg, { location, securityRules: [] }, poll);
  const routeTable = await network.routeTables.beginCreateOrUpdateAndWait(rg, s.routeTable, { location, tags: { 'k8s-azure-cluster-name': 'kubernetes' } }, poll);
  const vnet = await network.virtualNetworks.beginCreateOrUpdateAndWait(
    rg,
    s.vnet,
    {
      location,
      addressSpace: { addressPrefixes: ['10.0.0.0/8'] },
      subnets: [{ name: s.subnet, addressPrefix: '10.240.0.0/16', networkSecurityGroup: { id: nsg.id }, routeTable: { id: routeTable.id } }],
    },
    poll,
  );
  const subnetId = `${vnet.id}/subnets/${s.subnet}`;
  await network.subnets.get(rg, s.vnet, s.subnet);

  const publicIp = await network.publicIPAddresses.beginCreateOrUpdateAndWait(
    rg,
    s.publicIp,
    { location, sku: { name: 'Standard', tier: 'Regional' }, publicIPAllocationMethod: 'Static', publicIPAddressVersion: 'IPv4', tags: { 'k8s-azure-service': 'default/web', 'k8s-azure-cluster-name': 'kubernetes' } },
    poll,
  );
  const lbId = `${sub}/Microsoft.Network/loadBalancers/${s.loadBalancer}`;
  const loadBalancer = await network.loadBalancers.beginCreateOrUpdateAndWait(
    rg,
    s.loadBalancer,
    {
      location,
      sku: { name: 'Standard', tier: 'Regional' },
      frontendIPConfigurations: [{ name: s.frontend, publicIPAddress: { id: publicIp.id } }],
      backendAddressPools: [{ name: 'kubernetes' }],
      probes: [{ name: `${s.frontend}-TCP-80`, protocol: 'Tcp', port: 30080, intervalInSeconds: 5, numberOfProbes: 2, probeThreshold: 2 }],
      loadBalancingRules: [
        {
          name: `${s.frontend}-TCP-80`,
          frontendIPConfiguration: { id: `${lbId}/frontendIPConfigurations/${s.frontend}` },
          backendAddressPool: { id: `${lbId}/backendAddressPools/kubernetes` },
          backendAddressPools: [{ id: `${lbId}/backendAddressPools/kubernetes` }],
          probe: { id: `${lbId}/probes/${s.frontend}-TCP-80` },
          protocol: 'Tcp',
          frontendPort: 80,
          backendPort: 80,
          enableFloatingIP: true,
          idleTimeoutInMinutes: 4,
          loadDistribution: 'Default',
          disableOutboundSnat: false,
          enableTcpReset: true,
        },
      ],
      outboundRules: [
        {
          name: 'aksOutboundRule',
          frontendIPConfigurations: [{ id: `${lbId}/frontendIPConfigurations/${s.frontend}` }],
          backendAddressPool: { id: `${lbId}/backendAddressPools/kubernetes` },
          protocol: 'All',
          allocatedOutboundPorts: 0,
          idleTimeoutInMinutes: 30,
          enableTcpReset: true,
        },
      ],
    },
    poll,
  );
  const poolId = `${loadBalancer.id}/backendAddressPools/kubernetes`;
  const internalLoadBalancer = await network.loadBalancers.beginCreateOrUpdateAndWait(
    rg,
    s.internalLoadBalancer,
    {
      location,
      sku: { name: 'Standard' },
      frontendIPConfigurations: [{ name: `${s.frontend}-internal`, subnet: { id: subnetId }, privateIPAllocationMethod: 'Dynamic' }],
      backendAddressPools: [{ name: 'kubernetes' }],
    },
    poll,
  );

  const availabilitySet = await compute.availabilitySets.createOrUpdate(rg, s.availabilitySet, { location, sku: { name: 'Aligned' }, platformFaultDomainCount: 2, platformUpdateDomainCount: 5 });
  const nicIds: string[] = [];
  const machineIds: string[] = [];
  for (const name of s.machines) {
    const nic = await network.networkInterfaces.beginCreateOrUpdateAndWait(
      rg,
      `${name}-nic`,
      { location, ipConfigurations: [{ name: 'ipconfig1', subnet: { id: subnetId }, privateIPAllocationMethod: 'Dynamic', primary: true, loadBalancerBackendAddressPools: [{ id: poolId }] }] },
      poll,
    );
    nicIds.push(nic.id ?? '');
    const machine = await compute.virtualMachines.createOrUpdate(
      rg,
      name,
      {
        location,
        hardwareProfile: { vmSize: 'Standard_D2s_v3' },
        availabilitySet: { id: availabilitySet.id },
        osProfile: { computerName: name, adminUsername: 'azureuser' },
        networkProfile: { networkInterfaces: [{ id: nic.id, primary: true }] },
        tags: { 'kubernetes.io-role': 'agent' },
      },
      poll,
    );
    machineIds.push(machine.id ?? '');
  }

  const scaleSet = await compute.virtualMachineScaleSets.createOrUpdate(
    rg,
    s.scaleSet,
    {
      location,
      sku: { name: 'Standard_D2s_v3', tier: 'Standard', capacity: 2 },
      zones: ['1', '2'],
      orchestrationMode: 'Uniform',
      upgradePolicy: { mode: 'Manual' },
      virtualMachineProfile: {
        osProfile: { computerNamePrefix: 'aks-pool-vmss', adminUsername: 'azureuser' },
        networkProfile: {
          networkInterfaceConfigurations: [
            { name: 'pool-nic', primary: true, ipConfigurations: [{ name: 'ipconfig1', primary: true, subnet: { id: subnetId }, loadBalancerBackendAddressPools: [] }] },
          ],
        },
      },
    },
    poll,
  );
  // Add the instances to the pool as the CCM does: model first, then each instance.
  const model = await compute.virtualMachineScaleSets.get(rg, s.scaleSet);
  const ipConfiguration = model.virtualMachineProfile?.networkProfile?.networkInterfaceConfigurations?.[0]?.ipConfigurations?.[0];
  if (!ipConfiguration) throw new Error('scale set model has no network configuration');
  ipConfiguration.loadBalancerBackendAddressPools = [{ id: poolId }];
  await compute.virtualMachineScaleSets.createOrUpdate(rg, s.scaleSet, model, poll);
  const instanceIds: string[] = [];
  for await (const instance of compute.virtualMachineScaleSetVMs.list(rg, s.scaleSet, { expand: 'instanceView' })) {
    const instanceId = instance.instanceId ?? '';
    instanceIds.push(instance.id ?? '');
    const current = await compute.virtualMachineScaleSetVMs.get(rg, s.scaleSet, instanceId);
    const instanceConfiguration = current.networkProfileConfiguration?.networkInterfaceConfigurations?.[0]?.ipConfigurations?.[0];
    if (instanceConfiguration) instanceConfiguration.loadBalancerBackendAddressPools = [{ id: poolId }];
    await compute.virtualMachineScaleSetVMs.update(rg, s.scaleSet, instanceId, current, poll);
    await compute.virtualMachineScaleSetVMs.getInstanceView(rg, s.scaleSet, instanceId);
    for await (const nic of network.networkInterfaces.listVirtualMachineScaleSetVMNetworkInterfaces(rg, s.scaleSet, instanceId)) {
      await network.networkInterfaces.getVirtualMachineScaleSetNetworkInterface(rg, s.scaleSet, instanceId, nic.name ?? '');
    }
  }
  for await (const nic of network.networkInterfaces.listVirtualMachineScaleSetNetworkInterfaces(rg, s.scaleSet)) void nic;

  const flexible = await compute.virtualMachineScaleSets.createOrUpdate(rg, s.flexibleScaleSet, { location, orchestrationMode: 'Flexible', platformFaultDomainCount: 1 }, poll);
  const flexibleNic = await network.networkInterfaces.beginCreateOrUpdateAndWait(rg, `${s.flexibleMachine}-nic`, { location, ipConfigurations: [{ name: 'ipconfig1', subnet: { id: subnetId } }] }, poll);
  const flexibleMachine = await compute.virtualMachines.createOrUpdate(
    rg,
    s.flexibleMachine,
    {
      location,
      zones: ['1'],
      hardwareProfile: { vmSize: 'Standard_D4s_v3' },
      virtualMachineScaleSet: { id: flexible.id },
      osProfile: { computerName: s.flexibleMachine },
      networkProfile: { networkInterfaces: [{ id: flexibleNic.id }] },
    },
    poll,
  );

  // Routes and NSG rules as the CCM writes them.
  await network.routes.beginCreateOrUpdateAndWait(rg, s.routeTable, s.machines[0], { addressPrefix: '10.244.0.0/24', nextHopType: 'VirtualAppliance', nextHopIpAddress: '10.240.0.4' }, poll);
  const table = await network.routeTables.get(rg, s.routeTable);
  table.routes = [...(table.routes ?? []), { name: s.machines[1], addressPrefix: '10.244.1.0/24', nextHopType: 'VirtualAppliance', nextHopIpAddress: '10.240.0.5' }];
  // arm-network has no ifMatch option for route tables: the header goes in as a custom header.
  await network.routeTables.beginCreateOrUpdateAndWait(rg, s.routeTable, table, { ...poll, requestOptions: { customHeaders: { 'If-Match': table.etag ?? '' } } });
  await network.securityRules.beginCreateOrUpdateAndWait(
    rg,
    s.nsg,
    'k8s-azure-lb_allow_IPv4_0123456789abcdef',
    { protocol: 'Tcp', sourcePortRange: '*', destinationPortRanges: ['80'], sourceAddressPrefix: 'Internet', destinationAddressPrefixes: [publicIp.ipAddress ?? ''], access: 'Allow', priority: 500, direction: 'Inbound' },
    poll,
  );

  // The CCM's reads.
  for (const name of s.machines) {
    await compute.virtualMachines.get(rg, name, { expand: 'instanceView' });
    await compute.virtualMachines.instanceView(rg, name);
  }
  for await (const machine of compute.virtualMachines.list(rg)) void machine;
  for await (const set of compute.virtualMachineScaleSets.list(rg)) void set;
  for await (const set of compute.availabilitySets.list(rg)) void set;
  for await (const balancer of network.loadBalancers.list(rg)) void balancer;
  for await (const address of network.publicIPAddresses.list(rg)) void address;
  await network.loadBalancerBackendAddressPools.get(rg, s.loadBalancer, 'kubernetes');
  await network.networkSecurityGroups.get(rg, s.nsg);
  await network.networkInterfaces.get(rg, `${s.machines[0]}-nic`);
  await network.publicIPAddresses.get(rg, s.publicIp);
  await compute.virtualMachines.powerOff(rg, s.machines[1], poll);
  await compute.virtualMachines.get(rg, s.machines[1], { expand: 'instanceView' });

  return {
    ids: {
      loadBalancers: [loadBalancer.id ?? '', internalLoadBalancer.id ?? ''],
      publicIPAddresses: [publicIp.id ?? ''],
      networkSecurityGroups: [nsg.id ?? ''],
      routeTables: [routeTable.id ?? ''],
      networkInterfaces: [...nicIds, flexibleNic.id ?? ''],
      virtualMachines: [...machineIds, flexibleMachine.id ?? ''],
      scaleSetVirtualMachines: instanceIds,
      virtualMachineScaleSets: [scaleSet.id ?? '', flexible.id ?? ''],
    },
  };
}
