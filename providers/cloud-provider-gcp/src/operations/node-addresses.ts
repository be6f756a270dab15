/**
 * Node addresses of an instance as upstream reports them (`nodeAddressesFromInstance`): per
 * network interface the internal IP, every external NAT IP, and the IPv6 address (the internal
 * one, else the external IPv6 access config of an EXTERNAL interface) as InternalIP; IPv4 first,
 * or IPv6 first when `stack-type = IPV6`. No hostname on the API path.
 */
import type { NodeAddress } from '@ccm/core/provider';
import type { StackType } from '../config/read-gce-cloud-config.js';
import type { GceInstance } from '../ports/compute-port.js';

const isIpv6 = (address: string): boolean => address.includes(':');

export function nodeAddressesOf(instance: GceInstance, stackType: StackType): NodeAddress[] {
  const addresses: NodeAddress[] = [];
  for (const nic of instance.networkInterfaces) {
    if (nic.networkIP) addresses.push({ type: 'InternalIP', address: nic.networkIP });
    for (const config of nic.accessConfigs) if (config.natIP) addresses.push({ type: 'ExternalIP', address: config.natIP });
    const ipv6 = nic.ipv6Address ?? (nic.ipv6AccessType === 'EXTERNAL' ? nic.ipv6AccessConfigs.find((config) => config.externalIpv6)?.externalIpv6 : undefined);
    if (ipv6) addresses.push({ type: 'InternalIP', address: ipv6 });
  }
  const ipv6First = stackType === 'IPV6';
  const v4 = addresses.filter((entry) => !isIpv6(entry.address));
  const v6 = addresses.filter((entry) => isIpv6(entry.address));
  return ipv6First ? [...v6, ...v4] : [...v4, ...v6];
}
