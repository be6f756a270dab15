import { describe, expect, it } from 'vitest';
import type { VmIdentity } from '../ports/vcenter-port.js';
import { matchInInventory, surelyMatches, type DiscoveryStep, type InventoryMatch, type InventoryPart } from './match-in-inventory.js';

function vm(value: string, identity: Partial<Omit<VmIdentity, 'ref'>> = {}): VmIdentity {
  return { ref: { type: 'VirtualMachine', value }, uuid: '', guestHostName: '', guestIpAddress: '', guestIps: [], ...identity };
}

const UUID = '422e4956-ad22-1139-6d72-59cc8f26bc90';
const dc1: InventoryPart<string> = {
  place: 'dc-1',
  vms: [
    vm('vm-1', { uuid: UUID, guestHostName: 'worker-1', guestIpAddress: '10.0.0.1', guestIps: ['10.0.0.1', 'fe80::1'] }),
    vm('vm-2', { uuid: 'uuid-2', guestHostName: 'worker-2.example.com', guestIpAddress: '10.0.0.2', guestIps: ['10.0.0.2', '192.168.0.9'] }),
    vm('vm-3', { uuid: 'UUID-3', guestHostName: 'Mixed-Case', guestIpAddress: '2001:db8::3', guestIps: ['2001:db8::3'] }),
    vm('vm-4', { uuid: 'uuid-4', guestHostName: 'twin', guestIpAddress: '10.0.0.4' }),
    vm('vm-5', { uuid: 'uuid-4', guestHostName: 'TWIN', guestIpAddress: '10.0.0.5', guestIps: ['10.0.0.5', '10.0.0.4'] }),
    vm('vm-6', { uuid: 'uuid-6', guestHostName: 'short', guestIpAddress: '' }),
    vm('vm-7', { uuid: 'uuid-7', guestHostName: 'short.example.com', guestIpAddress: '10.0.0.7', guestIps: ['10.0.0.7', '192.168.0.9'] }),
    vm('vm-8', { uuid: 'uuid-8', guestHostName: '', guestIpAddress: '' }),
  ],
};
const dc2: InventoryPart<string> = { place: 'dc-2', vms: [vm('vm-20', { uuid: 'uuid-20', guestHostName: 'worker-20', guestIpAddress: '10.0.2.20', guestIps: ['10.0.2.20'] }), vm('vm-21', { uuid: 'uuid-21', guestHostName: 'worker-1', guestIpAddress: '10.0.0.1' })] };
const unread: InventoryPart<string> = { vms: undefined };

const found = (place: string, value: string): InventoryMatch<string> => ({ kind: 'found', place, ref: { type: 'VirtualMachine', value } });
const ask = (reason: 'absent' | 'ambiguous' | 'unread'): InventoryMatch<string> => ({ kind: 'ask-vcenter', reason });

describe('matchInInventory', () => {
  const cases: Array<[string, readonly InventoryPart<string>[], DiscoveryStep, InventoryMatch<string>]> = [
    ['a UUID, exactly', [dc1], { by: 'uuid', value: UUID }, found('dc-1', 'vm-1')],
    ['a UUID in another case than vCenter spells it: vCenter decides', [dc1], { by: 'uuid', value: 'uuid-3' }, ask('ambiguous')],
    ['a UUID two VMs share (a clone): vCenter picks', [dc1], { by: 'uuid', value: 'uuid-4' }, ask('ambiguous')],
    ['an unknown UUID', [dc1], { by: 'uuid', value: 'uuid-404' }, ask('absent')],
    ['a guest hostname, exactly', [dc1], { by: 'dnsName', value: 'worker-1' }, found('dc-1', 'vm-1')],
    ['a fully qualified guest hostname, exactly', [dc1], { by: 'dnsName', value: 'worker-2.example.com' }, found('dc-1', 'vm-2')],
    ['a short name of a fully qualified hostname: vCenter decides', [dc1], { by: 'dnsName', value: 'worker-2' }, ask('ambiguous')],
    ['a hostname vCenter spells in upper case (the node name is lower case)', [dc1], { by: 'dnsName', value: 'mixed-case' }, ask('ambiguous')],
    ['a hostname two VMs report, in two spellings', [dc1], { by: 'dnsName', value: 'twin' }, ask('ambiguous')],
    ['a short hostname when another VM has it as first label', [dc1], { by: 'dnsName', value: 'short' }, ask('ambiguous')],
    ['an unknown hostname', [dc1], { by: 'dnsName', value: 'ghost' }, ask('absent')],
    ['an empty value', [dc1], { by: 'dnsName', value: '' }, ask('absent')],
    ['a primary IP', [dc1], { by: 'ip', value: '10.0.0.2' }, found('dc-1', 'vm-2')],
    ['an IPv6 primary IP', [dc1], { by: 'ip', value: '2001:db8::3' }, found('dc-1', 'vm-3')],
    ['an IPv6 primary IP in another spelling: vCenter decides', [dc1], { by: 'ip', value: '2001:0db8:0:0:0:0:0:3' }, ask('ambiguous')],
    ['a primary IP another VM reports on a NIC', [dc1], { by: 'ip', value: '10.0.0.4' }, ask('ambiguous')],
    ['a NIC address that is no VM\'s primary IP', [dc1], { by: 'ip', value: 'fe80::1' }, ask('ambiguous')],
    ['a NIC address of two VMs', [dc1], { by: 'ip', value: '192.168.0.9' }, ask('ambiguous')],
    ['an unknown IP', [dc1], { by: 'ip', value: '10.9.9.9' }, ask('absent')],
    ['the first place in order wins', [dc1, dc2], { by: 'dnsName', value: 'worker-1' }, found('dc-1', 'vm-1')],
    ['a later place when the earlier ones have none', [dc1, dc2], { by: 'dnsName', value: 'worker-20' }, found('dc-2', 'vm-20')],
    ['an unread place before the match: vCenter decides', [unread, dc2], { by: 'dnsName', value: 'worker-20' }, ask('unread')],
    ['an unread place after the match does not matter', [dc1, unread], { by: 'uuid', value: UUID }, found('dc-1', 'vm-1')],
  ];
  it.each(cases)('%s', (_title, parts, step, expected) => {
    expect(matchInInventory(parts, step)).toEqual(expected);
  });
});

describe('surelyMatches (a found VM checked against its fresh properties)', () => {
  const fresh = { uuid: UUID, guestHostName: 'worker-1', guestIpAddress: '10.0.0.1' };
  it.each<[DiscoveryStep, boolean]>([
    [{ by: 'uuid', value: UUID }, true],
    [{ by: 'uuid', value: UUID.toUpperCase() }, false],
    [{ by: 'dnsName', value: 'worker-1' }, true],
    [{ by: 'dnsName', value: 'worker-2' }, false],
    [{ by: 'ip', value: '10.0.0.1' }, true],
    [{ by: 'ip', value: '10.0.0.2' }, false],
    [{ by: 'ip', value: '' }, false],
  ])('%o -> %s', (step, expected) => {
    expect(surelyMatches(fresh, step)).toBe(expected);
  });
});
