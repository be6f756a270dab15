/**
 * Address arithmetic for the simulator: the next free private address of a subnet prefix (Azure
 * keeps the first four and the last address of every IPv4 subnet) and public addresses from
 * documentation-free pools that look like Azure's.
 */
import { isIPv4, isIPv6 } from 'node:net';

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((total, part) => total * 256 + Number(part), 0);
}

function numberToIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

function ipv6ToBigInt(address: string): bigint {
  const [head = '', tail = ''] = address.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = address.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  const parts = address.includes('::') ? [...headParts, ...Array(8 - headParts.length - tailParts.length).fill('0'), ...tailParts] : headParts;
  return parts.reduce((total, part) => (total << 16n) + BigInt(parseInt(part || '0', 16)), 0n);
}

function bigIntToIpv6(value: bigint): string {
  const parts: string[] = [];
  for (let index = 7; index >= 0; index -= 1) parts.push(((value >> BigInt(index * 16)) & 0xffffn).toString(16));
  return parts.join(':').replace(/(^|:)0(:0)+(:|$)/, '::').replace(/:{3,}/, '::');
}

export interface ParsedPrefix {
  version: 'IPv4' | 'IPv6';
  first: bigint;
  last: bigint;
}

export function parsePrefix(prefix: string): ParsedPrefix | undefined {
  const [address = '', lengthText = ''] = prefix.split('/');
  const length = Number(lengthText);
  if (!/^\d+$/.test(lengthText)) return undefined;
  if (isIPv4(address) && length <= 32) {
    const size = 2n ** BigInt(32 - length);
    const first = (BigInt(ipv4ToNumber(address)) / size) * size;
    return { version: 'IPv4', first, last: first + size - 1n };
  }
  if (isIPv6(address) && length <= 128) {
    const size = 2n ** BigInt(128 - length);
    const first = (ipv6ToBigInt(address) / size) * size;
    return { version: 'IPv6', first, last: first + size - 1n };
  }
  return undefined;
}

const toText = (version: 'IPv4' | 'IPv6', value: bigint): string => (version === 'IPv4' ? numberToIpv4(Number(value)) : bigIntToIpv6(value));
const toValue = (address: string): bigint | undefined => (isIPv4(address) ? BigInt(ipv4ToNumber(address)) : isIPv6(address) ? ipv6ToBigInt(address) : undefined);

export function prefixContains(prefix: string, address: string): boolean {
  const parsed = parsePrefix(prefix);
  const value = toValue(address);
  if (!parsed || value === undefined || (parsed.version === 'IPv4') !== isIPv4(address)) return false;
  return value >= parsed.first + 4n && value <= (parsed.version === 'IPv4' ? parsed.last - 1n : parsed.last);
}

/** The lowest usable address of `prefix` not in `used` (compared canonically), or undefined when full. */
export function nextFreeAddress(prefix: string, used: Iterable<string>): string | undefined {
  const parsed = parsePrefix(prefix);
  if (!parsed) return undefined;
  const taken = new Set<bigint>();
  for (const address of used) {
    const value = toValue(address);
    if (value !== undefined) taken.add(value);
  }
  const last = parsed.version === 'IPv4' ? parsed.last - 1n : parsed.last;
  for (let candidate = parsed.first + 4n; candidate <= last && candidate < parsed.first + 65536n; candidate += 1n) {
    if (!taken.has(candidate)) return toText(parsed.version, candidate);
  }
  return undefined;
}

/** Public addresses: IPv4 from 20.0.0.0/8 upwards, IPv6 from 2603:1030::/32 (Azure's public ranges). */
export class PublicAddressPool {
  private nextIpv4 = BigInt(ipv4ToNumber('20.62.0.10'));
  private nextIpv6 = ipv6ToBigInt('2603:1030:805::10');

  allocate(version: 'IPv4' | 'IPv6', inUse: ReadonlySet<string>): string {
    for (;;) {
      const address = version === 'IPv4' ? numberToIpv4(Number(this.nextIpv4++)) : bigIntToIpv6(this.nextIpv6++);
      if (!inUse.has(address)) return address;
    }
  }
}
