/** IP and CIDR helpers for Service and Node validation and Service IP allocation. */
import { isIPv4, isIPv6 } from 'node:net';

export { isIPv4, isIPv6 };

export const isIp = (value: string): boolean => isIPv4(value) || isIPv6(value);

export function ipFamily(value: string): 'IPv4' | 'IPv6' | undefined {
  if (isIPv4(value)) return 'IPv4';
  if (isIPv6(value)) return 'IPv6';
  return undefined;
}

/** Parses `address/prefix`; undefined when invalid. */
export function parseCidr(value: string): { address: string; prefix: number; family: 'IPv4' | 'IPv6' } | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const address = value.slice(0, slash);
  const prefixText = value.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  const family = ipFamily(address);
  if (!family || prefix > (family === 'IPv4' ? 32 : 128)) return undefined;
  return { address, prefix, family };
}

export function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((total, octet) => total * 256 + Number(octet), 0);
}

export function numberToIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}
