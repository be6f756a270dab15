/**
 * The real services, started once for this file: a token with a catalog naming Neutron and
 * Octavia, a network/subnet/port bound by the test mechanism driver, and an Octavia load
 * balancer that reaches ACTIVE. Plain fetch on purpose (openstack-client-ts is tested on them
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

  it('issues a project-scoped token whose catalog lists identity, network and load-balancer in the region', async () => {
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
    expect(catalog.map((entry) => entry.type).sort()).toEqual(['identity', 'load-balancer', 'network']);
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
});
