/**
 * A node's addresses from its primary NIC (upstream `getIPForMachine` / `GetPrivateIPsByNodeName`):
 * InternalIP = the primary IP configuration's private IP, Hostname = the node name, ExternalIP =
 * the public IP attached to that IP configuration. A dual-stack NIC's other-family address is not
 * reported (upstream's ARM path does not either).
 */
import type { NodeAddress } from '@ccm/core/provider';
import { CloudStateError } from '../errors.js';
import type { AzureVirtualMachine } from '../ports/compute-port.js';
import type { AzureIpConfiguration, AzureNetworkInterface, NetworkPort } from '../ports/network-port.js';
import { parseArmResourceId } from '../arm-resource-id.js';
import { TimedListCache } from './timed-list-cache.js';

export function primaryIpConfiguration(nic: AzureNetworkInterface): AzureIpConfiguration | undefined {
  return nic.ipConfigurations.find((config) => config.primary) ?? nic.ipConfigurations[0];
}

/** The node's addresses in upstream order, from the NIC (and the public IP when one is attached). */
export function planNodeAddresses(nodeName: string, nic: AzureNetworkInterface, publicIp: string): NodeAddress[] {
  const primary = primaryIpConfiguration(nic);
  const addresses: NodeAddress[] = [];
  if (primary?.privateIpAddress) addresses.push({ type: 'InternalIP', address: primary.privateIpAddress });
  addresses.push({ type: 'Hostname', address: nodeName });
  if (publicIp !== '') addresses.push({ type: 'ExternalIP', address: publicIp });
  // Upstream's ARM path (`NodeAddresses` over `getIPForMachine`) reports the primary IP
  // configuration's address only: a dual-stack NIC's other family is no address of the node here.
  return addresses;
}

export interface NodeAddressSettings {
  /** Refresh period of the NIC and public IP lists of a resource group (vmCacheTTLInSeconds). */
  networkInterfacesCacheTtlMs: number;
  /** Refresh period of the NIC list of a scale set (vmssVirtualMachinesCacheTTLInSeconds). */
  scaleSetNetworkInterfacesCacheTtlMs: number;
  now?: () => number;
}

/**
 * NICs and public IPs from cached lists (per resource group, per scale set), like the VMs: a new
 * node costs no NIC call once its list is fresh. A NIC or public IP missing from a fresh list is
 * read by ID (and is NotFound when it is really gone).
 */
export class NodeAddressOperations {
  readonly #network: NetworkPort;
  readonly #networkInterfaces: TimedListCache<AzureNetworkInterface>;
  readonly #scaleSetNetworkInterfaces: TimedListCache<AzureNetworkInterface>;
  readonly #publicIps: TimedListCache<{ id: string; ipAddress: string }>;

  constructor(network: NetworkPort, settings: NodeAddressSettings) {
    this.#network = network;
    const cache = (ttlMs: number) => ({ ttlMs, ...(settings.now === undefined ? {} : { now: settings.now }) });
    this.#networkInterfaces = new TimedListCache(cache(settings.networkInterfacesCacheTtlMs));
    this.#scaleSetNetworkInterfaces = new TimedListCache(cache(settings.scaleSetNetworkInterfacesCacheTtlMs));
    this.#publicIps = new TimedListCache(cache(settings.networkInterfacesCacheTtlMs));
  }

  async primaryNetworkInterface(vm: AzureVirtualMachine): Promise<AzureNetworkInterface> {
    const nicId = vm.networkInterfaceIds[0];
    if (nicId === undefined) throw new CloudStateError(`VM ${vm.id} has no network interface`);
    const parsed = parseArmResourceId(nicId);
    const types = parsed?.segments.map(([type]) => type.toLowerCase()).join('/');
    const sameId = (nic: AzureNetworkInterface): boolean => nic.id.toLowerCase() === nicId.toLowerCase();
    let found: AzureNetworkInterface | undefined;
    if (parsed && types === 'networkinterfaces') {
      found = (await this.#networkInterfaces.list(parsed.resourceGroup.toLowerCase(), () => this.#network.listNetworkInterfaces(parsed.resourceGroup))).find(sameId);
    } else if (parsed && types === 'virtualmachinescalesets/virtualmachines/networkinterfaces') {
      const scaleSet = parsed.segments[0]?.[1] ?? '';
      found = (await this.#scaleSetNetworkInterfaces.list(`${parsed.resourceGroup.toLowerCase()}/${scaleSet.toLowerCase()}`, () => this.#network.listScaleSetNetworkInterfaces(parsed.resourceGroup, scaleSet))).find(sameId);
    }
    return found ?? this.#network.getNetworkInterface(nicId);
  }

  async #publicIpAddress(publicIpId: string): Promise<string> {
    const parsed = parseArmResourceId(publicIpId);
    if (parsed && parsed.segments.length === 1) {
      const found = (await this.#publicIps.list(parsed.resourceGroup.toLowerCase(), () => this.#network.listPublicIpAddresses(parsed.resourceGroup))).find((address) => address.id.toLowerCase() === publicIpId.toLowerCase());
      if (found) return found.ipAddress;
    }
    return this.#network.getPublicIpAddress(publicIpId);
  }

  /** The node's addresses from the cached NIC (and public IP) lists. */
  async addressesOf(vm: AzureVirtualMachine, nodeName: string): Promise<NodeAddress[]> {
    const nic = await this.primaryNetworkInterface(vm);
    const publicIpId = primaryIpConfiguration(nic)?.publicIpAddressId;
    const publicIp = publicIpId === undefined ? '' : await this.#publicIpAddress(publicIpId);
    return planNodeAddresses(nodeName, nic, publicIp);
  }

  /** The private IPs of the VM's primary NIC, primary first (the next hop of its routes). */
  async privateIpsOf(vm: AzureVirtualMachine): Promise<string[]> {
    const nic = await this.primaryNetworkInterface(vm);
    const primary = primaryIpConfiguration(nic);
    const ordered = [...(primary ? [primary] : []), ...nic.ipConfigurations.filter((config) => config !== primary)];
    return ordered.map((config) => config.privateIpAddress ?? '').filter((ip) => ip !== '');
  }
}
