/** The Compute port over `@azure/arm-compute` (the only Compute code importing the SDK). */
import type { ComputeManagementClient, VirtualMachine, VirtualMachineScaleSetVM, VirtualMachineInstanceView, VirtualMachineScaleSetVMInstanceView, NetworkProfile } from '@azure/arm-compute';
import type { AzureVirtualMachine, ComputePort } from '../compute-port.js';
import { parseArmResourceId } from '../../arm-resource-id.js';
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

export function createSdkComputePort(client: ComputeManagementClient): ComputePort {
  return {
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
