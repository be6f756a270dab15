/**
 * One contract for the Azure ports (ComputePort and NetworkPort), run on the in-memory fakes
 * (test/fakes/fake-compute.ts, fake-network.ts) and on the production @azure/arm-* adapters against
 * the Azure simulator (issue 23 point 4): the fakes the unit tests use must answer with the fields
 * the provider reads, and refuse what ARM refuses with ARM's kind and code: missing resources
 * (404), stale etags (If-Match, 412), references to missing frontends, pools, probes and public
 * IPs, probes and routes without their required fields, security rule priorities out of range or
 * repeated, a public IP used by two frontends or deleted while in use.
 */
import { expect, it } from 'vitest';
import { asAzureApiError } from '../../src/errors.js';
import type { ComputePort } from '../../src/ports/compute-port.js';
import type { AzureFrontendIpConfiguration, AzureLoadBalancer, AzureSecurityRule, NetworkPort } from '../../src/ports/network-port.js';

export interface ContractMachine {
  /** ARM ID of the VM (or scale-set VM). */
  id: string;
  name: string;
  privateIp: string;
  /** ARM ID of the public IP attached to its NIC, when it has one. */
  publicIpId?: string;
  publicIp?: string;
  scaleSet?: { name: string; instanceId: string };
}

/** One side of the contract: the two ports and the means to put machines behind them. */
export interface AzurePortsContractFixture {
  compute: ComputePort;
  network: NetworkPort;
  subscriptionId: string;
  resourceGroup: string;
  location: string;
  /** The subnet the NICs are in (an ARM ID). */
  subnetId: string;
  /** An existing network security group (a name) with no rules. */
  securityGroup: string;
  /** A running VM (size Standard_D2s_v3, computer name = name) with one NIC `<name>-nic` (ipconfig1), optionally with a Standard static public IP `<name>-pip`. */
  createVirtualMachine(name: string, options: { publicIp: boolean }): Promise<ContractMachine>;
  /** A uniform scale set (NIC configuration `<name>-nic`, IP configuration ipconfig1) of `capacity` running instances. */
  createScaleSet(name: string, capacity: number): Promise<ContractMachine[]>;
}

/** The call's refusal as `kind code`: `none` when it succeeded. */
export async function refusalOf(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (error) {
    const typed = asAzureApiError(error);
    return typed === undefined ? `other: ${String(error)}` : `${typed.kind} ${typed.code}`;
  }
  return 'none';
}

const IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const same = (left: string | undefined, right: string | undefined): boolean => (left ?? '').toLowerCase() === (right ?? '').toLowerCase();

/** Registers the contract's tests; `fixture()` is called inside each test (after the side started). */
export function describeAzurePortsContract(fixture: () => AzurePortsContractFixture): void {
  let serial = 0;
  const unique = (prefix: string): string => `${prefix}-${++serial}`;
  const networkId = (side: AzurePortsContractFixture, type: string, name: string): string =>
    `/subscriptions/${side.subscriptionId}/resourceGroups/${side.resourceGroup}/providers/Microsoft.Network/${type}/${name}`;

  /** A Standard load balancer with a public frontend, one pool, one probe and one rule naming them. */
  const balancer = (side: AzurePortsContractFixture, name: string, publicIpId: string): AzureLoadBalancer => ({
    name,
    location: side.location,
    sku: 'Standard',
    tags: { owner: 'contract' },
    frontendIpConfigurations: [{ name: 'frontend', publicIpAddressId: publicIpId }],
    backendAddressPools: [{ name: 'pool' }],
    probes: [{ name: 'probe', protocol: 'Tcp', port: 30080, intervalInSeconds: 5, probeThreshold: 2 }],
    loadBalancingRules: [
      {
        name: 'rule',
        frontendIpConfigurationName: 'frontend',
        backendAddressPoolName: 'pool',
        probeName: 'probe',
        protocol: 'Tcp',
        frontendPort: 80,
        backendPort: 30080,
        enableFloatingIp: false,
        idleTimeoutInMinutes: 4,
        enableTcpReset: true,
        loadDistribution: 'Default',
        disableOutboundSnat: false,
      },
    ],
  });
  const publicIp = (side: AzurePortsContractFixture, name: string) => ({ name, location: side.location, tags: { owner: 'contract' }, version: 'IPv4' as const, ipAddress: '', ipTags: [] });

  it('lists the VMs of a resource group with the fields the instance operations read; a missing resource group is NotFound', async () => {
    const side = fixture();
    const name = unique('contract-vm');
    const machine = await side.createVirtualMachine(name, { publicIp: false });
    const vm = (await side.compute.listVirtualMachines(side.resourceGroup)).find((candidate) => candidate.name === name);
    expect(vm).toMatchObject({ name, vmSize: 'Standard_D2s_v3', computerName: name, powerState: 'running', provisioningState: 'Succeeded', zones: [] });
    expect(same(vm?.id, machine.id)).toBe(true);
    expect(same(vm?.resourceGroup, side.resourceGroup)).toBe(true);
    expect(vm?.location.toLowerCase()).toBe(side.location.toLowerCase());
    expect(vm?.networkInterfaceIds.map((id) => id.toLowerCase())).toEqual([networkId(side, 'networkInterfaces', `${name}-nic`).toLowerCase()]);
    expect(await refusalOf(() => side.compute.listVirtualMachines('contract-missing-group'))).toBe('NotFound ResourceGroupNotFound');
    expect(await refusalOf(() => side.compute.listScaleSets('contract-missing-group'))).toBe('NotFound ResourceGroupNotFound');
  });

  it('reads NICs by ID and by resource group, and public IP addresses by ID; missing ones are NotFound', async () => {
    const side = fixture();
    const name = unique('contract-nic');
    const machine = await side.createVirtualMachine(name, { publicIp: true });
    const nicId = networkId(side, 'networkInterfaces', `${name}-nic`);
    const nic = await side.network.getNetworkInterface(nicId);
    expect(nic.name).toBe(`${name}-nic`);
    expect(same(nic.id, nicId)).toBe(true);
    expect(nic.etag).toEqual(expect.any(String));
    expect(nic.ipConfigurations).toEqual([expect.objectContaining({ name: 'ipconfig1', primary: true, privateIpAddress: machine.privateIp, privateIpVersion: 'IPv4' })]);
    expect(same(nic.ipConfigurations[0]?.publicIpAddressId, machine.publicIpId)).toBe(true);
    expect((await side.network.listNetworkInterfaces(side.resourceGroup)).some((listed) => same(listed.id, nicId))).toBe(true);
    expect(machine.publicIp).toMatch(IPV4);
    expect(await side.network.getPublicIpAddress(machine.publicIpId ?? '')).toBe(machine.publicIp);
    expect((await side.network.listPublicIpAddresses(side.resourceGroup)).find((address) => same(address.id, machine.publicIpId))?.ipAddress).toBe(machine.publicIp);
    expect(await refusalOf(() => side.network.getNetworkInterface(networkId(side, 'networkInterfaces', 'contract-missing-nic')))).toMatch(/^NotFound /);
    expect(await refusalOf(() => side.network.getPublicIpAddress(networkId(side, 'publicIPAddresses', 'contract-missing-pip')))).toMatch(/^NotFound /);
  });

  it('reads uniform scale sets, their VMs, NICs and network models with etags; missing ones are NotFound', async () => {
    const side = fixture();
    const name = unique('contract-set');
    const instances = await side.createScaleSet(name, 2);
    expect(await side.compute.listScaleSets(side.resourceGroup)).toContain(name);
    const vms = await side.compute.listScaleSetVirtualMachines(side.resourceGroup, name);
    expect(vms.map((vm) => vm.scaleSet?.instanceId).sort()).toEqual(instances.map((instance) => instance.scaleSet?.instanceId).sort());
    expect(vms[0]).toMatchObject({ vmSize: 'Standard_D4s_v3', powerState: 'running', provisioningState: 'Succeeded', scaleSet: { name } });
    const nics = await side.network.listScaleSetNetworkInterfaces(side.resourceGroup, name);
    expect(nics).toHaveLength(2);
    for (const instance of instances) {
      const nic = nics.find((candidate) => candidate.id.toLowerCase().startsWith(`${instance.id.toLowerCase()}/networkinterfaces/`));
      expect(nic?.ipConfigurations[0]).toMatchObject({ name: 'ipconfig1', primary: true, privateIpAddress: instance.privateIp });
    }
    const model = await side.compute.getScaleSetNetwork(side.resourceGroup, name);
    expect(model.etag).toEqual(expect.any(String));
    expect(model.ipConfigurations).toEqual([{ key: `${name}-nic/ipconfig1`, primary: true, version: 'IPv4', loadBalancerBackendAddressPoolIds: [] }]);
    const instanceId = instances[0]?.scaleSet?.instanceId ?? '';
    const vmModel = await side.compute.getScaleSetVirtualMachineNetwork(side.resourceGroup, name, instanceId);
    expect(vmModel.ipConfigurations).toEqual([{ key: `${name}-nic/ipconfig1`, primary: true, version: 'IPv4', loadBalancerBackendAddressPoolIds: [] }]);
    expect(await refusalOf(() => side.compute.listScaleSetVirtualMachines(side.resourceGroup, 'contract-missing-set'))).toMatch(/^NotFound /);
    expect(await refusalOf(() => side.compute.getScaleSetNetwork(side.resourceGroup, 'contract-missing-set'))).toMatch(/^NotFound /);
    expect(await refusalOf(() => side.compute.getScaleSetVirtualMachineNetwork(side.resourceGroup, name, '999'))).toMatch(/^NotFound /);
  });

  it('creates, reads and replaces a load balancer with etags; refuses rules naming a missing probe, frontend or pool, a missing public IP, a frontend without an address, a probe without its path, a stale etag', async () => {
    const side = fixture();
    const address = await side.network.putPublicIp(side.resourceGroup, publicIp(side, unique('contract-lb-pip')), {});
    const name = unique('contract-lb');
    const created = await side.network.putLoadBalancer(side.resourceGroup, balancer(side, name, address.id ?? ''), {});
    expect(same(created.id, networkId(side, 'loadBalancers', name))).toBe(true);
    expect(created.etag).toEqual(expect.any(String));
    expect(same(created.frontendIpConfigurations[0]?.id, `${networkId(side, 'loadBalancers', name)}/frontendIPConfigurations/frontend`)).toBe(true);
    expect(same(created.backendAddressPools[0]?.id, `${networkId(side, 'loadBalancers', name)}/backendAddressPools/pool`)).toBe(true);
    const read = await side.network.getLoadBalancer(side.resourceGroup, name);
    expect(read).toMatchObject({ name, sku: 'Standard', tags: { owner: 'contract' }, probes: balancer(side, name, '').probes, loadBalancingRules: balancer(side, name, '').loadBalancingRules });
    expect(same(read.frontendIpConfigurations[0]?.publicIpAddressId, address.id)).toBe(true);
    expect(read.backendAddressPools[0]?.backendIpConfigurationIds).toEqual([]);
    expect(same((await side.network.getPublicIp(side.resourceGroup, address.name)).ipConfigurationId, created.frontendIpConfigurations[0]?.id)).toBe(true);

    const valid = balancer(side, name, address.id ?? '');
    const rule = valid.loadBalancingRules[0]!;
    // The refused load balancers front a public IP of their own (the first one is in use).
    const spare = await side.network.putPublicIp(side.resourceGroup, publicIp(side, unique('contract-lb-spare')), {});
    const refused = (change: Partial<AzureLoadBalancer>) =>
      refusalOf(() => side.network.putLoadBalancer(side.resourceGroup, { ...balancer(side, unique('contract-lb-bad'), spare.id ?? ''), ...change }, {}));
    expect(await refused({ loadBalancingRules: [{ ...rule, probeName: 'missing-probe' }] })).toBe('Invalid InvalidResourceReference');
    expect(await refused({ loadBalancingRules: [{ ...rule, frontendIpConfigurationName: 'missing-frontend' }] })).toBe('Invalid InvalidResourceReference');
    expect(await refused({ loadBalancingRules: [{ ...rule, backendAddressPoolName: 'missing-pool' }] })).toBe('Invalid InvalidResourceReference');
    expect(await refused({ frontendIpConfigurations: [{ name: 'frontend', publicIpAddressId: networkId(side, 'publicIPAddresses', 'contract-missing-pip') }], loadBalancingRules: [] })).toBe('Invalid InvalidResourceReference');
    expect(await refused({ frontendIpConfigurations: [{ name: 'frontend' }] })).toBe('Invalid InvalidRequestFormat');
    expect(await refused({ probes: [{ name: 'probe', protocol: 'Http', port: 30080, intervalInSeconds: 5, probeThreshold: 2 }] })).toBe('Invalid InvalidRequestPath');
    expect(await refused({ frontendIpConfigurations: [{ name: 'frontend', publicIpAddressId: address.id ?? '' }], loadBalancingRules: [], probes: [] })).toBe('Invalid PublicIPAddressInUse');

    const updated = await side.network.putLoadBalancer(side.resourceGroup, { ...valid, tags: { owner: 'contract', changed: 'yes' } }, { ifMatch: read.etag ?? '' });
    expect(updated.etag).not.toBe(read.etag);
    expect(await refusalOf(() => side.network.putLoadBalancer(side.resourceGroup, valid, { ifMatch: read.etag ?? '' }))).toBe('PreconditionFailed PreconditionFailed');
    expect(await refusalOf(() => side.network.deletePublicIp(side.resourceGroup, address.name))).toMatch(/^Invalid PublicIPAddressCannotBeDeleted$/);

    await side.network.deleteLoadBalancer(side.resourceGroup, name);
    await side.network.deleteLoadBalancer(side.resourceGroup, name);
    expect(await refusalOf(() => side.network.getLoadBalancer(side.resourceGroup, name))).toBe('NotFound ResourceNotFound');
    await side.network.deletePublicIp(side.resourceGroup, address.name);
    await side.network.deletePublicIp(side.resourceGroup, spare.name);
  });

  it('gives an internal frontend a private address of its subnet and keeps it; refuses a missing subnet and a static address outside the subnet', async () => {
    const side = fixture();
    const name = unique('contract-ilb');
    const internal = (frontend: Omit<AzureFrontendIpConfiguration, 'name'>): AzureLoadBalancer => ({
      ...balancer(side, name, ''),
      frontendIpConfigurations: [{ name: 'frontend', ...frontend }],
    });
    const created = await side.network.putLoadBalancer(side.resourceGroup, internal({ subnetId: side.subnetId, privateIpAllocationMethod: 'Dynamic', privateIpAddressVersion: 'IPv4' }), {});
    const frontend = created.frontendIpConfigurations[0];
    expect(frontend).toMatchObject({ name: 'frontend', privateIpAllocationMethod: 'Dynamic' });
    expect(same(frontend?.subnetId, side.subnetId)).toBe(true);
    expect(frontend?.privateIpAddress).toMatch(/^10\.240\./);
    const again = await side.network.putLoadBalancer(side.resourceGroup, internal({ subnetId: side.subnetId, privateIpAllocationMethod: 'Dynamic', privateIpAddressVersion: 'IPv4' }), { ifMatch: created.etag ?? '' });
    expect(again.frontendIpConfigurations[0]?.privateIpAddress).toBe(frontend?.privateIpAddress);
    const fixed = await side.network.putLoadBalancer(side.resourceGroup, internal({ subnetId: side.subnetId, privateIpAllocationMethod: 'Static', privateIpAddress: '10.240.200.7' }), {});
    expect(fixed.frontendIpConfigurations[0]).toMatchObject({ privateIpAllocationMethod: 'Static', privateIpAddress: '10.240.200.7' });
    const missingSubnet = side.subnetId.replace(/\/subnets\/[^/]+$/, '/subnets/contract-missing-subnet');
    expect(await refusalOf(() => side.network.putLoadBalancer(side.resourceGroup, { ...internal({ subnetId: missingSubnet, privateIpAllocationMethod: 'Dynamic' }), name: unique('contract-ilb-bad') }, {}))).toBe('Invalid InvalidResourceReference');
    expect(await refusalOf(() => side.network.putLoadBalancer(side.resourceGroup, { ...internal({ subnetId: side.subnetId, privateIpAllocationMethod: 'Static', privateIpAddress: '192.168.9.9' }), name: unique('contract-ilb-bad') }, {}))).toBe('Invalid PrivateIPAddressNotInSubnet');
    await side.network.deleteLoadBalancer(side.resourceGroup, name);
  });

  it('creates, reads, lists and deletes public IPs with etags; refuses a stale etag; a missing one is NotFound, deleting it again resolves', async () => {
    const side = fixture();
    const name = unique('contract-pip');
    const created = await side.network.putPublicIp(side.resourceGroup, publicIp(side, name), {});
    expect(created).toMatchObject({ name, tags: { owner: 'contract' }, version: 'IPv4' });
    expect(created.ipAddress).toMatch(IPV4);
    expect(same(created.id, networkId(side, 'publicIPAddresses', name))).toBe(true);
    expect(created.ipConfigurationId).toBeUndefined();
    const read = await side.network.getPublicIp(side.resourceGroup, name);
    expect(read).toMatchObject({ name, ipAddress: created.ipAddress, etag: created.etag });
    expect((await side.network.listPublicIps(side.resourceGroup)).find((address) => address.name === name)?.ipAddress).toBe(created.ipAddress);
    expect((await side.network.listPublicIpAddresses(side.resourceGroup)).find((address) => same(address.id, created.id))?.ipAddress).toBe(created.ipAddress);
    const updated = await side.network.putPublicIp(side.resourceGroup, { ...publicIp(side, name), tags: { owner: 'contract', changed: 'yes' } }, { ifMatch: read.etag ?? '' });
    expect(updated.ipAddress).toBe(created.ipAddress);
    expect(await refusalOf(() => side.network.putPublicIp(side.resourceGroup, publicIp(side, name), { ifMatch: read.etag ?? '' }))).toBe('PreconditionFailed PreconditionFailed');
    await side.network.deletePublicIp(side.resourceGroup, name);
    await side.network.deletePublicIp(side.resourceGroup, name);
    expect(await refusalOf(() => side.network.getPublicIp(side.resourceGroup, name))).toBe('NotFound ResourceNotFound');
  });

  it('puts NICs and scale-set models into backend pools with etags; refuses a missing pool, a stale etag, a missing NIC or IP configuration', async () => {
    const side = fixture();
    const address = await side.network.putPublicIp(side.resourceGroup, publicIp(side, unique('contract-pool-pip')), {});
    const name = unique('contract-pool-lb');
    const created = await side.network.putLoadBalancer(side.resourceGroup, balancer(side, name, address.id ?? ''), {});
    const poolId = created.backendAddressPools[0]?.id ?? '';
    const vmName = unique('contract-pool-vm');
    await side.createVirtualMachine(vmName, { publicIp: false });
    const nicId = networkId(side, 'networkInterfaces', `${vmName}-nic`);
    const nic = await side.network.getNetworkInterface(nicId);
    await side.network.setNetworkInterfaceBackendPools(nicId, 'ipconfig1', [poolId], { ifMatch: nic.etag ?? '' });
    const joined = await side.network.getNetworkInterface(nicId);
    expect(joined.ipConfigurations[0]?.loadBalancerBackendAddressPoolIds?.map((id) => id.toLowerCase())).toEqual([poolId.toLowerCase()]);
    expect(joined.etag).not.toBe(nic.etag);
    expect((await side.network.getLoadBalancer(side.resourceGroup, name)).backendAddressPools[0]?.backendIpConfigurationIds?.map((id) => id.toLowerCase())).toEqual([`${nicId}/ipConfigurations/ipconfig1`.toLowerCase()]);
    expect(await refusalOf(() => side.network.setNetworkInterfaceBackendPools(nicId, 'ipconfig1', [], { ifMatch: nic.etag ?? '' }))).toBe('PreconditionFailed PreconditionFailed');
    expect(await refusalOf(() => side.network.setNetworkInterfaceBackendPools(nicId, 'ipconfig1', [`${created.id ?? ''}/backendAddressPools/missing`], {}))).toBe('Invalid InvalidResourceReference');
    expect(await refusalOf(() => side.network.setNetworkInterfaceBackendPools(networkId(side, 'networkInterfaces', 'contract-missing-nic'), 'ipconfig1', [], {}))).toMatch(/^NotFound /);
    expect(await refusalOf(() => side.network.setNetworkInterfaceBackendPools(nicId, 'missing-ipconfig', [], {}))).toMatch(/^NotFound /);
    // A pool with members cannot be dropped from its load balancer.
    expect(await refusalOf(() => side.network.putLoadBalancer(side.resourceGroup, { ...balancer(side, name, address.id ?? ''), backendAddressPools: [], loadBalancingRules: [] }, {}))).toBe('Invalid OperationNotAllowed');
    expect(await refusalOf(() => side.network.deleteLoadBalancer(side.resourceGroup, name))).toBe('Invalid OperationNotAllowed');
    await side.network.setNetworkInterfaceBackendPools(nicId, 'ipconfig1', [], {});

    const setName = unique('contract-pool-set');
    const [instance] = await side.createScaleSet(setName, 1);
    const key = `${setName}-nic/ipconfig1`;
    const model = await side.compute.getScaleSetNetwork(side.resourceGroup, setName);
    await side.compute.setScaleSetBackendPools(side.resourceGroup, setName, key, [poolId], model.etag);
    const changed = await side.compute.getScaleSetNetwork(side.resourceGroup, setName);
    expect(changed.ipConfigurations[0]?.loadBalancerBackendAddressPoolIds.map((id) => id.toLowerCase())).toEqual([poolId.toLowerCase()]);
    expect(changed.etag).not.toBe(model.etag);
    expect(await refusalOf(() => side.compute.setScaleSetBackendPools(side.resourceGroup, setName, key, [], model.etag))).toMatch(/^PreconditionFailed /);
    expect(await refusalOf(() => side.compute.setScaleSetBackendPools(side.resourceGroup, 'contract-missing-set', key, [], undefined))).toMatch(/^NotFound /);
    expect(await refusalOf(() => side.compute.setScaleSetBackendPools(side.resourceGroup, setName, key, [`${created.id ?? ''}/backendAddressPools/missing`], undefined))).toBe('Invalid InvalidResourceReference');
    expect(await refusalOf(() => side.compute.setScaleSetBackendPools(side.resourceGroup, setName, 'missing-nic/ipconfig1', [poolId], undefined))).toMatch(/^NotFound /);
    expect(await refusalOf(() => side.network.deleteLoadBalancer(side.resourceGroup, name))).toBe('Invalid LoadBalancerInUseByVirtualMachineScaleSet');
    const instanceId = instance?.scaleSet?.instanceId ?? '';
    const vmModel = await side.compute.getScaleSetVirtualMachineNetwork(side.resourceGroup, setName, instanceId);
    await side.compute.setScaleSetVirtualMachineBackendPools(side.resourceGroup, setName, instanceId, key, [poolId], vmModel.etag);
    expect((await side.compute.getScaleSetVirtualMachineNetwork(side.resourceGroup, setName, instanceId)).ipConfigurations[0]?.loadBalancerBackendAddressPoolIds.map((id) => id.toLowerCase())).toEqual([poolId.toLowerCase()]);
    expect(await refusalOf(() => side.compute.setScaleSetVirtualMachineBackendPools(side.resourceGroup, setName, instanceId, key, [], vmModel.etag))).toMatch(/^PreconditionFailed /);
    await side.compute.setScaleSetVirtualMachineBackendPools(side.resourceGroup, setName, instanceId, key, [], undefined);
    await side.compute.setScaleSetBackendPools(side.resourceGroup, setName, key, [], undefined);
    await side.network.deleteLoadBalancer(side.resourceGroup, name);
    await side.network.deletePublicIp(side.resourceGroup, address.name);
  });

  it('creates route tables and puts and deletes routes; refuses a route to a missing table or a virtual appliance without its IP', async () => {
    const side = fixture();
    const table = unique('contract-routes');
    expect(await refusalOf(() => side.network.getRouteTable(side.resourceGroup, table))).toBe('NotFound ResourceNotFound');
    const created = await side.network.createRouteTable(side.resourceGroup, { name: table, location: side.location, tags: { owner: 'contract' } });
    expect(created).toMatchObject({ name: table, tags: { owner: 'contract' }, routes: [] });
    expect(created.location.toLowerCase()).toBe(side.location.toLowerCase());
    await side.network.putRoute(side.resourceGroup, table, { name: 'node-a', addressPrefix: '10.244.0.0/24', nextHopType: 'VirtualAppliance', nextHopIpAddress: '10.240.0.4' });
    const read = await side.network.getRouteTable(side.resourceGroup, table);
    expect(read.routes).toEqual([{ name: 'node-a', addressPrefix: '10.244.0.0/24', nextHopType: 'VirtualAppliance', nextHopIpAddress: '10.240.0.4' }]);
    expect(read.etag).toEqual(expect.any(String));
    expect(await refusalOf(() => side.network.putRoute(side.resourceGroup, 'contract-missing-table', { name: 'x', addressPrefix: '10.244.1.0/24', nextHopType: 'VirtualAppliance', nextHopIpAddress: '10.240.0.5' }))).toMatch(/^NotFound /);
    expect(await refusalOf(() => side.network.putRoute(side.resourceGroup, table, { name: 'no-hop', addressPrefix: '10.244.2.0/24', nextHopType: 'VirtualAppliance' }))).toBe('Invalid InvalidNextHopIpAddress');
    expect(await refusalOf(() => side.network.putRoute(side.resourceGroup, table, { name: 'bad-type', addressPrefix: '10.244.3.0/24', nextHopType: 'Nowhere' }))).toBe('Invalid InvalidRequestFormat');
    await side.network.deleteRoute(side.resourceGroup, table, 'node-a');
    await side.network.deleteRoute(side.resourceGroup, table, 'node-a');
    expect((await side.network.getRouteTable(side.resourceGroup, table)).routes).toEqual([]);
  });

  it('reads and replaces a security group with etags; refuses priorities out of range or repeated in one direction, a stale etag; a missing group is NotFound', async () => {
    const side = fixture();
    const group = await side.network.getSecurityGroup(side.resourceGroup, side.securityGroup);
    expect(group).toMatchObject({ name: side.securityGroup, securityRules: [] });
    expect(group.etag).toEqual(expect.any(String));
    const rule: AzureSecurityRule = {
      name: 'contract-allow-80',
      priority: 500,
      direction: 'Inbound',
      access: 'Allow',
      protocol: 'Tcp',
      sourcePortRange: '*',
      sourceAddressPrefixes: ['10.0.0.0/8'],
      destinationAddressPrefixes: ['20.0.0.1'],
      destinationPortRanges: ['80'],
    };
    const written = await side.network.putSecurityGroup(side.resourceGroup, { ...group, securityRules: [rule] }, { ifMatch: group.etag ?? '' });
    expect(written.securityRules).toEqual([rule]);
    expect(written.etag).not.toBe(group.etag);
    expect((await side.network.getSecurityGroup(side.resourceGroup, side.securityGroup)).securityRules).toEqual([rule]);
    expect(await refusalOf(() => side.network.putSecurityGroup(side.resourceGroup, { ...group, securityRules: [] }, { ifMatch: group.etag ?? '' }))).toBe('PreconditionFailed PreconditionFailed');
    expect(await refusalOf(() => side.network.putSecurityGroup(side.resourceGroup, { ...group, securityRules: [{ ...rule, priority: 99 }] }, {}))).toBe('Invalid SecurityRuleInvalidPriority');
    expect(await refusalOf(() => side.network.putSecurityGroup(side.resourceGroup, { ...group, securityRules: [{ ...rule, priority: 4097 }] }, {}))).toBe('Invalid SecurityRuleInvalidPriority');
    expect(await refusalOf(() => side.network.putSecurityGroup(side.resourceGroup, { ...group, securityRules: [rule, { ...rule, name: 'contract-allow-81', destinationPortRanges: ['81'] }] }, {}))).toBe('Invalid SecurityRuleConflict');
    await side.network.putSecurityGroup(side.resourceGroup, { ...group, securityRules: [] }, {});
    expect(await refusalOf(() => side.network.getSecurityGroup(side.resourceGroup, 'contract-missing-nsg'))).toBe('NotFound ResourceNotFound');
  });
}
