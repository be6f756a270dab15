import { describe, expect, it } from 'vitest';
import type { Ec2Instance } from '../ports/ec2-port.js';
import { InvalidInstanceAddressError, nodeAddressesOf } from './node-addresses.js';

const instance: Ec2Instance = {
  instanceId: 'i-1',
  privateDnsName: 'ip-10-0-0-1.ec2.internal',
  publicDnsName: 'ec2-1-2-3-4.compute-1.amazonaws.com',
  publicIpAddress: '1.2.3.4',
  securityGroups: [],
  tags: {},
  networkInterfaces: [
    { networkInterfaceId: 'eni-unattached', status: 'in-use', privateIpAddresses: ['10.0.9.9'], ipv6Addresses: ['2600::9'] },
    { networkInterfaceId: 'eni-1', status: 'in-use', deviceIndex: 1, privateIpAddresses: ['10.0.1.1', '10.0.1.2'], ipv6Addresses: ['2600::1', '2600::2'] },
    { networkInterfaceId: 'eni-available', status: 'available', deviceIndex: 2, privateIpAddresses: ['10.0.2.1'], ipv6Addresses: [] },
    { networkInterfaceId: 'eni-0', status: 'in-use', deviceIndex: 0, privateIpAddresses: ['10.0.0.1', '10.0.0.2'], ipv6Addresses: [] },
  ],
};

describe('nodeAddressesOf', () => {
  it('lists IPv4 addresses in device order, then public IP and DNS names (upstream order)', () => {
    expect(nodeAddressesOf(instance, ['ipv4'])).toEqual([
      { type: 'InternalIP', address: '10.0.0.1' },
      { type: 'InternalIP', address: '10.0.0.2' },
      { type: 'InternalIP', address: '10.0.1.1' },
      { type: 'InternalIP', address: '10.0.1.2' },
      { type: 'InternalIP', address: '10.0.9.9' },
      { type: 'ExternalIP', address: '1.2.3.4' },
      { type: 'InternalDNS', address: 'ip-10-0-0-1.ec2.internal' },
      { type: 'Hostname', address: 'ip-10-0-0-1.ec2.internal' },
      { type: 'ExternalDNS', address: 'ec2-1-2-3-4.compute-1.amazonaws.com' },
    ]);
  });

  it('lists the first IPv6 address of each in-use interface', () => {
    expect(nodeAddressesOf(instance, ['ipv6'])).toEqual([
      { type: 'InternalIP', address: '2600::1' },
      { type: 'InternalIP', address: '2600::9' },
    ]);
  });

  it('follows the NodeIPFamilies order', () => {
    const addresses = nodeAddressesOf(instance, ['ipv6', 'ipv4']);
    expect(addresses[0]).toEqual({ type: 'InternalIP', address: '2600::1' });
    expect(addresses[2]).toEqual({ type: 'InternalIP', address: '10.0.0.1' });
  });

  it('leaves out what the instance does not have', () => {
    expect(nodeAddressesOf({ instanceId: 'i-2', securityGroups: [], tags: {}, networkInterfaces: [] }, ['ipv4'])).toEqual([]);
  });

  it('rejects an invalid private address', () => {
    const broken: Ec2Instance = { ...instance, networkInterfaces: [{ networkInterfaceId: 'eni', status: 'in-use', deviceIndex: 0, privateIpAddresses: ['10.0.0.300'], ipv6Addresses: [] }] };
    expect(() => nodeAddressesOf(broken, ['ipv4'])).toThrow(InvalidInstanceAddressError);
  });
});
