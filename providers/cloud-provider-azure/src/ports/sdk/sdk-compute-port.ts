/** The Compute port over `@azure/arm-compute` (the only Compute code importing the SDK). */
import type {
  ComputeManagementClient,
  VirtualMachine,
  VirtualMachineScaleSetVM,
  VirtualMachineInstanceView,
  VirtualMachineScaleSetVMInstanceView,
  NetworkProfile,
  VirtualMachineScaleSetNetworkConfiguration,
} from '@azure/arm-compute';
import { AzureApiError } from '../azure-api-error.js';
import type { AzureScaleSetNetwork, AzureVirtualMachine, ComputePort } from '../compute-port.js';
import { parseArmResourceId } from '../../arm-resource-id.js';
import { pollPromisePoller } from './lro-poll-interval.js';
import { callAzure } from './sdk-errors.js';

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

function powerStateOf(view: VirtualMachineInstanceView | VirtualMachineScaleSetVMInstanceView | undefined): string {
  const status = view?.statuses?.find((entry) => entry.code?.startsWith('PowerState/'));
  return status?.code?.slice('PowerState/'.length) ?? '';
}

function networkInterfaceIdsOf(profile: NetworkProfile | undefined): string[] {
  const interfaces = profile?.networkInterfaces ?? [];
  const primaryFirst = [...interfaces].sort((left, right) => Number(right.primary === true) - Number(left.primary === true));
  return primaryFirst.map((entry) => entry.id ?? '').filter((id) => id !== '');
}

function resourceGroupOf(id: string, fallback: string): string {
  return parseArmResourceId(id)?.resourceGroup ?? fallback;
}

export function virtualMachineOf(vm: VirtualMachine, resourceGroup: string): AzureVirtualMachine {
  const id = vm.id ?? '';
  return {
    id,
    name: vm.name ?? '',
    resourceGroup: resourceGroupOf(id, resourceGroup),
    location: vm.location ?? '',
    zones: vm.zones ?? [],
    vmSize: vm.hardwareProfile?.vmSize ?? '',
    ...(vm.osProfile?.computerName === undefined ? {} : { computerName: vm.osProfile.computerName }),
    powerState: powerStateOf(vm.instanceView),
    provisioningState: vm.provisioningState ?? '',
    ...(vm.instanceView?.platformFaultDomain === undefined ? {} : { platformFaultDomain: vm.instanceView.platformFaultDomain }),
    networkInterfaceIds: networkInterfaceIdsOf(vm.networkProfile),
    ...(vm.virtualMachineScaleSet?.id === undefined ? {} : { flexibleScaleSetId: vm.virtualMachineScaleSet.id }),
  };
}

export function scaleSetVirtualMachineOf(vm: VirtualMachineScaleSetVM, resourceGroup: string, scaleSetName: string): AzureVirtualMachine {
  const id = vm.id ?? '';
  return {
    id,
    name: vm.name ?? '',
    resourceGroup: resourceGroupOf(id, resourceGroup),
    location: vm.location ?? '',
    zones: vm.zones ?? [],
    vmSize: vm.sku?.name ?? vm.hardwareProfile?.vmSize ?? '',
    ...(vm.osProfile?.computerName === undefined ? {} : { computerName: vm.osProfile.computerName }),
    powerState: powerStateOf(vm.instanceView),
    provisioningState: vm.provisioningState ?? '',
    ...(vm.instanceView?.platformFaultDomain === undefined ? {} : { platformFaultDomain: vm.instanceView.platformFaultDomain }),
    networkInterfaceIds: networkInterfaceIdsOf(vm.networkProfile),
    scaleSet: { name: scaleSetName, instanceId: vm.instanceId ?? '' },
  };
}

/** The primary network interface configuration of a list (the only one when there is one). */
function primaryConfiguration(configurations: VirtualMachineScaleSetNetworkConfiguration[]): VirtualMachineScaleSetNetworkConfiguration | undefined {
  return configurations.length === 1 ? configurations[0] : configurations.find((configuration) => configuration.primary === true);
}

export function scaleSetNetworkOf(configurations: VirtualMachineScaleSetNetworkConfiguration[], etag: string | undefined): AzureScaleSetNetwork {
  const primary = primaryConfiguration(configurations);
  const ipConfigurations = primary?.ipConfigurations ?? [];
  return {
    ...(etag === undefined ? {} : { etag }),
    ipConfigurations: ipConfigurations.map((ipConfiguration) => ({
      key: `${primary?.name ?? ''}/${ipConfiguration.name ?? ''}`,
      primary: ipConfigurations.length === 1 || ipConfiguration.primary === true,
      version: ipConfiguration.privateIPAddressVersion === 'IPv6' ? 'IPv6' : 'IPv4',
      loadBalancerBackendAddressPoolIds: (ipConfiguration.loadBalancerBackendAddressPools ?? []).map((pool) => pool.id ?? '').filter((id) => id !== ''),
    })),
  };
}

/** Sets the pools of the IP configuration `key` in `configurations` (in place); throws NotFound when there is none. */
function setPools(operation: string, configurations: VirtualMachineScaleSetNetworkConfiguration[], key: string, poolIds: readonly string[]): void {
  const [configurationName, ipConfigurationName] = key.split('/');
  const ipConfiguration = configurations.find((configuration) => configuration.name === configurationName)?.ipConfigurations?.find((candidate) => candidate.name === ipConfigurationName);
  if (!ipConfiguration) throw new AzureApiError(`no IP configuration ${key}`, { kind: 'NotFound', code: 'NotFound', operation, retryable: false });
  ipConfiguration.loadBalancerBackendAddressPools = poolIds.map((id) => ({ id }));
}

function staleEtag(operation: string, actual: string | undefined, expected: string): AzureApiError {
  return new AzureApiError(`changed since it was read (etag ${String(actual)}, expected ${expected})`, { kind: 'PreconditionFailed', code: 'PreconditionFailed', operation, retryable: false, httpStatus: 412 });
}

export function createSdkComputePort(client: ComputeManagementClient): ComputePort {
  return {
    getScaleSetNetwork: (resourceGroup, scaleSetName, options) =>
      callAzure('compute.getScaleSetNetwork', async () => {
        const scaleSet = await client.virtualMachineScaleSets.get(resourceGroup, scaleSetName, { abortSignal: options?.signal });
        return scaleSetNetworkOf(scaleSet.virtualMachineProfile?.networkProfile?.networkInterfaceConfigurations ?? [], scaleSet.etag);
      }),
    setScaleSetBackendPools: (resourceGroup, scaleSetName, key, poolIds, etag, options) => {
      const operation = 'compute.setScaleSetBackendPools';
      return callAzure(operation, async () => {
        const scaleSet = await client.virtualMachineScaleSets.get(resourceGroup, scaleSetName, { abortSignal: options?.signal });
        if (etag !== undefined && scaleSet.etag !== etag) throw staleEtag(operation, scaleSet.etag, etag);
        const configurations = scaleSet.virtualMachineProfile?.networkProfile?.networkInterfaceConfigurations ?? [];
        setPools(operation, configurations, key, poolIds);
        // A PATCH of the network profile alone (upstream sends the model's network profile too).
        await pollPromisePoller(
          client.virtualMachineScaleSets.update(
            resourceGroup,
            scaleSetName,
            { virtualMachineProfile: { networkProfile: { networkInterfaceConfigurations: configurations } } },
            { abortSignal: options?.signal, ...(scaleSet.etag === undefined ? {} : { ifMatch: scaleSet.etag }) },
          ),
          options?.signal,
        );
      });
    },
    getScaleSetVirtualMachineNetwork: (resourceGroup, scaleSetName, instanceId, options) =>
      callAzure('compute.getScaleSetVirtualMachineNetwork', async () => {
        const vm = await client.virtualMachineScaleSetVMs.get(resourceGroup, scaleSetName, instanceId, { abortSignal: options?.signal });
        return scaleSetNetworkOf(vm.networkProfileConfiguration?.networkInterfaceConfigurations ?? [], vm.etag);
      }),
    setScaleSetVirtualMachineBackendPools: (resourceGroup, scaleSetName, instanceId, key, poolIds, etag, options) => {
      const operation = 'compute.setScaleSetVirtualMachineBackendPools';
      return callAzure(operation, async () => {
        const vm = await client.virtualMachineScaleSetVMs.get(resourceGroup, scaleSetName, instanceId, { abortSignal: options?.signal });
        if (etag !== undefined && vm.etag !== etag) throw staleEtag(operation, vm.etag, etag);
        const configurations = vm.networkProfileConfiguration?.networkInterfaceConfigurations ?? [];
        setPools(operation, configurations, key, poolIds);
        await pollPromisePoller(
          client.virtualMachineScaleSetVMs.update(
            resourceGroup,
            scaleSetName,
            instanceId,
            { location: vm.location, networkProfileConfiguration: { networkInterfaceConfigurations: configurations } },
            { abortSignal: options?.signal, ...(vm.etag === undefined ? {} : { ifMatch: vm.etag }) },
          ),
          options?.signal,
        );
      });
    },
    listVirtualMachines: (resourceGroup, options) =>
      callAzure('compute.listVirtualMachines', async () =>
        (await collect(client.virtualMachines.list(resourceGroup, { expand: 'instanceView', abortSignal: options?.signal }))).map((vm) => virtualMachineOf(vm, resourceGroup)),
      ),
    listScaleSets: (resourceGroup, options) =>
      callAzure('compute.listScaleSets', async () =>
        (await collect(client.virtualMachineScaleSets.list(resourceGroup, { abortSignal: options?.signal })))
          .filter((scaleSet) => scaleSet.orchestrationMode !== 'Flexible')
          .map((scaleSet) => scaleSet.name ?? '')
          .filter((name) => name !== ''),
      ),
    listScaleSetVirtualMachines: (resourceGroup, scaleSetName, options) =>
      callAzure('compute.listScaleSetVirtualMachines', async () =>
        (await collect(client.virtualMachineScaleSetVMs.list(resourceGroup, scaleSetName, { expand: 'instanceView', abortSignal: options?.signal }))).map((vm) =>
          scaleSetVirtualMachineOf(vm, resourceGroup, scaleSetName),
        ),
      ),
  };
}
