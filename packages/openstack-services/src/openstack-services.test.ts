/**
 * The real services, started once for this file: a token with a catalog naming Neutron, Octavia
 * and the Nova stand-in, a network/subnet/port bound by the test mechanism driver, an Octavia
 * load balancer that reaches ACTIVE, and servers whose ports are real Neutron ports. Plain fetch on purpose (openstack-client-ts is tested on them
 * separately). Closing leaves no process and no directory behind.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStackServicesSuite } from './openstack-services-suite.js';
import { openStackServicesForTests, type TestServices } from './openstack-services-for-tests.js';
import type { OpenStackServices } from './start-openstack-services.js';

interface CatalogEntry {
  type: string;
  endpoints: { interface: string; region_id: string; url: string }[];
}

openStackServicesSuite('openstack-services: real Keystone, Neutron and Octavia', () => {
  let services: TestServices;
  let token = '';
  let catalog: CatalogEntry[] = [];
  const endpoint = (type: string): string => catalog.find((entry) => entry.type === type)!.endpoints.find((candidate) => candidate.interface === 'public')!.url.replace(/\/$/, '');
  const call = async (method: string, url: string, body?: unknown): Promise<{ status: number; json: Record<string, Record<string, unknown>> }> => {
    const response = await fetch(url, { method, headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await response.text();
    return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Record<string, Record<string, unknown>>) };
  };

  beforeAll(async () => {
    services = await openStackServicesForTests({ log: (line) => console.log(`openstack-services: ${line}`) });
  }, 300_000);

  afterAll(async () => {
    const directory = (services as Partial<OpenStackServices> | undefined)?.directory;
    await services?.close();
    if (services?.owned && directory !== undefined) expect(existsSync(directory)).toBe(false);
  }, 60_000);

  it('issues a project-scoped token whose catalog lists identity, network, load-balancer and compute in the region', async () => {
    const response = await fetch(`${services.authUrl}/auth/tokens`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        auth: {
          identity: { methods: ['password'], password: { user: { name: services.username, domain: { name: services.userDomainName }, password: services.password } } },
          scope: { project: { name: services.projectName, domain: { name: services.projectDomainName } } },
        },
      }),
    });
    expect(response.status).toBe(201);
    token = response.headers.get('x-subject-token') ?? '';
    expect(token).not.toBe('');
    const body = (await response.json()) as { token: { catalog: CatalogEntry[]; project: { name: string } } };
    expect(body.token.project.name).toBe(services.projectName);
    catalog = body.token.catalog;
    expect(catalog.map((entry) => entry.type).sort()).toEqual(['compute', 'identity', 'load-balancer', 'network']);
    expect(endpoint('compute')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2\.1$/);
    for (const entry of catalog) {
      expect(entry.endpoints.map((candidate) => candidate.interface).sort()).toEqual(['admin', 'internal', 'public']);
      expect(entry.endpoints.every((candidate) => candidate.region_id === services.region)).toBe(true);
    }
  });

  it('rejects a wrong password with 401', async () => {
    const response = await fetch(`${services.authUrl}/auth/tokens`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ auth: { identity: { methods: ['password'], password: { user: { name: services.username, domain: { name: services.userDomainName }, password: 'wrong' } } } } }),
    });
    expect(response.status).toBe(401);
  });

  it('creates a network, a subnet and a port that the test mechanism driver binds', async () => {
    const neutron = endpoint('network');
    const network = await call('POST', `${neutron}/v2.0/networks`, { network: { name: 'services-test' } });
    expect(network.status).toBe(201);
    const subnet = await call('POST', `${neutron}/v2.0/subnets`, { subnet: { network_id: network.json['network']!['id'], cidr: '10.20.0.0/24', ip_version: 4 } });
    expect(subnet.status).toBe(201);
    const port = await call('POST', `${neutron}/v2.0/ports`, { port: { network_id: network.json['network']!['id'], 'binding:host_id': 'host-ovs-no_filter' } });
    expect(port.status).toBe(201);
    expect(port.json['port']!['binding:vif_type']).toBe('ovs');
    expect((port.json['port']!['fixed_ips'] as { ip_address: string }[])[0]!.ip_address).toMatch(/^10\.20\.0\./);
    expect((await call('DELETE', `${neutron}/v2.0/ports/${String(port.json['port']!['id'])}`)).status).toBe(204);
  });

  it('takes an Octavia load balancer from PENDING_CREATE to ACTIVE and deletes it', async () => {
    const neutron = endpoint('network');
    const octavia = endpoint('load-balancer');
    const network = await call('POST', `${neutron}/v2.0/networks`, { network: { name: 'services-lb' } });
    const subnet = await call('POST', `${neutron}/v2.0/subnets`, { subnet: { network_id: network.json['network']!['id'], cidr: '10.21.0.0/24', ip_version: 4 } });
    const created = await call('POST', `${octavia}/v2/lbaas/loadbalancers`, { loadbalancer: { name: 'services-lb', vip_subnet_id: subnet.json['subnet']!['id'] } });
    expect(created.status).toBe(201);
    expect(created.json['loadbalancer']!['provisioning_status']).toBe('PENDING_CREATE');
    const id = String(created.json['loadbalancer']!['id']);
    let status = '';
    for (let attempt = 0; attempt < 60 && status !== 'ACTIVE'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      status = String((await call('GET', `${octavia}/v2/lbaas/loadbalancers/${id}`)).json['loadbalancer']!['provisioning_status']);
      expect(status).not.toBe('ERROR');
    }
    expect(status).toBe('ACTIVE');
    expect((await call('DELETE', `${octavia}/v2/lbaas/loadbalancers/${id}?cascade=true`)).status).toBe(204);
  }, 60_000);

  it('Nova stand-in: create, get, list with filters, stop/start, delete, with real Neutron ports', async () => {
    const nova = endpoint('compute');
    const neutron = endpoint('network');
    const network = await call('POST', `${neutron}/v2.0/networks`, { network: { name: 'nova-net' } });
    const networkId = String(network.json['network']!['id']);
    await call('POST', `${neutron}/v2.0/subnets`, { subnet: { network_id: networkId, cidr: '10.22.0.0/24', ip_version: 4 } });
    const created = await call('POST', `${nova}/servers`, { server: { name: 'node-a.example', flavorRef: '2', imageRef: '70a599e0-31e7-49b7-b260-868f441e862b', networks: [{ uuid: networkId }], availability_zone: 'zone-a', metadata: { role: 'worker' } } });
    expect(created.status).toBe(202);
    const id = String(created.json['server']!['id']);
    const ports = await call('GET', `${neutron}/v2.0/ports?device_id=${id}`);
    const [port] = ports.json['ports'] as unknown as { id: string; device_owner: string; fixed_ips: { ip_address: string }[] }[];
    expect(port?.device_owner).toBe('compute:zone-a');

    const shown = await call('GET', `${nova}/servers/${id}`);
    const server = shown.json['server']!;
    expect([server['status'], server['name'], server['OS-EXT-AZ:availability_zone']]).toEqual(['ACTIVE', 'node-a.example', 'zone-a']);
    expect(server['addresses']).toEqual({ 'nova-net': [{ version: 4, addr: port!.fixed_ips[0]!.ip_address, 'OS-EXT-IPS:type': 'fixed', 'OS-EXT-IPS-MAC:mac_addr': expect.stringMatching(/^fa:16:3e:/) }] });
    expect(server['flavor']).toEqual({ id: '2', links: [{ href: `${nova.replace(/\/v2\.1$/, '')}/flavors/2`, rel: 'bookmark' }] });

    const byName = await call('GET', `${nova}/servers/detail?name=${encodeURIComponent('^node-a\\.example$')}`);
    expect((byName.json['servers'] as unknown as { id: string }[]).map((entry) => entry.id)).toEqual([id]);
    expect((await call('GET', `${nova}/servers/detail?name=^node-b`)).json['servers']).toEqual([]);

    expect((await call('POST', `${nova}/servers/${id}/action`, { 'os-stop': null })).status).toBe(202);
    expect((await call('GET', `${nova}/servers/${id}`)).json['server']!['status']).toBe('SHUTOFF');
    const again = await call('POST', `${nova}/servers/${id}/action`, { 'os-stop': null });
    expect(again.status).toBe(409);
    expect(again.json['conflictingRequest']!['code']).toBe(409);
    expect((await call('GET', `${nova}/servers/detail?status=SHUTOFF`)).json['servers']!.length).toBeGreaterThan(0);
    expect((await call('POST', `${nova}/servers/${id}/action`, { 'os-start': null })).status).toBe(202);
    expect((await call('GET', `${nova}/servers/${id}`)).json['server']!['status']).toBe('ACTIVE');

    const flavor = await call('GET', `${nova}/flavors/2`);
    expect([flavor.json['flavor']!['name'], flavor.json['flavor']!['ram']]).toEqual(['m1.small', 2048]);
    expect((await call('GET', `${nova}/flavors/99`)).json).toEqual({ itemNotFound: { code: 404, message: 'Flavor 99 could not be found.' } });

    expect((await call('DELETE', `${nova}/servers/${id}`)).status).toBe(204);
    expect((await call('GET', `${nova}/servers/${id}`)).json).toEqual({ itemNotFound: { code: 404, message: `Instance ${id} could not be found.` } });
    expect((await call('GET', `${neutron}/v2.0/ports?device_id=${id}`)).json['ports']).toEqual([]);
  }, 60_000);

  it('Nova stand-in: 401 without a token Keystone accepts, unknown routes refused', async () => {
    const nova = endpoint('compute');
    for (const headers of [{}, { 'X-Auth-Token': 'not-a-token' }]) {
      const response = await fetch(`${nova}/servers`, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('Keystone uri=');
      await response.arrayBuffer();
    }
    expect((await call('GET', `${nova}/os-hypervisors`)).json).toEqual({ itemNotFound: { code: 404, message: 'The resource could not be found.' } });
    expect((await call('PUT', `${nova}/servers`)).status).toBe(405);
  });
});
