/**
 * Node addresses of an EC2 instance, exactly as upstream `extractNodeAddresses`:
 * - ipv4: every private IP of every in-use interface (interfaces by device index, unattached
 *   last) as InternalIP, then the public IP as ExternalIP, the private DNS name as InternalDNS and
 *   Hostname, the public DNS name as ExternalDNS;
 * - ipv6: the first IPv6 address of each in-use interface as InternalIP.
 * Families are emitted in the order of `NodeIPFamilies`.
 */
import type { NodeAddress } from '@ccm/core/provider';
import { isIP } from 'node:net';
import type { Ec2Instance, Ec2NetworkInterface } from '../ports/ec2-port.js';

export type IpFamily = 'ipv4' | 'ipv6';

export class InvalidInstanceAddressError extends Error {
  constructor(instanceId: string, address: string, what: string) {
    super(`EC2 instance had invalid ${what} address: ${instanceId} (${JSON.stringify(address)})`);
    this.name = 'InvalidInstanceAddressError';
  }
}

function interfacesInDeviceOrder(instance: Ec2Instance): Ec2NetworkInterface[] {
  return [...instance.networkInterfaces].sort((left, right) => {
    if (left.deviceIndex === undefined) return right.deviceIndex === undefined ? 0 : 1;
    if (right.deviceIndex === undefined) return -1;
    return left.deviceIndex - right.deviceIndex;
  });
}

function canonicalIp(instance: Ec2Instance, address: string, what: string): string {
  const trimmed = address.trim();
  if (isIP(trimmed) === 0) throw new InvalidInstanceAddressError(instance.instanceId, address, what);
  return trimmed;
}

function ipv4Addresses(instance: Ec2Instance): NodeAddress[] {
  const addresses: NodeAddress[] = [];
  for (const networkInterface of interfacesInDeviceOrder(instance)) {
    if (networkInterface.status !== 'in-use') continue;
    for (const privateIp of networkInterface.privateIpAddresses) {
      if (privateIp !== '') addresses.push({ type: 'InternalIP', address: canonicalIp(instance, privateIp, 'private') });
    }
  }
  if (instance.publicIpAddress) {
    addresses.push({ type: 'ExternalIP', address: canonicalIp(instance, instance.publicIpAddress, 'public') });
  }
  if (instance.privateDnsName) {
    addresses.push({ type: 'InternalDNS', address: instance.privateDnsName });
    addresses.push({ type: 'Hostname', address: instance.privateDnsName });
  }
  if (instance.publicDnsName) addresses.push({ type: 'ExternalDNS', address: instance.publicDnsName });
  return addresses;
}

function ipv6Addresses(instance: Ec2Instance): NodeAddress[] {
  const addresses: NodeAddress[] = [];
  for (const networkInterface of interfacesInDeviceOrder(instance)) {
    if (networkInterface.status !== 'in-use') continue;
    const first = networkInterface.ipv6Addresses.find((address) => address !== '');
    if (first !== undefined) addresses.push({ type: 'InternalIP', address: canonicalIp(instance, first, 'IPv6') });
  }
  return addresses;
}

export function nodeAddressesOf(instance: Ec2Instance, families: readonly IpFamily[]): NodeAddress[] {
  const addresses: NodeAddress[] = [];
  for (const family of families) addresses.push(...(family === 'ipv4' ? ipv4Addresses(instance) : ipv6Addresses(instance)));
  return addresses;
}
