/**
 * The Nova client on a local server answering with recorded bodies: shapes of the Nova stand-in
 * of @ccm/openstack-services (itself checked against python3-nova's API samples) and Nova's
 * fault bodies. Covers filters, pagination over servers_links, create/delete, actions,
 * os-interface, flavors, the version document and microversion headers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenStack, type FakeOpenStackServer } from '../__tests__/fake-openstack-server.js';
import { KeystoneSession } from '../identity/keystone-session.js';
import { isOpenStackError } from '../openstack-error.js';
import { NovaClient, exactNameFilter, serverFilterQuery } from './nova-client.js';

let server: FakeOpenStackServer;
let session: KeystoneSession;

beforeAll(async () => {
  server = await startFakeOpenStack();
  session = new KeystoneSession({ authUrl: `${server.url}/identity/v3`, credentials: { method: 'password', userId: 'u', password: 'p' }, scope: { projectId: 'p' }, region: 'RegionOne' });
});
afterAll(() => server.close());
beforeEach(() => {
  server.routes.length = 0;
  server.requests.length = 0;
});

const recordedServer = (id: string, name: string): Record<string, unknown> => ({
  id,
  name,
  status: 'ACTIVE',
  tenant_id: '61fd4f2d6f5d41459348e4c81d3671ca',
  user_id: 'f112e07400774f8ba2be88c817492186',
  metadata: {},
  hostId: '4e7fabc49273fc09c0bec9fd299711d96adf27c3c4fdda400f510439',
  image: { id: 'a1b2c3d4-0000-0000-0000-000000000001', links: [{ href: 'http://127.0.0.1:38489/images/a1b2c3d4-0000-0000-0000-000000000001', rel: 'bookmark' }] },
  flavor: { vcpus: 1, ram: 2048, disk: 20, ephemeral: 0, swap: 0, original_name: 'm1.small', extra_specs: {} },
  created: '2026-11-28T00:19:23Z',
  updated: '2026-11-28T00:19:23Z',
  addresses: { smoke: [{ version: 4, addr: '10.9.0.200', 'OS-EXT-IPS:type': 'fixed', 'OS-EXT-IPS-MAC:mac_addr': 'fa:16:3e:ba:8a:f6' }] },
  accessIPv4: '',
  accessIPv6: '',
  links: [{ href: `http://127.0.0.1:38489/v2.1/servers/${id}`, rel: 'self' }, { href: `http://127.0.0.1:38489/servers/${id}`, rel: 'bookmark' }],
  key_name: null,
  'OS-EXT-AZ:availability_zone': 'zone-a',
  'OS-EXT-STS:power_state': 1,
  'OS-EXT-STS:vm_state': 'active',
  locked: false,
  description: null,
  tags: [],
});

describe('Nova client', () => {
  it('translates typed filters to Nova query parameters', () => {
    expect(serverFilterQuery({ name: exactNameFilter('node.1'), allTenants: true, projectId: 'p1', availabilityZone: 'zone-a', changesSince: new Date('2026-01-02T03:04:05Z'), sortKey: 'display_name', sortDir: 'asc', status: 'SHUTOFF' })).toEqual({
      name: '^node\\.1$',
      all_tenants: 'True',
      project_id: 'p1',
      availability_zone: 'zone-a',
      'changes-since': '2026-01-02T03:04:05.000Z',
      sort_key: 'display_name',
      sort_dir: 'asc',
      status: 'SHUTOFF',
    });
    expect(serverFilterQuery({ ip: '^10\\.0\\.0\\.5$', tenant_id: 'raw' })).toEqual({ ip: '^10\\.0\\.0\\.5$', tenant_id: 'raw' });
  });

  it('lists every page of /servers/detail, following servers_links with the filters kept', async () => {
    const all = ['s3', 's2', 's1'].map((id) => recordedServer(id, `node-${id}`));
    server.routes.push((request) => {
      const url = new URL(request.url, server.url);
      if (url.pathname !== '/compute/v2.1/servers/detail') return undefined;
      const limit = Number(url.searchParams.get('limit') ?? 1000);
      const marker = url.searchParams.get('marker');
      const start = marker === null ? 0 : all.findIndex((entry) => entry['id'] === marker) + 1;
      const items = all.slice(start, start + limit);
      const next = items.length === limit ? [{ href: `${server.url}/compute/v2.1/servers/detail?name=%5Enode-&limit=${limit}&marker=${String(items.at(-1)!['id'])}`, rel: 'next' }] : [];
      return { status: 200, body: { servers: items, ...(next.length > 0 ? { servers_links: next } : {}) } };
    });
    const servers = await new NovaClient(session, { microversion: '2.47' }).listServersDetail({ name: '^node-' }, { pageSize: 2 });
    expect(servers.map((entry) => entry.id)).toEqual(['s3', 's2', 's1']);
    expect(servers[0]!.flavor.original_name).toBe('m1.small');
    expect(server.requests.filter((request) => request.url.includes('/servers/detail')).map((request) => request.url)).toEqual([
      '/compute/v2.1/servers/detail?name=%5Enode-&limit=2',
      '/compute/v2.1/servers/detail?name=%5Enode-&limit=2&marker=s2',
    ]);
  });

  it('creates, stops, starts and deletes a server with the right bodies and statuses', async () => {
    const created = { server: { id: 'e0b2f4cf', links: [{ href: 'http://127.0.0.1:38489/v2.1/servers/e0b2f4cf', rel: 'self' }], 'OS-DCF:diskConfig': 'MANUAL', adminPass: '7a4dwxWs9slW', security_groups: [{ name: 'default' }] } };
    server.routes.push((request) => {
      if (request.method === 'POST' && request.url === '/compute/v2.1/servers') return { status: 202, body: created };
      if (request.method === 'POST' && request.url === '/compute/v2.1/servers/e0b2f4cf/action') return { status: 202 };
      if (request.method === 'DELETE' && request.url === '/compute/v2.1/servers/e0b2f4cf') return { status: 204 };
      return undefined;
    });
    const nova = new NovaClient(session);
    const answer = await nova.createServer({ name: 'node-1', flavorRef: '2', imageRef: 'a1b2c3d4', networks: [{ uuid: 'net-1' }], availability_zone: 'zone-a' });
    expect(answer.id).toBe('e0b2f4cf');
    await nova.stopServer('e0b2f4cf');
    await nova.startServer('e0b2f4cf');
    await nova.deleteServer('e0b2f4cf');
    expect(server.requests.filter((request) => !request.url.startsWith('/identity')).map((request) => `${request.method} ${request.url} ${request.body}`)).toEqual([
      'POST /compute/v2.1/servers {"server":{"name":"node-1","flavorRef":"2","imageRef":"a1b2c3d4","networks":[{"uuid":"net-1"}],"availability_zone":"zone-a"}}',
      'POST /compute/v2.1/servers/e0b2f4cf/action {"os-stop":null}',
      'POST /compute/v2.1/servers/e0b2f4cf/action {"os-start":null}',
      'DELETE /compute/v2.1/servers/e0b2f4cf ',
    ]);
  });

  it("maps Nova's conflictingRequest (stopping a stopped server) to a final Conflict", async () => {
    server.routes.push(() => ({ status: 409, body: { conflictingRequest: { code: 409, message: "Cannot 'stop' instance s1 while it is in vm_state stopped" } } }));
    const error = await new NovaClient(session).stopServer('s1').catch((caught: unknown) => caught);
    expect(isOpenStackError(error, 'Conflict') && [error.faultType, error.retryable, error.message.includes('vm_state stopped')]).toEqual(['conflictingRequest', false, true]);
  });

  it('reads interfaces, flavors and the version document', async () => {
    const attachment = { port_state: 'ACTIVE', fixed_ips: [{ subnet_id: 'f8a6e8f8', ip_address: '192.168.1.3' }], port_id: 'ce531f90', net_id: '3cb9bc59', mac_addr: 'fa:16:3e:4c:2c:30' };
    const tiny = { id: '1', name: 'm1.tiny', ram: 512, vcpus: 1, disk: 1, swap: '', rxtx_factor: 1, 'OS-FLV-EXT-DATA:ephemeral': 0, 'OS-FLV-DISABLED:disabled': false, 'os-flavor-access:is_public': true };
    server.routes.push((request) => {
      const url = new URL(request.url, server.url);
      switch (url.pathname) {
        case '/compute/v2.1/servers/s1/os-interface':
          return { status: 200, body: { interfaceAttachments: [attachment] } };
        case '/compute/v2.1/servers/s1/os-interface/ce531f90':
          return { status: 200, body: { interfaceAttachment: attachment } };
        case '/compute/v2.1/flavors':
          return { status: 200, body: { flavors: [{ id: '1', name: 'm1.tiny', links: [] }] } };
        case '/compute/v2.1/flavors/detail':
          return { status: 200, body: { flavors: [tiny] } };
        case '/compute/v2.1/':
          return { status: 200, body: { version: { id: 'v2.1', status: 'CURRENT', version: '2.47', min_version: '2.1', updated: '2013-07-23T11:33:21Z', links: [] } } };
        default:
          return undefined;
      }
    });
    const nova = new NovaClient(session);
    expect((await nova.listInterfaces('s1')).map((entry) => [entry.port_id, entry.fixed_ips[0]!.ip_address])).toEqual([['ce531f90', '192.168.1.3']]);
    expect((await nova.getInterface('s1', 'ce531f90')).net_id).toBe('3cb9bc59');
    expect((await nova.listFlavors()).map((flavor) => flavor.name)).toEqual(['m1.tiny']);
    expect((await nova.listFlavorsDetail({ minRam: 512 }))[0]!.swap).toBe('');
    expect(server.requests.at(-1)!.url).toBe('/compute/v2.1/flavors/detail?minRam=512');
    expect((await nova.version()).version).toBe('2.47');
  });

  it('changes the microversion per client without a new session', async () => {
    server.routes.push((request) => (request.url === '/compute/v2.1/servers/s1' ? { status: 200, body: { server: recordedServer('s1', 'node-1') } } : undefined));
    const base = new NovaClient(session);
    await base.getServer('s1');
    expect(server.requests.at(-1)!.headers['openstack-api-version']).toBeUndefined();
    const newer = base.withMicroversion('2.47');
    expect(newer.session).toBe(base.session);
    await newer.getServer('s1');
    expect([server.requests.at(-1)!.headers['openstack-api-version'], server.requests.at(-1)!.headers['x-openstack-nova-api-version']]).toEqual(['compute 2.47', '2.47']);
    expect(server.requests.filter((request) => request.url === '/identity/v3/auth/tokens').length).toBeLessThanOrEqual(1);
  });
});
