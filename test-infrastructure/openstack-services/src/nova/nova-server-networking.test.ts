import { describe, expect, it } from 'vitest';
import type { NeutronPort } from './neutron-for-nova.js';
import type { ServerRecord } from './nova-server-record.js';
import { serverNetworking } from './nova-server-networking.js';

const port = (id: string, network: string, addresses: string[], device = 's1'): NeutronPort => ({
  id, network_id: network, mac_address: `fa:16:3e:00:00:0${id.length}`, fixed_ips: addresses.map((ip_address) => ({ ip_address, subnet_id: `${network}-subnet` })), device_id: device, device_owner: 'compute:nova', status: 'DOWN',
});

describe('Nova stand-in server networking', () => {
  it('groups addresses by network name, attached ports first, floating IPs after the fixed ones', () => {
    const record = { id: 's1', portIds: ['p-b', 'p-a'] } as ServerRecord;
    const ports = [port('p-a', 'net-a', ['10.0.0.5', 'fd00::5']), port('p-b', 'net-b', ['192.168.0.7']), port('p-x', 'net-a', ['10.0.0.9'], 's2')];
    const networking = serverNetworking(record, ports, new Map([['net-a', 'internal']]), [{ id: 'f1', floating_ip_address: '172.24.4.10', fixed_ip_address: '10.0.0.5', port_id: 'p-a' }]);
    expect(networking.ports.map((entry) => entry.id)).toEqual(['p-b', 'p-a']);
    expect(networking.addresses).toEqual({
      'net-b': [{ version: 4, addr: '192.168.0.7', 'OS-EXT-IPS:type': 'fixed', 'OS-EXT-IPS-MAC:mac_addr': 'fa:16:3e:00:00:03' }],
      internal: [
        { version: 4, addr: '10.0.0.5', 'OS-EXT-IPS:type': 'fixed', 'OS-EXT-IPS-MAC:mac_addr': 'fa:16:3e:00:00:03' },
        { version: 6, addr: 'fd00::5', 'OS-EXT-IPS:type': 'fixed', 'OS-EXT-IPS-MAC:mac_addr': 'fa:16:3e:00:00:03' },
        { version: 4, addr: '172.24.4.10', 'OS-EXT-IPS:type': 'floating', 'OS-EXT-IPS-MAC:mac_addr': 'fa:16:3e:00:00:03' },
      ],
    });
  });
});
