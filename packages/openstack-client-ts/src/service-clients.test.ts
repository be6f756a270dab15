/** Pagination, Neutron paths, Octavia waits and batch updates, Nova microversions, on a local server. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenStack, type FakeOpenStackServer } from './__tests__/fake-openstack-server.js';
import { KeystoneSession } from './identity/keystone-session.js';
import { NeutronClient } from './network/neutron-client.js';
import { OctaviaClient } from './load-balancer/octavia-client.js';
import { NovaClient, exactNameFilter } from './compute/nova-client.js';
import { isOpenStackError } from './openstack-error.js';

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

describe('pagination', () => {
  beforeEach(() => {
    // Five ports served two at a time with Neutron's `ports_links` (absolute next hrefs with a marker).
    const ports = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, name: `port-${id}` }));
    server.routes.push((request) => {
      const url = new URL(request.url, server.url);
      if (url.pathname !== '/network/v2.0/ports') return undefined;
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const marker = url.searchParams.get('marker');
      const start = marker === null ? 0 : ports.findIndex((port) => port.id === marker) + 1;
      const page = ports.slice(start, start + limit);
      const links = start + limit < ports.length ? [{ rel: 'next', href: `${server.url}/network/v2.0/ports?limit=${limit}&marker=${page.at(-1)!.id}&device_id=${url.searchParams.get('device_id')}` }] : [];
      return { status: 200, body: { ports: page, ports_links: [...links, { rel: 'previous', href: 'ignored' }] } };
    });
  });

  it('follows next links until the last page, keeping the filters', async () => {
    const neutron = new NeutronClient(session);
    const ports = await neutron.ports.list({ device_id: 'server-1' }, { pageSize: 2 });
    expect(ports.map((port) => port.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    const urls = server.requests.filter((request) => request.url.startsWith('/network/')).map((request) => request.url);
    expect(urls).toEqual(['/network/v2.0/ports?device_id=server-1&limit=2', '/network/v2.0/ports?limit=2&marker=b&device_id=server-1', '/network/v2.0/ports?limit=2&marker=d&device_id=server-1']);
  });

  it('stops at maxPages and on a repeated next link', async () => {
    const neutron = new NeutronClient(session);
    expect(await neutron.ports.list({}, { pageSize: 2, maxPages: 2 })).toHaveLength(4);
    server.routes.unshift((request) =>
      request.url.startsWith('/network/v2.0/networks') ? { status: 200, body: { networks: [{ id: 'n' }], networks_links: [{ rel: 'next', href: `${server.url}/network/v2.0/networks?marker=n` }] } } : undefined,
    );
    expect(await neutron.networks.list()).toHaveLength(2);
  });
});

describe('Neutron paths', () => {
  it('uses security-groups URLs with security_group keys, and the extra-route actions', async () => {
    server.routes.push((request) => {
      if (request.url === '/network/v2.0/security-groups' && request.method === 'POST') return { status: 201, body: { security_group: { id: 'sg', ...JSON.parse(request.body).security_group } } };
      if (request.url === '/network/v2.0/routers/r1/add_extraroutes') return { status: 200, body: { router: { id: 'r1', routes: JSON.parse(request.body).router.routes } } };
      return undefined;
    });
    const neutron = new NeutronClient(session);
    expect(await neutron.securityGroups.create({ name: 'lb-sg' })).toMatchObject({ id: 'sg', name: 'lb-sg' });
    const router = await neutron.routers.addExtraRoutes('r1', [{ destination: '10.244.0.0/24', nexthop: '10.0.0.5' }]);
    expect(router.routes).toEqual([{ destination: '10.244.0.0/24', nexthop: '10.0.0.5' }]);
    expect(server.requests.at(-1)!.method).toBe('PUT');
  });
});

describe('Octavia', () => {
  it('waits with backoff until ACTIVE', async () => {
    const statuses = ['PENDING_CREATE', 'PENDING_CREATE', 'ACTIVE'];
    server.routes.push((request) => (request.url === '/load-balancer/v2/lbaas/loadbalancers/lb1' ? { status: 200, body: { loadbalancer: { id: 'lb1', provisioning_status: statuses.shift() } } } : undefined));
    const sleeps: number[] = [];
    const octavia = new OctaviaClient(session);
    const active = await octavia.loadBalancers.waitForStatus('lb1', 'ACTIVE', { sleep: async (ms) => void sleeps.push(ms) });
    expect(active?.provisioning_status).toBe('ACTIVE');
    expect(sleeps).toEqual([1000, 1200]);
  });

  it('fails on ERROR, times out as retryable, and treats 404 as deleted', async () => {
    let status = 'ERROR';
    server.routes.push((request) => {
      if (request.url === '/load-balancer/v2/lbaas/loadbalancers/gone') return { status: 404, body: { faultcode: 'Client', faultstring: 'Load Balancer gone not found.', debuginfo: null } };
      return request.url === '/load-balancer/v2/lbaas/loadbalancers/lb2' ? { status: 200, body: { loadbalancer: { id: 'lb2', provisioning_status: status } } } : undefined;
    });
    const octavia = new OctaviaClient(session);
    const noSleep = { sleep: async () => undefined };
    expect(isOpenStackError(await octavia.loadBalancers.waitForStatus('lb2', 'ACTIVE', noSleep).catch((error: unknown) => error), 'ProvisioningFailed')).toBe(true);
    status = 'PENDING_UPDATE';
    const timeout = await octavia.loadBalancers.waitForStatus('lb2', 'ACTIVE', { ...noSleep, steps: 3 }).catch((error: unknown) => error);
    expect(isOpenStackError(timeout, 'ProvisioningTimeout') && timeout.retryable).toBe(true);
    expect(await octavia.loadBalancers.waitForStatus('gone', 'DELETED', noSleep)).toBeUndefined();
    expect(server.requests.filter((request) => request.url.endsWith('/lb2'))).toHaveLength(4);
  });

  it('sends the batch member update and the cascade delete', async () => {
    server.routes.push((request) => {
      if (request.url === '/load-balancer/v2/lbaas/pools/p1/members' && request.method === 'PUT') return { status: 202 };
      if (request.url === '/load-balancer/v2/lbaas/loadbalancers/lb1?cascade=true' && request.method === 'DELETE') return { status: 204 };
      return undefined;
    });
    const octavia = new OctaviaClient(session);
    await octavia.pools.replaceMembers('p1', [{ name: 'node-1', address: '10.0.0.5', protocol_port: 30080, subnet_id: 's' }]);
    expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({ members: [{ name: 'node-1', address: '10.0.0.5', protocol_port: 30080, subnet_id: 's' }] });
    await octavia.loadBalancers.delete('lb1', undefined, { cascade: true });
  });

  it('finds the highest API version', async () => {
    server.routes.push((request) => (request.url === '/load-balancer/' ? { status: 200, body: { versions: [{ id: 'v2.0', status: 'SUPPORTED' }, { id: 'v2.26', status: 'CURRENT' }, { id: 'v2.9', status: 'SUPPORTED' }] } } : undefined));
    expect(await new OctaviaClient(session).maxVersion()).toEqual([2, 26]);
  });
});

describe('Nova', () => {
  it('sends the microversion headers and exact-name filters', async () => {
    server.routes.push((request) => (request.url.startsWith('/compute/v2.1/servers/detail') ? { status: 200, body: { servers: [{ id: 's1', name: 'node.1' }] } } : undefined));
    const nova = new NovaClient(session, { microversion: '2.47' });
    const servers = await nova.listServersDetail({ name: exactNameFilter('node.1') });
    expect(servers.map((server) => server.id)).toEqual(['s1']);
    const request = server.requests.at(-1)!;
    expect(request.url).toBe('/compute/v2.1/servers/detail?name=%5Enode%5C.1%24');
    expect(request.headers['openstack-api-version']).toBe('compute 2.47');
    expect(request.headers['x-openstack-nova-api-version']).toBe('2.47');
  });

  it('maps a missing server to NotFound and rejects a malformed microversion', async () => {
    server.routes.push((request) => (request.url === '/compute/v2.1/servers/nope' ? { status: 404, body: { itemNotFound: { code: 404, message: 'Instance nope could not be found.' } } } : undefined));
    const error = await new NovaClient(session).getServer('nope').catch((caught: unknown) => caught);
    expect(isOpenStackError(error, 'NotFound') && error.faultType === 'itemNotFound').toBe(true);
    expect(() => new NovaClient(session, { microversion: 'two' })).toThrow(/not X.Y or latest/);
  });
});
