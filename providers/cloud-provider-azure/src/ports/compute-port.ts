/**
 * The Compute calls the Azure operations make, in the provider's own types (declared by their
 * consumer, `operations/instance-cache.ts`). Lists are per resource group or per scale set: the
 * provider answers per-node questions from cached lists, never with one GET per node.
 */
import type { CloudCallOptions } from '@ccm/core/provider';

/** A VM or a scale-set VM, as the instance operations need it. */
export interface AzureVirtualMachine {
  /** ARM resource ID as ARM returned it. */
  id: string;
  name: string;
  /** Resource group, as it appears in `id`. */
  resourceGroup: string;
  location: string;
  /** Availability zones (`["1"]`), empty when not zoned. */
  zones: string[];
  /** `hardwareProfile.vmSize` (VM) or `sku.name` (scale-set VM). */
  vmSize: string;
  /** `osProfile.computerName`, when set. */
  computerName?: string;
  /** From the instance view: `running`, `stopped`, `deallocated`, ...; '' when unknown. */
  powerState: string;
  provisioningState: string;
  /** `instanceView.platformFaultDomain`, when reported. */
  platformFaultDomain?: number;
  /** NIC resource IDs, the primary one first. */
  networkInterfaceIds: string[];
  /** The scale set of a uniform scale-set VM (and its instance ID). */
  scaleSet?: { name: string; instanceId: string };
  /** A VM of a flexible scale set: the scale set's resource ID. */
  flexibleScaleSetId?: string;
}

/** One IP configuration of a scale set's (or scale-set VM's) network interface configuration. */
export interface AzureScaleSetIpConfiguration {
  /** `<nic configuration name>/<ip configuration name>`. */
  key: string;
  primary: boolean;
  version: 'IPv4' | 'IPv6';
  loadBalancerBackendAddressPoolIds: string[];
}

/** The network model of a uniform scale set or of one of its VMs, with the etag to write it back. */
export interface AzureScaleSetNetwork {
  etag?: string;
  /** IP configurations of the primary network interface configuration. */
  ipConfigurations: AzureScaleSetIpConfiguration[];
}

export interface ComputePort {
  /** Every VM of a resource group, with instance views (`$expand=instanceView`). */
  listVirtualMachines(resourceGroup: string, options?: CloudCallOptions): Promise<AzureVirtualMachine[]>;
  /** Names of the scale sets of a resource group. */
  listScaleSets(resourceGroup: string, options?: CloudCallOptions): Promise<string[]>;
  /** Every VM of a uniform scale set, with instance views. */
  listScaleSetVirtualMachines(resourceGroup: string, scaleSetName: string, options?: CloudCallOptions): Promise<AzureVirtualMachine[]>;
  /** The scale set model's primary network configuration. Throws NotFound. */
  getScaleSetNetwork(resourceGroup: string, scaleSetName: string, options?: CloudCallOptions): Promise<AzureScaleSetNetwork>;
  /** Sets the backend pools of one IP configuration (`key`) of the scale set model (If-Match `etag`); waits for the long-running operation. */
  setScaleSetBackendPools(resourceGroup: string, scaleSetName: string, key: string, poolIds: readonly string[], etag: string | undefined, options?: CloudCallOptions): Promise<void>;
  /** One scale-set VM's network configuration. Throws NotFound. */
  getScaleSetVirtualMachineNetwork(resourceGroup: string, scaleSetName: string, instanceId: string, options?: CloudCallOptions): Promise<AzureScaleSetNetwork>;
  /** Sets the backend pools of one IP configuration of a scale-set VM (If-Match `etag`); waits for the long-running operation. */
  setScaleSetVirtualMachineBackendPools(resourceGroup: string, scaleSetName: string, instanceId: string, key: string, poolIds: readonly string[], etag: string | undefined, options?: CloudCallOptions): Promise<void>;
}
