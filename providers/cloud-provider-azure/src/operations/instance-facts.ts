/** Pure facts of a VM as upstream reports them: shutdown, zone, region, provider ID. */
import { formatAzureProviderId, parseAzureProviderId } from '../provider-id.js';
import { CloudStateError } from '../errors.js';
import type { AzureVirtualMachine } from '../ports/compute-port.js';

const SHUT_DOWN_POWER_STATES = new Set(['stopped', 'deallocated', 'deallocating']);

/** Upstream `InstanceShutdown`: a stopped/deallocat(ed|ing) power state and a Succeeded provisioning state. */
export function isShutDown(vm: AzureVirtualMachine): boolean {
  return SHUT_DOWN_POWER_STATES.has(vm.powerState.toLowerCase()) && vm.provisioningState.toLowerCase() === 'succeeded';
}

/** Zoned: `<location>-<zone>`; otherwise the platform fault domain ("0" when not reported). */
export function zoneOf(vm: AzureVirtualMachine): string {
  const zone = vm.zones[0];
  if (zone !== undefined && zone !== '') return `${vm.location.toLowerCase()}-${zone}`;
  return String(vm.platformFaultDomain ?? 0);
}

export function regionOf(vm: AzureVirtualMachine): string {
  return vm.location.toLowerCase();
}

/** The provider ID of a VM: `azure://` + its ARM ID with the resource group lower-cased. */
export function providerIdOf(vm: AzureVirtualMachine): string {
  const ref = parseAzureProviderId(vm.id);
  if (ref === undefined) throw new CloudStateError(`VM ID ${JSON.stringify(vm.id)} is not a Microsoft.Compute VM resource ID`);
  return formatAzureProviderId(ref);
}
