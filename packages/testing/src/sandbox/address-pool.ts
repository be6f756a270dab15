import { isIPv4, isIPv6 } from 'node:net';
import { SandboxCloudError } from './sandbox-cloud-error.js';

/** Hands out addresses from a range, lowest free first; addresses can be reserved and released. */
export interface AddressPool {
  allocate(): string;
  /** Marks a caller-chosen address as used (it may lie outside the range). */
  reserve(address: string): void;
  release(address: string): void;
  clear(): void;
}

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function numberToIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** An IPv4 CIDR pool; the network address, the first host (gateway) and the broadcast are never handed out. */
export class Ipv4AddressPool implements AddressPool {
  readonly #first: number;
  readonly #last: number;
  readonly #used = new Set<string>();
  readonly #description: string;

  constructor(cidr: string, description: string) {
    const [base, prefixText] = cidr.split('/');
    const prefix = Number(prefixText);
    if (base === undefined || !isIPv4(base) || !Number.isInteger(prefix) || prefix < 8 || prefix > 30) {
      throw new Error(`invalid IPv4 pool ${JSON.stringify(cidr)}`);
    }
    const size = 2 ** (32 - prefix);
    const network = Math.floor(ipv4ToNumber(base) / size) * size;
    this.#first = network + 2;
    this.#last = network + size - 2;
    this.#description = description;
  }

  allocate(): string {
    for (let value = this.#first; value <= this.#last; value++) {
      const address = numberToIpv4(value);
      if (!this.#used.has(address)) {
        this.#used.add(address);
        return address;
      }
    }
    throw new SandboxCloudError('AddressPoolExhausted', `no free address left in the ${this.#description} pool`);
  }

  reserve(address: string): void {
    if (!isIPv4(address)) throw new SandboxCloudError('InvalidArgument', `${JSON.stringify(address)} is not an IPv4 address`);
    if (this.#used.has(address)) throw new SandboxCloudError('AlreadyExists', `address ${address} is already in use`);
    this.#used.add(address);
  }

  release(address: string): void {
    this.#used.delete(address);
  }

  clear(): void {
    this.#used.clear();
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
