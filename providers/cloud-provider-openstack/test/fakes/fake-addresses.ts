/** Address checks the fakes make as Neutron does: an address inside a subnet's CIDR, an address or CIDR well formed. */
import { cidrContains, parseIpAddress, tryParseCidr } from '@ccm/core/net';

/** Whether `address` is an IP address inside `cidr` (false for anything malformed). */
export function addressInCidr(address: string, cidr: string): boolean {
  const parsedCidr = tryParseCidr(cidr);
  const parsedAddress = parseIpAddress(address);
  return parsedCidr !== undefined && parsedAddress !== undefined && cidrContains(parsedCidr, parsedAddress);
}

/** Whether `text` is an IP address or a CIDR (what Neutron accepts as an allowed address pair). */
export function isAddressOrCidr(text: string): boolean {
  return parseIpAddress(text) !== undefined || tryParseCidr(text) !== undefined;
}
