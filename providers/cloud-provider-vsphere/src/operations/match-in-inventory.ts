/**
 * Matching a discovery step (a BIOS UUID, a guest DNS name, an IP) against a VM inventory read
 * for all VMs at once, without asking vCenter. The inventory only ever answers "this VM": when it
 * has no VM for the step, or more than one VM that vCenter's own search could return, or a part
 * could not be read, the answer is "ask vCenter", and the caller searches as upstream does
 * (SearchIndex FindByUuid / FindAllByDnsName / FindByIp). So "not found" always comes from
 * vCenter, and the inventory answers only where every plausible reading of vCenter's search gives
 * that same VM:
 * - UUID: vCenter may compare `config.uuid` with or without case; vcsim compares exactly. A sure
 *   match is the one VM whose UUID equals the value exactly, with no other VM equal ignoring case.
 * - DNS name: vcsim compares `guest.hostName` exactly; vCenter may ignore case and (not
 *   documented) relate short and fully qualified names. A sure match is the one VM whose hostname
 *   equals the value exactly, with no other VM whose hostname equals it ignoring case or shares
 *   its first label. Several would make vCenter answer several VMs (an error upstream) or one by
 *   its own choice: vCenter decides.
 * - IP: vcsim compares `guest.ipAddress`; vCenter may also look at every `guest.net` address. A
 *   sure match is the one VM whose `guest.ipAddress` is the value exactly, with no other VM
 *   reporting that address (in any spelling) anywhere.
 * Parts are searched in config order (vCenters, then their datacenters), as the searches are.
 */
import { parseIp } from '../net/ip-address.js';
import type { ObjectRef, VmIdentity } from '../ports/vcenter-port.js';

export type DiscoveryStep = { by: 'uuid'; value: string } | { by: 'dnsName'; value: string } | { by: 'ip'; value: string };

/** The VMs of one searched place (a datacenter of a vCenter), or a place that could not be read. */
export type InventoryPart<Place> = { place: Place; vms: readonly VmIdentity[] } | { place?: undefined; vms: undefined };

export type InventoryMatch<Place> =
  | { kind: 'found'; place: Place; ref: ObjectRef }
  /** No VM for the step in the inventory: vCenter may still have one (created since, or matched its own way). */
  | { kind: 'ask-vcenter'; reason: 'absent' | 'ambiguous' | 'unread' };

export function matchInInventory<Place>(parts: readonly InventoryPart<Place>[], step: DiscoveryStep): InventoryMatch<Place> {
  if (step.value === '') return { kind: 'ask-vcenter', reason: 'absent' };
  for (const part of parts) {
    if (part.vms === undefined) return { kind: 'ask-vcenter', reason: 'unread' };
    const candidates = part.vms.filter((vm) => mayMatch(vm, step));
    if (candidates.length === 0) continue;
    const [only] = candidates;
    if (candidates.length === 1 && only !== undefined && surelyMatches(only, step)) return { kind: 'found', place: part.place, ref: only.ref };
    return { kind: 'ask-vcenter', reason: 'ambiguous' };
  }
  return { kind: 'ask-vcenter', reason: 'absent' };
}

/** Whether vCenter's search for `step` returns this VM under every reading of its rules (exact equality). */
export function surelyMatches(vm: Pick<VmIdentity, 'uuid' | 'guestHostName' | 'guestIpAddress'>, step: DiscoveryStep): boolean {
  if (step.value === '') return false;
  switch (step.by) {
    case 'uuid':
      return vm.uuid === step.value;
    case 'dnsName':
      return vm.guestHostName === step.value;
    case 'ip':
      return vm.guestIpAddress === step.value;
  }
}

/** Whether vCenter's search for `step` could return this VM under some reading of its rules. */
function mayMatch(vm: VmIdentity, step: DiscoveryStep): boolean {
  switch (step.by) {
    case 'uuid':
      return vm.uuid.toLowerCase() === step.value.toLowerCase();
    case 'dnsName': {
      if (vm.guestHostName === '') return false;
      const hostName = vm.guestHostName.toLowerCase();
      const wanted = step.value.toLowerCase();
      return hostName === wanted || firstLabel(hostName) === firstLabel(wanted);
    }
    case 'ip': {
      const wanted = ipKey(step.value);
      return [vm.guestIpAddress, ...vm.guestIps].some((address) => address !== '' && (address === step.value || (wanted !== undefined && ipKey(address) === wanted)));
    }
  }
}

function firstLabel(name: string): string {
  const dot = name.indexOf('.');
  return dot < 0 ? name : name.slice(0, dot);
}

function ipKey(text: string): string | undefined {
  const ip = parseIp(text);
  return ip === undefined ? undefined : `${ip.family}:${ip.bytes.join('.')}`;
}
