/**
 * A node's addresses from its primary NIC (upstream `getIPForMachine` / `GetPrivateIPsByNodeName`):
 * InternalIP = the primary IP configuration's private IP, Hostname = the node name, ExternalIP =
 * the public IP attached to that IP configuration; private IPs of the other family (dual-stack)
 * follow as InternalIP.
 */
import type { NodeAddress } from '@ccm/core/provider';
import { CloudStateError } from '../errors.js';
import type { AzureVirtualMachine } from '../ports/compute-port.js';
import type { AzureIpConfiguration, AzureNetworkInterface, NetworkPort } from '../ports/network-port.js';

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
  const otherFamily = nic.ipConfigurations.find((config) => config !== primary && config.privateIpAddress && config.privateIpVersion !== primary?.privateIpVersion);
  if (otherFamily?.privateIpAddress) addresses.push({ type: 'InternalIP', address: otherFamily.privateIpAddress });
  return addresses;
}

export class NodeAddressOperations {
  readonly #network: NetworkPort;

  constructor(network: NetworkPort) {
    this.#network = network;
  }

  async primaryNetworkInterface(vm: AzureVirtualMachine): Promise<AzureNetworkInterface> {
    const nicId = vm.networkInterfaceIds[0];
    if (nicId === undefined) throw new CloudStateError(`VM ${vm.id} has no network interface`);
    return this.#network.getNetworkInterface(nicId);
  }

  /** One NIC GET, plus one public IP GET when the primary IP configuration has one. */
  async addressesOf(vm: AzureVirtualMachine, nodeName: string): Promise<NodeAddress[]> {
    const nic = await this.primaryNetworkInterface(vm);
    const publicIpId = primaryIpConfiguration(nic)?.publicIpAddressId;
    const publicIp = publicIpId === undefined ? '' : await this.#network.getPublicIpAddress(publicIpId);
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
