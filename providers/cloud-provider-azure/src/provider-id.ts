/**
 * Azure provider IDs, exactly as upstream writes them (stable identifiers: never change them):
 *
 * - a VM (availability set, standalone, flexible scale set):
 *   `azure:///subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Compute/virtualMachines/<vm>`
 * - an instance of a uniform scale set:
 *   `azure:///subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Compute/virtualMachineScaleSets/<vmss>/virtualMachines/<instanceId>`
 *
 * The resource group segment is lower-cased (upstream `ConvertResourceGroupNameToLower`).
 */
export const AZURE_PROVIDER_NAME = 'azure';

const PREFIX = `${AZURE_PROVIDER_NAME}://`;

export type AzureInstanceRef =
  | { kind: 'vm'; subscriptionId: string; resourceGroup: string; name: string }
  | { kind: 'vmss-vm'; subscriptionId: string; resourceGroup: string; scaleSetName: string; instanceId: string };

export class AzureProviderIdError extends Error {
  readonly kind = 'InvalidProviderId' as const;

  constructor(providerId: string, reason: string) {
    super(`invalid Azure provider ID ${JSON.stringify(providerId)}: ${reason}`);
    this.name = 'AzureProviderIdError';
  }
}

/** The ARM resource ID of an instance, resource group lower-cased. */
export function armIdOfInstance(ref: AzureInstanceRef): string {
  const base = `/subscriptions/${ref.subscriptionId}/resourceGroups/${ref.resourceGroup.toLowerCase()}/providers/Microsoft.Compute`;
  return ref.kind === 'vm' ? `${base}/virtualMachines/${ref.name}` : `${base}/virtualMachineScaleSets/${ref.scaleSetName}/virtualMachines/${ref.instanceId}`;
}

export function formatAzureProviderId(ref: AzureInstanceRef): string {
  return `${PREFIX}${armIdOfInstance(ref)}`;
}

const VMSS_VM = /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/providers\/Microsoft\.Compute\/virtualMachineScaleSets\/([^/]+)\/virtualMachines\/([^/]+)$/i;
const VM = /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/providers\/Microsoft\.Compute\/virtualMachines\/([^/]+)$/i;

/**
 * Parses a provider ID (or a bare ARM ID). The instance ID of a scale-set VM may appear as
 * `<vmss>_<n>` (the disk `managedBy` form) and is normalised to `<n>`. Returns `undefined` for an
 * ID that is not an Azure compute resource (upstream: an unmanaged node).
 */
export function parseAzureProviderId(providerId: string): AzureInstanceRef | undefined {
  const id = providerId.startsWith(PREFIX) ? providerId.slice(PREFIX.length) : providerId;
  const scaleSet = VMSS_VM.exec(id);
  if (scaleSet) {
    const [, subscriptionId = '', resourceGroup = '', scaleSetName = '', rawInstanceId = ''] = scaleSet;
    const underscore = rawInstanceId.lastIndexOf('_');
    const instanceId = underscore >= 0 ? rawInstanceId.slice(underscore + 1) : rawInstanceId;
    return { kind: 'vmss-vm', subscriptionId, resourceGroup: resourceGroup.toLowerCase(), scaleSetName, instanceId };
  }
  const vm = VM.exec(id);
  if (vm) {
    const [, subscriptionId = '', resourceGroup = '', name = ''] = vm;
    return { kind: 'vm', subscriptionId, resourceGroup: resourceGroup.toLowerCase(), name };
  }
  return undefined;
}

/** Whether the provider ID names an Azure compute resource (upstream `IsNodeUnmanagedByProviderID`, negated). */
export function isManagedProviderId(providerId: string): boolean {
  return providerId.startsWith(`${PREFIX}/subscriptions/`) && parseAzureProviderId(providerId) !== undefined;
}
