import { isIPv4, isIPv6 } from 'node:net';
import { formatIpAddress, parseIpAddress, tryParseCidr } from '@ccm/core/net';
import { SandboxCloudError } from './sandbox-cloud-error.js';

/** Hands out addresses from a range, lowest free first; addresses can be reserved and released. */
export interface AddressPool {
  allocate(): string;
  /** Marks a caller-chosen address as used (it may lie outside the range). */
  reserve(address: string): void;
  release(address: string): void;
  clear(): void;
}

/** An IPv4 CIDR pool; the network address, the first host (gateway) and the broadcast are never handed out. */
export class Ipv4AddressPool implements AddressPool {
  readonly #first: bigint;
  readonly #last: bigint;
  readonly #used = new Set<string>();
  readonly #description: string;
  /** No free address below this one: allocation starts here (linear over a pool, not quadratic). */
  #lowestMaybeFree: bigint;

  constructor(cidr: string, description: string) {
    const base = cidr.split('/')[0];
    const parsed = base !== undefined && isIPv4(base) ? tryParseCidr(cidr) : undefined;
    if (parsed === undefined || parsed.prefixLength < 8 || parsed.prefixLength > 30) {
      throw new Error(`invalid IPv4 pool ${JSON.stringify(cidr)}`);
    }
    const size = 1n << BigInt(32 - parsed.prefixLength);
    this.#first = parsed.network + 2n;
    this.#last = parsed.network + size - 2n;
    this.#description = description;
    this.#lowestMaybeFree = this.#first;
  }

  allocate(): string {
    for (let value = this.#lowestMaybeFree; value <= this.#last; value++) {
      const address = formatIpAddress({ family: 4, value });
      if (!this.#used.has(address)) {
        this.#used.add(address);
        this.#lowestMaybeFree = value + 1n;
        return address;
      }
    }
    this.#lowestMaybeFree = this.#last + 1n;
    throw new SandboxCloudError('AddressPoolExhausted', `no free address left in the ${this.#description} pool`);
  }

  reserve(address: string): void {
    if (!isIPv4(address)) throw new SandboxCloudError('InvalidArgument', `${JSON.stringify(address)} is not an IPv4 address`);
    if (this.#used.has(address)) throw new SandboxCloudError('AlreadyExists', `address ${address} is already in use`);
    this.#used.add(address);
  }

  release(address: string): void {
    if (!this.#used.delete(address)) return;
    const parsed = parseIpAddress(address);
    if (parsed?.family === 4 && parsed.value < this.#lowestMaybeFree) this.#lowestMaybeFree = parsed.value < this.#first ? this.#first : parsed.value;
  }

  clear(): void {
    this.#used.clear();
    this.#lowestMaybeFree = this.#first;
  }
}

/** An IPv6 pool under a `/64`-style prefix written as `fd00:10::`; hands out `prefix` + a counter. */
export class Ipv6AddressPool implements AddressPool {
  readonly #prefix: string;
  readonly #used = new Set<string>();
  #next = 2;

  constructor(prefix: string) {
    if (!prefix.endsWith('::') || !isIPv6(`${prefix}1`)) throw new Error(`invalid IPv6 pool prefix ${JSON.stringify(prefix)}`);
    this.#prefix = prefix;
  }

  allocate(): string {
    for (;;) {
      const address = `${this.#prefix}${(this.#next++).toString(16)}`;
      if (!this.#used.has(address)) {
        this.#used.add(address);
        return address;
      }
    }
  }

  reserve(address: string): void {
    if (!isIPv6(address)) throw new SandboxCloudError('InvalidArgument', `${JSON.stringify(address)} is not an IPv6 address`);
    if (this.#used.has(address)) throw new SandboxCloudError('AlreadyExists', `address ${address} is already in use`);
    this.#used.add(address);
  }

  release(address: string): void {
    this.#used.delete(address);
  }

  clear(): void {
    this.#used.clear();
    this.#next = 2;
  }
}
