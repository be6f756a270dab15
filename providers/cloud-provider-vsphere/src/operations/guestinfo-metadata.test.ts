import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { metadataAddresses } from './guestinfo-metadata.js';

const v2 = `instance-id: node-1
local-hostname: node-1
network:
  version: 2
  ethernets:
    nics:
      match: {name: ens*}
      addresses:
        - 10.0.0.9/24
        - 2001:db8::9/64: {lifetime: forever}
`;
const v1 = JSON.stringify({ network: { version: 1, config: [{ type: 'physical', name: 'ens192', subnets: [{ type: 'static', address: '192.168.1.20/24' }] }] } });

describe('metadataAddresses', () => {
  it.each([
    ['raw YAML, network v2', new Map([['guestinfo.metadata', v2]]), ['10.0.0.9', '2001:db8::9']],
    ['base64', new Map([['guestinfo.metadata', Buffer.from(v2).toString('base64')], ['guestinfo.metadata.encoding', 'base64']]), ['10.0.0.9', '2001:db8::9']],
    ['gzip+base64', new Map([['guestinfo.metadata', gzipSync(v2).toString('base64')], ['guestinfo.metadata.encoding', 'gzip+base64']]), ['10.0.0.9', '2001:db8::9']],
    ['JSON, network v1', new Map([['guestinfo.metadata', v1]]), ['192.168.1.20']],
    [
      'a network config encoded inside the metadata',
      new Map([['guestinfo.metadata', JSON.stringify({ network: Buffer.from('version: 2\nethernets: {e: {addresses: [10.1.1.1/16]}}').toString('base64'), 'network.encoding': 'base64' })]]),
      ['10.1.1.1'],
    ],
    ['no metadata', new Map<string, string>(), []],
  ])('%s', (_title, extraConfig, ips) => {
    expect(metadataAddresses(extraConfig)).toEqual({ ips });
  });

  it('explains unreadable metadata instead of failing', () => {
    const result = metadataAddresses(new Map([['guestinfo.metadata', 'abc'], ['guestinfo.metadata.encoding', 'rot13']]));
    expect(result).toEqual({ ips: [], error: 'cannot read guestinfo.metadata: unknown encoding "rot13"' });
  });
});
