/**
 * Seeds and reads the Azure simulator through ARM with the pinned SDK clients, as the cloud's
 * other actors would: the cluster's resource group, VNet and subnet, availability-set VMs with
 * their NICs (and public IPs), uniform scale-set instances, power actions and deletions, and the
 * route table the CCM programs. Used by the adapter tests and the conformance driver.
 */
import { ComputeManagementClient } from '@azure/arm-compute';
import { NetworkManagementClient, type LoadBalancer, type PublicIPAddress, type SecurityRule } from '@azure/arm-network';
import { ClientSecretCredential } from '@azure/identity';

export interface SimulatorAccess {
  resourceManagerEndpoint: string;
  activeDirectoryEndpoint: string;
  caCertificatePem: string;
  tenantId: string;
  subscriptionId: string;
  clientId: string;
  clientSecret: string;
  location: string;
}

const poll = { updateIntervalInMs: 5 };

export interface SeededMachine {
  name: string;
  /** ARM ID as ARM returns it. */
  id: string;
  privateIp: string;
  publicIp?: string;
  vmSize: string;
  zone?: string;
  platformFaultDomain?: number;
  kind: 'vm' | 'vmss-vm';
  scaleSet?: { name: string; instanceId: string };
}

export class AzureCloudSeeder {
  readonly compute: ComputeManagementClient;
  readonly network: NetworkManagementClient;
  readonly access: SimulatorAccess;
  readonly resourceGroup: string;
  readonly vnet = 'cluster-vnet';
  readonly subnet = 'nodes';
  /** The cluster security group (`securityGroupName`), attached to the subnet. */
  readonly securityGroup = 'cluster-nsg';
  #subnetId = '';

  constructor(access: SimulatorAccess, resourceGroup: string) {
    this.access = access;
    this.resourceGroup = resourceGroup;
    const tlsOptions = { ca: access.caCertificatePem };
    const credential = new ClientSecretCredential(access.tenantId, access.clientId, access.clientSecret, { authorityHost: access.activeDirectoryEndpoint, disableInstanceDiscovery: true, tlsOptions });
    const endpoint = access.resourceManagerEndpoint.replace(/\/+$/, '');
    const scopes = [`${endpoint}/.default`];
    const retryOptions = { maxRetries: 5, retryDelayInMs: 20, maxRetryDelayInMs: 200 };
    this.compute = new ComputeManagementClient(credential, access.subscriptionId, { endpoint, credentials: { scopes }, tlsOptions, retryOptions });
    this.network = new NetworkManagementClient(credential, access.subscriptionId, { endpoint, $host: endpoint, credentialScopes: scopes, tlsOptions, retryOptions });
  }

  /** The resource group, VNet and subnet (idempotent). */
  async prepare(): Promise<void> {
    const location = this.access.location;
    const token = await new ClientSecretCredential(this.access.tenantId, this.access.clientId, this.access.clientSecret, {
      authorityHost: this.access.activeDirectoryEndpoint,
      disableInstanceDiscovery: true,
      tlsOptions: { ca: this.access.caCertificatePem },
    }).getToken(`${this.access.resourceManagerEndpoint.replace(/\/+$/, '')}/.default`);
    // Resource groups: a raw PUT (the resources SDK is not a dependency).
    const url = `${this.access.resourceManagerEndpoint.replace(/\/+$/, '')}/subscriptions/${this.access.subscriptionId}/resourcegroups/${this.resourceGroup}?api-version=2024-03-01`;
    const { request } = await import('node:https');
    await new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({ location });
      const outgoing = request(url, { method: 'PUT', ca: this.access.caCertificatePem, headers: { authorization: `Bearer ${token?.token ?? ''}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
        response.resume();
        response.on('end', () => ((response.statusCode ?? 500) < 300 ? resolve() : reject(new Error(`resource group PUT answered ${response.statusCode}`))));
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
    const securityGroup = await this.network.networkSecurityGroups.beginCreateOrUpdateAndWait(this.resourceGroup, this.securityGroup, { location }, poll);
    const vnet = await this.network.virtualNetworks.beginCreateOrUpdateAndWait(
      this.resourceGroup,
      this.vnet,
      { location, addressSpace: { addressPrefixes: ['10.0.0.0/8'] }, subnets: [{ name: this.subnet, addressPrefix: '10.240.0.0/16', networkSecurityGroup: { id: securityGroup.id } }] },
      poll,
    );
    this.#subnetId = `${vnet.id ?? ''}/subnets/${this.subnet}`;
  }

  /** An availability-set (or standalone) VM with a NIC, optionally a public IP and a zone. */
  async createVirtualMachine(name: string, options: { publicIp?: boolean; zone?: string; vmSize?: string } = {}): Promise<SeededMachine> {
    const location = this.access.location;
    const rg = this.resourceGroup;
    const publicIp = options.publicIp
      ? await this.network.publicIPAddresses.beginCreateOrUpdateAndWait(rg, `${name}-pip`, { location, sku: { name: 'Standard' }, publicIPAllocationMethod: 'Static' }, poll)
      : undefined;
    const nic = await this.network.networkInterfaces.beginCreateOrUpdateAndWait(
      rg,
      `${name}-nic`,
      { location, ipConfigurations: [{ name: 'ipconfig1', primary: true, subnet: { id: this.#subnetId }, privateIPAllocationMethod: 'Dynamic', ...(publicIp ? { publicIPAddress: { id: publicIp.id } } : {}) }] },
      poll,
    );
    const vmSize = options.vmSize ?? 'Standard_D2s_v3';
    const vm = await this.compute.virtualMachines.createOrUpdate(
      rg,
      name,
      {
        location,
        ...(options.zone === undefined ? {} : { zones: [options.zone] }),
        hardwareProfile: { vmSize },
        osProfile: { computerName: name, adminUsername: 'azureuser' },
        networkProfile: { networkInterfaces: [{ id: nic.id, primary: true }] },
      },
      poll,
    );
    const view = await this.compute.virtualMachines.instanceView(rg, name);
    return {
      name,
      id: vm.id ?? '',
      privateIp: nic.ipConfigurations?.[0]?.privateIPAddress ?? '',
      ...(publicIp?.ipAddress === undefined ? {} : { publicIp: publicIp.ipAddress }),
      vmSize,
      ...(options.zone === undefined ? {} : { zone: options.zone }),
      ...(view.platformFaultDomain === undefined ? {} : { platformFaultDomain: view.platformFaultDomain }),
      kind: 'vm',
    };
  }

  /** A uniform scale set of `capacity` instances (computer names `<prefix>00000<n>`). */
  async createScaleSet(name: string, capacity: number, options: { computerNamePrefix?: string; zones?: string[] } = {}): Promise<SeededMachine[]> {
    const rg = this.resourceGroup;
    await this.compute.virtualMachineScaleSets.createOrUpdate(
      rg,
      name,
      {
        location: this.access.location,
        sku: { name: 'Standard_D4s_v3', tier: 'Standard', capacity },
        ...(options.zones === undefined ? {} : { zones: options.zones }),
        orchestrationMode: 'Uniform',
        upgradePolicy: { mode: 'Manual' },
        virtualMachineProfile: {
          osProfile: { computerNamePrefix: options.computerNamePrefix ?? name, adminUsername: 'azureuser' },
          networkProfile: { networkInterfaceConfigurations: [{ name: `${name}-nic`, primary: true, ipConfigurations: [{ name: 'ipconfig1', primary: true, subnet: { id: this.#subnetId } }] }] },
        },
      },
      poll,
    );
    // One list of the scale set's NICs (not one per instance): bulk creation of thousands stays quick.
    const privateIps = new Map<string, string>();
    for await (const nic of this.network.networkInterfaces.listVirtualMachineScaleSetNetworkInterfaces(rg, name)) {
      const owner = (nic.id ?? '').toLowerCase().replace(/\/networkinterfaces\/[^/]+$/, '');
      if (!privateIps.has(owner)) privateIps.set(owner, nic.ipConfigurations?.[0]?.privateIPAddress ?? '');
    }
    const machines: SeededMachine[] = [];
    for await (const instance of this.compute.virtualMachineScaleSetVMs.list(rg, name)) {
      const instanceId = instance.instanceId ?? '';
      const privateIp = privateIps.get((instance.id ?? '').toLowerCase()) ?? '';
      machines.push({
        name: (instance.osProfile?.computerName ?? '').toLowerCase(),
        id: instance.id ?? '',
        privateIp,
        vmSize: instance.sku?.name ?? 'Standard_D4s_v3',
        ...(instance.zones?.[0] === undefined ? {} : { zone: instance.zones[0] }),
        kind: 'vmss-vm',
        scaleSet: { name, instanceId },
      });
    }
    return machines;
  }

  async powerOff(machine: SeededMachine): Promise<void> {
    if (machine.scaleSet) await this.compute.virtualMachineScaleSetVMs.powerOff(this.resourceGroup, machine.scaleSet.name, machine.scaleSet.instanceId, poll);
    else await this.compute.virtualMachines.powerOff(this.resourceGroup, machine.name, poll);
  }

  async start(machine: SeededMachine): Promise<void> {
    if (machine.scaleSet) await this.compute.virtualMachineScaleSetVMs.start(this.resourceGroup, machine.scaleSet.name, machine.scaleSet.instanceId, poll);
    else await this.compute.virtualMachines.start(this.resourceGroup, machine.name, poll);
  }

  async delete(machine: SeededMachine): Promise<void> {
    if (machine.scaleSet) {
      await this.compute.virtualMachineScaleSetVMs.delete(this.resourceGroup, machine.scaleSet.name, machine.scaleSet.instanceId, poll);
      return;
    }
    await this.compute.virtualMachines.delete(this.resourceGroup, machine.name, poll);
    await this.network.networkInterfaces.beginDeleteAndWait(this.resourceGroup, `${machine.name}-nic`, poll);
  }

  /** Every load balancer of the resource group. */
  async loadBalancers(): Promise<LoadBalancer[]> {
    const all: LoadBalancer[] = [];
    for await (const balancer of this.network.loadBalancers.list(this.resourceGroup)) all.push(balancer);
    return all;
  }

  /** Every public IP of the resource group. */
  async publicIps(): Promise<PublicIPAddress[]> {
    const all: PublicIPAddress[] = [];
    for await (const address of this.network.publicIPAddresses.list(this.resourceGroup)) all.push(address);
    return all;
  }

  /** The rules of the cluster security group. */
  async securityRules(): Promise<SecurityRule[]> {
    return (await this.network.networkSecurityGroups.get(this.resourceGroup, this.securityGroup)).securityRules ?? [];
  }

  /** The routes of a route table (none when it does not exist). */
  async routes(routeTable: string): Promise<Array<{ name: string; addressPrefix: string; nextHopIpAddress?: string }>> {
    try {
      const table = await this.network.routeTables.get(this.resourceGroup, routeTable);
      return (table.routes ?? []).map((route) => ({ name: route.name ?? '', addressPrefix: route.addressPrefix ?? '', ...(route.nextHopIpAddress === undefined ? {} : { nextHopIpAddress: route.nextHopIpAddress }) }));
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return [];
      throw error;
    }
  }

  async putRoute(routeTable: string, name: string, addressPrefix: string, nextHopIpAddress: string): Promise<void> {
    try {
      await this.network.routeTables.get(this.resourceGroup, routeTable);
    } catch {
      await this.network.routeTables.beginCreateOrUpdateAndWait(this.resourceGroup, routeTable, { location: this.access.location }, poll);
    }
    await this.network.routes.beginCreateOrUpdateAndWait(this.resourceGroup, routeTable, name, { addressPrefix, nextHopType: 'VirtualAppliance', nextHopIpAddress }, poll);
  }

  async deleteRoute(routeTable: string, name: string): Promise<void> {
    await this.network.routes.beginDeleteAndWait(this.resourceGroup, routeTable, name, poll);
  }
}
