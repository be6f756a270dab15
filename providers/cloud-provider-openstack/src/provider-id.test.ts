import { describe, expect, it } from 'vitest';
import { formatOpenStackProviderId, OpenStackProviderIdError, parseOpenStackProviderId, serverIdOfProviderId } from './provider-id.js';

describe('OpenStack provider IDs', () => {
  it('formats the plain and the regional form', () => {
    expect(formatOpenStackProviderId('abc')).toBe('openstack:///abc');
    expect(formatOpenStackProviderId('abc', { region: 'RegionOne' })).toBe('openstack://RegionOne/abc');
  });

  it.each([
    ['openstack:///abc', { region: '', serverId: 'abc' }],
    ['openstack://RegionOne/abc', { region: 'RegionOne', serverId: 'abc' }],
    ['RegionOne/abc', { region: 'RegionOne', serverId: 'abc' }],
  ])('parses %s', (providerId, expected) => {
    expect(parseOpenStackProviderId(providerId)).toEqual(expected);
  });

  it.each(['aws:///abc', 'openstack://abc', 'openstack:///a/b', 'abc', ''])('refuses %j with upstream message', (providerId) => {
    expect(() => parseOpenStackProviderId(providerId)).toThrow(OpenStackProviderIdError);
    expect(() => parseOpenStackProviderId(providerId)).toThrow(/didn't match expected format "openstack:\/\/region\/InstanceID"/);
  });

  it('refuses a regional provider ID of another region', () => {
    expect(serverIdOfProviderId('openstack://RegionOne/abc', 'RegionOne')).toBe('abc');
    expect(serverIdOfProviderId('openstack:///abc', 'RegionOne')).toBe('abc');
    expect(() => serverIdOfProviderId('openstack://RegionTwo/abc', 'RegionOne')).toThrow(/didn't match supported region "RegionOne"/);
  });
});
