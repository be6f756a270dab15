import { describe, expect, it } from 'vitest';
import { vsphereInstanceType } from './instance-type.js';
import { convertK8sUuidToNormal, formatVsphereProviderId, uuidFromProviderId } from './provider-id.js';

describe('provider IDs', () => {
  it('formats the UUID as vCenter reports it; reads it back trimmed, lower case, without the prefix', () => {
    expect(formatVsphereProviderId('422E4956-AD22-1139-6D72-59CC8F26BC90')).toBe('vsphere://422E4956-AD22-1139-6D72-59CC8F26BC90');
    expect(formatVsphereProviderId('422e4956-ad22-1139-6d72-59cc8f26bc90')).toBe('vsphere://422e4956-ad22-1139-6d72-59cc8f26bc90');
    expect(uuidFromProviderId('vsphere://422E4956-AD22-1139-6D72-59CC8F26BC90 ')).toBe('422e4956-ad22-1139-6d72-59cc8f26bc90');
    expect(uuidFromProviderId('422e4956-ad22-1139-6d72-59cc8f26bc90')).toBe('422e4956-ad22-1139-6d72-59cc8f26bc90');
  });

  it('byte-swaps the first three UUID groups (SMBIOS order), and back', () => {
    expect(convertK8sUuidToNormal('56492e42-22ad-3911-6d72-59cc8f26bc90')).toBe('422e4956-ad22-1139-6d72-59cc8f26bc90');
    expect(convertK8sUuidToNormal('422E4956-AD22-1139-6D72-59CC8F26BC90')).toBe('56492e42-22ad-3911-6d72-59cc8f26bc90');
    expect(convertK8sUuidToNormal('short')).toBe('short');
  });
});

describe('vsphereInstanceType', () => {
  it.each([
    [4, 16384, 'ubuntu64Guest', 'vsphere-vm.cpu-4.mem-16gb.os-ubuntu'],
    [2, 3000, 'rhel7_64Guest', 'vsphere-vm.cpu-2.mem-2gb.os-rhel7'],
    [1, 32, 'otherGuest', 'vsphere-vm.cpu-1.mem-0gb.os-other'],
    [8, 8192, 'windows2019srv_64Guest', 'vsphere-vm.cpu-8.mem-8gb.os-unknown'],
    [0, 0, '', 'vsphere-vm.cpu-0.mem-0gb.os-unknown'],
  ])('%i CPUs, %i MB, %s -> %s', (cpu, memory, guest, expected) => {
    expect(vsphereInstanceType(cpu, memory, guest)).toBe(expected);
  });
});
