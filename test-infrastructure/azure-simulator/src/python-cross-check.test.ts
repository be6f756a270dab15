/**
 * Second, independent client: Microsoft's Python SDKs (azure-mgmt-network 30.2.0,
 * azure-mgmt-compute 38.2.0) with a static token over https read back every resource kind the JS
 * SDKs wrote (schema/read_back.py), and the test compares that with what the JS SDKs read.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAzureSimulator, type AzureSimulator } from './index.js';
import { azureClients } from './test-support/azure-clients.js';
import { describeWithPythonAzureSdk, runPythonScript } from './test-support/python-azure-sdk.js';
import { SESSION, runRealisticSession } from './test-support/realistic-session.js';

type Row = unknown[];
const byFirst = (rows: Row[]): Row[] => [...rows].sort((left, right) => (String(left[0]) < String(right[0]) ? -1 : String(left[0]) > String(right[0]) ? 1 : 0));
const byName = <T extends { name: unknown }>(items: T[]): T[] => [...items].sort((left, right) => (String(left.name) < String(right.name) ? -1 : 1));
const sorted = (values: string[]): string[] => [...values].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
const collect = async <T>(iterator: AsyncIterable<T>): Promise<T[]> => {
  const items: T[] = [];
  for await (const item of iterator) items.push(item);
  return items;
};
const powerState = (statuses: Array<{ code?: string }> | undefined) => statuses?.find((status) => status.code?.startsWith('PowerState/'))?.code ?? null;

/** The same summary as read_back.py, from the JS SDKs' reads. */
async function summaryThroughJs(simulator: AzureSimulator): Promise<Record<string, unknown>> {
  const { network, compute } = azureClients(simulator);
  const group = SESSION.resourceGroup;
  const balancers = await collect(network.loadBalancers.list(group));
  const addresses = await collect(network.publicIPAddresses.list(group));
  const groups = await collect(network.networkSecurityGroups.list(group));
  const tables = await collect(network.routeTables.list(group));
  const nics = await collect(network.networkInterfaces.list(group));
  const machines = [];
  for (const listed of await collect(compute.virtualMachines.list(group))) {
    const machine = await compute.virtualMachines.get(group, listed.name ?? '', { expand: 'instanceView' });
    machines.push({
      name: machine.name,
      vmSize: machine.hardwareProfile?.vmSize,
      computerName: machine.osProfile?.computerName ?? null,
      networkInterfaces: (machine.networkProfile?.networkInterfaces ?? []).map((reference) => reference.id),
      availabilitySet: machine.availabilitySet?.id ?? null,
      virtualMachineScaleSet: machine.virtualMachineScaleSet?.id ?? null,
      zones: machine.zones ?? [],
      powerState: powerState(machine.instanceView?.statuses),
      faultDomain: machine.instanceView?.platformFaultDomain ?? null,
    });
  }
  const scaleSets = [];
  const instances = [];
  for (const scaleSet of await collect(compute.virtualMachineScaleSets.list(group))) {
    scaleSets.push({ name: scaleSet.name, orchestrationMode: scaleSet.orchestrationMode, capacity: scaleSet.sku?.capacity ?? null });
    if (scaleSet.orchestrationMode !== 'Uniform') continue;
    const scaleSetNics = new Map((await collect(network.networkInterfaces.listVirtualMachineScaleSetNetworkInterfaces(group, scaleSet.name ?? ''))).map((nic) => [nic.id?.toLowerCase(), nic]));
    for (const instance of await collect(compute.virtualMachineScaleSetVMs.list(group, scaleSet.name ?? '', { expand: 'instanceView' }))) {
      const references = (instance.networkProfile?.networkInterfaces ?? []).map((reference) => reference.id ?? '');
      instances.push({
        name: instance.name,
        instanceId: instance.instanceId,
        computerName: instance.osProfile?.computerName,
        zones: instance.zones ?? [],
        latestModelApplied: instance.latestModelApplied,
        powerState: powerState(instance.instanceView?.statuses),
        networkInterfaces: references,
        privateIPs: sorted(references.flatMap((reference) => (scaleSetNics.get(reference.toLowerCase())?.ipConfigurations ?? []).map((configuration) => configuration.privateIPAddress ?? ''))),
      });
    }
  }
  const sets = await collect(compute.availabilitySets.list(group));
  return {
    loadBalancers: byName(
      balancers.map((balancer) => ({
        name: balancer.name,
        sku: balancer.sku?.name ?? null,
        frontends: byFirst((balancer.frontendIPConfigurations ?? []).map((frontend) => [frontend.name, frontend.publicIPAddress?.id ?? null, frontend.subnet?.id ?? null, frontend.privateIPAddress ?? null])),
        pools: byFirst((balancer.backendAddressPools ?? []).map((pool) => [pool.name, sorted((pool.backendIPConfigurations ?? []).map((member) => (member.id ?? '').toLowerCase()))])),
        rules: byFirst(
          (balancer.loadBalancingRules ?? []).map((rule) => [
            rule.name,
            rule.protocol,
            rule.frontendPort,
            rule.backendPort,
            rule.probe?.id ?? null,
            rule.enableFloatingIP ?? null,
            rule.idleTimeoutInMinutes ?? null,
            rule.enableTcpReset ?? null,
            rule.loadDistribution ?? null,
            rule.disableOutboundSnat ?? null,
            rule.frontendIPConfiguration?.id ?? null,
            rule.backendAddressPool?.id ?? null,
          ]),
        ),
        probes: byFirst((balancer.probes ?? []).map((probe) => [probe.name, probe.protocol, probe.port, probe.requestPath ?? null, probe.intervalInSeconds ?? null, probe.probeThreshold ?? null])),
        tags: balancer.tags ?? {},
        outboundRules: sorted((balancer.outboundRules ?? []).map((rule) => rule.name ?? '')),
      })),
    ),
    publicIPAddresses: byName(
      addresses.map((address) => ({
        name: address.name,
        ipAddress: address.ipAddress,
        tags: address.tags ?? {},
        ipConfiguration: address.ipConfiguration?.id ?? null,
        sku: address.sku?.name ?? null,
        allocation: address.publicIPAllocationMethod ?? null,
        version: address.publicIPAddressVersion ?? null,
        dnsLabel: address.dnsSettings?.domainNameLabel ?? null,
        fqdn: address.dnsSettings?.fqdn ?? null,
      })),
    ),
    networkSecurityGroups: byName(
      groups.map((nsg) => ({
        name: nsg.name,
        rules: byFirst(
          (nsg.securityRules ?? []).map((rule) => [
            rule.name,
            rule.priority,
            rule.direction,
            rule.access,
            rule.protocol,
            sorted([...(rule.sourceAddressPrefix ? [rule.sourceAddressPrefix] : []), ...(rule.sourceAddressPrefixes ?? [])]),
            sorted([...(rule.destinationAddressPrefix ? [rule.destinationAddressPrefix] : []), ...(rule.destinationAddressPrefixes ?? [])]),
            sorted([...(rule.destinationPortRange ? [rule.destinationPortRange] : []), ...(rule.destinationPortRanges ?? [])]),
          ]),
        ),
        subnets: sorted((nsg.subnets ?? []).map((subnet) => subnet.id ?? '')),
      })),
    ),
    routeTables: byName(tables.map((table) => ({ name: table.name, routes: byFirst((table.routes ?? []).map((route) => [route.name, route.addressPrefix, route.nextHopType, route.nextHopIpAddress ?? null])) }))),
    networkInterfaces: byName(
      nics.map((nic) => ({
        name: nic.name,
        virtualMachine: nic.virtualMachine?.id ?? null,
        ipConfigurations: byFirst(
          (nic.ipConfigurations ?? []).map((configuration) => [configuration.name, configuration.privateIPAddress, configuration.subnet?.id ?? null, sorted((configuration.loadBalancerBackendAddressPools ?? []).map((pool) => pool.id ?? ''))]),
        ),
      })),
    ),
    virtualMachines: byName(machines),
    virtualMachineScaleSets: byName(scaleSets),
    scaleSetVirtualMachines: byName(instances),
    availabilitySets: byName(sets.map((set) => ({ name: set.name, virtualMachines: sorted((set.virtualMachines ?? []).map((member) => member.id ?? '')) }))),
  };
}

describeWithPythonAzureSdk('the Python SDKs read back what the JS SDKs wrote', () => {
  let simulator: AzureSimulator;
  const staticToken = 'static-token-for-the-python-cross-check';

  beforeAll(async () => {
    simulator = await startAzureSimulator({ staticToken });
    await runRealisticSession(simulator);
    // Both clients must follow nextLink: one item per page.
    simulator.setPageSize(1);
  }, 120_000);
  afterAll(async () => {
    await simulator?.close();
  });

  it('reads every resource kind with the same content through azure-mgmt-network and azure-mgmt-compute', async () => {
    const output = await runPythonScript('read_back.py', [], {
      input: JSON.stringify({ endpoint: simulator.resourceManagerEndpoint, caCertFile: simulator.caCertFile, subscriptionId: simulator.subscriptionId, token: staticToken, resourceGroup: SESSION.resourceGroup }),
    });
    const python = JSON.parse(output) as Record<string, unknown[]>;
    const javascript = await summaryThroughJs(simulator);
    expect(python).toEqual(JSON.parse(JSON.stringify(javascript)));
    // Every kind is there, with the session's content.
    expect(python['loadBalancers']).toHaveLength(2);
    expect(python['publicIPAddresses']).toHaveLength(1);
    expect(python['networkSecurityGroups']).toHaveLength(1);
    expect(python['routeTables']).toHaveLength(1);
    expect(python['networkInterfaces']).toHaveLength(3);
    expect(python['virtualMachines']).toHaveLength(3);
    expect(python['scaleSetVirtualMachines']).toHaveLength(2);
    expect(python['virtualMachineScaleSets']).toHaveLength(2);
    expect(python['availabilitySets']).toHaveLength(1);
  }, 90_000);
});
