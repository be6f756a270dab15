/** The Azure provider over its fakes (`createHarness()`), with a huge budget so tests never wait. */
import { createMetricsRegistry } from '@ccm/core/app';
import type { V1Node } from '@kubernetes/client-node';
import type { LogFields, Logger } from '@ccm/core/logging';
import { createAzureCloud, type AzureCloud, type AzureCloudOptions } from '../src/azure-cloud.js';
import type { AzureVirtualMachine } from '../src/ports/compute-port.js';
import { FakeCompute } from './fakes/fake-compute.js';
import { FakeNetwork, linkFakes } from './fakes/fake-network.js';

export const SUBSCRIPTION = '00000000-0000-0000-0000-000000000001';
export const RESOURCE_GROUP = 'Cluster-RG';
export const SECRET = 'very-secret-client-secret-value';

export const CONFIG = {
  cloud: 'AzurePublicCloud',
  tenantId: 'tenant-1',
  subscriptionId: SUBSCRIPTION,
  aadClientId: 'client-1',
  aadClientSecret: SECRET,
  resourceGroup: RESOURCE_GROUP,
  location: 'eastus',
  vnetName: 'cluster-vnet',
  subnetName: 'nodes',
  securityGroupName: 'cluster-nsg',
  routeTableName: 'cluster-routes',
  vmType: 'vmss',
  useInstanceMetadata: false,
  tags: 'team=platform',
};

export class RecordingLogger implements Logger {
  readonly lines: Array<{ level: string; message: string; fields?: LogFields }> = [];
  error(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'error', message, ...(fields ? { fields } : {}) });
  }
  warn(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'warn', message, ...(fields ? { fields } : {}) });
  }
  info(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'info', message, ...(fields ? { fields } : {}) });
  }
  verbose(level: number, message: string, fields?: LogFields): void {
    this.lines.push({ level: `v${level}`, message, ...(fields ? { fields } : {}) });
  }
  child(): Logger {
    return this;
  }
  text(): string {
    return JSON.stringify(this.lines);
  }
}

export interface Harness {
  cloud: AzureCloud;
  compute: FakeCompute;
  network: FakeNetwork;
  logger: RecordingLogger;
  clock: { now: number };
  /** The registry the cloud records its metrics in. */
  metrics: ReturnType<typeof createMetricsRegistry>;
}

export async function createHarness(config: Record<string, unknown> = CONFIG, options: AzureCloudOptions = {}): Promise<Harness> {
  const compute = new FakeCompute();
  const network = new FakeNetwork(SUBSCRIPTION);
  linkFakes(compute, network);
  compute.addResourceGroup(RESOURCE_GROUP);
  // The cluster's subnets: the nodes' (CONFIG.subnetName) and one for internal load balancers.
  network.addSubnet(RESOURCE_GROUP, 'cluster-vnet', 'nodes', '10.240.0.0/16');
  network.addSubnet(RESOURCE_GROUP, 'cluster-vnet', 'ilb', '10.1.0.0/16');
  const logger = new RecordingLogger();
  const clock = { now: 1_000_000 };
  const metrics = createMetricsRegistry();
  const cloud = await createAzureCloud(
    JSON.stringify(config, null, 2),
    { logger, metrics, configPath: 'azure.json' },
    {
      ports: { compute, network },
      apiBudget: { qps: 1_000_000, burst: 1_000_000, initialBackoffMs: 0, ...options.apiBudget },
      retry: { sleep: async () => {}, ...options.retry },
      now: () => clock.now,
      ...(options.caPem === undefined ? {} : { caPem: options.caPem }),
      ...(options.notFoundGracePeriodSeconds === undefined ? {} : { notFoundGracePeriodSeconds: options.notFoundGracePeriodSeconds }),
    },
  );
  return { cloud, compute, network, logger, clock, metrics };
}

const computeBase = (resourceGroup: string) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/${resourceGroup}/providers/Microsoft.Compute`;

/** A VM (availability set) with one NIC in `network`. */
export function addVirtualMachine(
  harness: Harness,
  name: string,
  privateIp: string,
  extra: Partial<AzureVirtualMachine> & { publicIp?: string; ipv6?: string; resourceGroup?: string } = {},
): AzureVirtualMachine {
  const resourceGroup = extra.resourceGroup ?? RESOURCE_GROUP;
  const nicId = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${resourceGroup}/providers/Microsoft.Network/networkInterfaces/${name}-nic`;
  const publicIpId = extra.publicIp === undefined ? undefined : `/subscriptions/${SUBSCRIPTION}/resourceGroups/${resourceGroup}/providers/Microsoft.Network/publicIPAddresses/${name}-pip`;
  harness.network.addNetworkInterface({
    id: nicId,
    name: `${name}-nic`,
    ipConfigurations: [
      { name: 'ipconfig1', primary: true, privateIpAddress: privateIp, privateIpVersion: 'IPv4', ...(publicIpId === undefined ? {} : { publicIpAddressId: publicIpId }) },
      ...(extra.ipv6 === undefined ? [] : [{ name: 'ipconfig-v6', primary: false, privateIpAddress: extra.ipv6, privateIpVersion: 'IPv6' as const }]),
    ],
  });
  if (publicIpId !== undefined && extra.publicIp !== undefined) harness.network.publicIps.set(publicIpId.toLowerCase(), extra.publicIp);
  const { publicIp: _publicIp, ipv6: _ipv6, ...rest } = extra;
  const vm: AzureVirtualMachine = {
    id: `${computeBase(resourceGroup)}/virtualMachines/${name}`,
    name,
    resourceGroup,
    location: 'eastus',
    zones: [],
    vmSize: 'Standard_D2s_v3',
    computerName: name,
    powerState: 'running',
    provisioningState: 'Succeeded',
    platformFaultDomain: 1,
    networkInterfaceIds: [nicId],
    ...rest,
  };
  harness.compute.addVirtualMachine(vm);
  return vm;
}

/** An instance of a uniform scale set, with its scale-set NIC. */
export function addScaleSetVirtualMachine(harness: Harness, scaleSet: string, instanceId: string, computerName: string, privateIp: string, extra: Partial<AzureVirtualMachine> = {}): AzureVirtualMachine {
  const vmId = `${computeBase(RESOURCE_GROUP)}/virtualMachineScaleSets/${scaleSet}/virtualMachines/${instanceId}`;
  const nicId = `${vmId}/networkInterfaces/${scaleSet}-nic`;
  harness.network.addNetworkInterface({ id: nicId, name: `${scaleSet}-nic`, ipConfigurations: [{ name: 'ipconfig1', primary: true, privateIpAddress: privateIp, privateIpVersion: 'IPv4' }] });
  const vm: AzureVirtualMachine = {
    id: vmId,
    name: `${scaleSet}_${instanceId}`,
    resourceGroup: RESOURCE_GROUP,
    location: 'EastUS',
    zones: ['2'],
    vmSize: 'Standard_D4s_v3',
    computerName,
    powerState: 'running',
    provisioningState: 'Succeeded',
    networkInterfaceIds: [nicId],
    scaleSet: { name: scaleSet, instanceId },
    ...extra,
  };
  harness.compute.addScaleSetVirtualMachine(vm);
  return vm;
}

export function node(name: string, extra: { providerId?: string; labels?: Record<string, string> } = {}): V1Node {
  return {
    metadata: { name, ...(extra.labels === undefined ? {} : { labels: extra.labels }) },
    spec: extra.providerId === undefined ? {} : { providerID: extra.providerId },
  };
}
