import { isIPv4, isIPv6 } from 'node:net';
import { SandboxCloudError } from './sandbox-cloud-error.js';
import type { SandboxAddress, SandboxAddressType, SandboxListener, SandboxProtocol } from './sandbox-types.js';

const PROTOCOLS: readonly SandboxProtocol[] = ['TCP', 'UDP', 'SCTP'];
const RESOURCE_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

function invalid(message: string): never {
  throw new SandboxCloudError('InvalidArgument', message);
}

export function requireResourceName(kind: string, name: unknown): string {
  if (typeof name !== 'string' || !RESOURCE_NAME.test(name)) {
    invalid(`${kind} name ${JSON.stringify(name)} must be 1-63 lowercase letters, digits or '-', starting and ending with a letter or digit`);
  }
  return name;
}

export function requireNonEmptyString(field: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') invalid(`${field} must be a non-empty string`);
  return value;
}

function isPort(value: unknown, allowZero: boolean): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= (allowZero ? 0 : 1) && value <= 65535;
}

/** Checks listeners and returns clean copies; (protocol, port) must be unique. */
export function validateListeners(listeners: unknown): SandboxListener[] {
  if (!Array.isArray(listeners) || listeners.length === 0) invalid('listeners must be a non-empty list');
  const seen = new Set<string>();
  return listeners.map((listener: unknown, index) => {
    if (typeof listener !== 'object' || listener === null) invalid(`listeners[${index}] must be an object`);
    const { name, protocol, port, nodePort } = listener as Record<string, unknown>;
    if (!PROTOCOLS.includes(protocol as SandboxProtocol)) invalid(`listeners[${index}].protocol must be one of ${PROTOCOLS.join(', ')}`);
    if (!isPort(port, false)) invalid(`listeners[${index}].port must be 1-65535`);
    if (!isPort(nodePort, true)) invalid(`listeners[${index}].nodePort must be 0-65535`);
    if (name !== undefined && typeof name !== 'string') invalid(`listeners[${index}].name must be a string`);
    const key = `${String(protocol)}/${port}`;
    if (seen.has(key)) invalid(`listeners[${index}] repeats ${key}`);
    seen.add(key);
    const clean: SandboxListener = { protocol: protocol as SandboxProtocol, port, nodePort };
    if (typeof name === 'string' && name !== '') clean.name = name;
    return clean;
  });
}

export function validateStringList(field: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) invalid(`${field} must be a list of strings`);
  return [...(value as string[])];
}

export function validateTags(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) invalid('tags must be an object of strings');
  const tags: Record<string, string> = {};
  for (const [key, tagValue] of Object.entries(value)) {
    if (key === '' || typeof tagValue !== 'string') invalid(`tag ${JSON.stringify(key)} must be a non-empty key with a string value`);
    tags[key] = tagValue;
  }
  return tags;
}

export function validatePortOrUndefined(field: string, value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPort(value, false)) invalid(`${field} must be 1-65535`);
  return value;
}

/** Accepts `a.b.c.d/n` and IPv6 `x::/n`; returns the family. */
export function validateCidr(field: string, value: unknown): 'IPv4' | 'IPv6' {
  if (typeof value !== 'string') invalid(`${field} must be a CIDR string`);
  const [address, prefixText, extra] = value.split('/');
  const prefix = Number(prefixText);
  if (address === undefined || prefixText === undefined || extra !== undefined || !/^\d+$/.test(prefixText)) {
    invalid(`${field} ${JSON.stringify(value)} is not a CIDR`);
  }
  if (isIPv4(address) && prefix <= 32) return 'IPv4';
  if (isIPv6(address) && prefix <= 128) return 'IPv6';
  invalid(`${field} ${JSON.stringify(value)} is not a CIDR`);
}

export function matchesTags(tags: Record<string, string>, filter: Record<string, string> | undefined): boolean {
  if (filter === undefined) return true;
  return Object.entries(filter).every(([key, value]) => tags[key] === value);
}

const ADDRESS_TYPES: readonly SandboxAddressType[] = ['Hostname', 'InternalIP', 'ExternalIP', 'InternalDNS', 'ExternalDNS'];

export function validateAddresses(value: unknown): SandboxAddress[] {
  if (!Array.isArray(value)) invalid('addresses must be a list');
  return value.map((item: unknown, index) => {
    const { type, address } = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    if (!ADDRESS_TYPES.includes(type as SandboxAddressType)) invalid(`addresses[${index}].type must be one of ${ADDRESS_TYPES.join(', ')}`);
    if (typeof address !== 'string' || address === '') invalid(`addresses[${index}].address must be a non-empty string`);
    return { type: type as SandboxAddressType, address };
  });
}
