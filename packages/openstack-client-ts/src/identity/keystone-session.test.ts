import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenStack, type FakeOpenStackServer } from '../__tests__/fake-openstack-server.js';
import { isOpenStackError } from '../openstack-error.js';
import { authenticationBody } from './keystone-request.js';
import { KeystoneSession, appendQuery, normalizeAuthUrl, selectEndpoint } from './keystone-session.js';
import type { CatalogEntry } from './keystone-types.js';

describe('authenticationBody', () => {
  it('password with user name and domain, project scope by name', () => {
    expect(authenticationBody({ method: 'password', username: 'demo', userDomainName: 'Default', password: 's3cret' }, { projectName: 'demo', projectDomainId: 'default' })).toEqual({
      auth: {
        identity: { methods: ['password'], password: { user: { name: 'demo', domain: { name: 'Default' }, password: 's3cret' } } },
        scope: { project: { name: 'demo', domain: { id: 'default' } } },
      },
    });
  });

  it('password with a user ID and project ID; domain and trust scopes', () => {
    const password = { method: 'password', userId: 'u1', password: 'p' } as const;
    expect(authenticationBody(password, { projectId: 'p1' })['auth']).toMatchObject({ identity: { password: { user: { id: 'u1' } } }, scope: { project: { id: 'p1' } } });
    expect(authenticationBody(password, { domainName: 'Default' })['auth']).toMatchObject({ scope: { domain: { name: 'Default' } } });
    expect(authenticationBody(password, { trustId: 't1' })['auth']).toMatchObject({ scope: { 'OS-TRUST:trust': { id: 't1' } } });
  });

  it('application credentials by ID or by name and user; never scoped', () => {
    expect(authenticationBody({ method: 'applicationCredential', id: 'ac1', secret: 'x' }, undefined)).toEqual({ auth: { identity: { methods: ['application_credential'], application_credential: { id: 'ac1', secret: 'x' } } } });
    expect(authenticationBody({ method: 'applicationCredential', name: 'ccm', username: 'demo', userDomainId: 'default', secret: 'x' }, undefined)['auth']).toMatchObject({
      identity: { application_credential: { name: 'ccm', user: { name: 'demo', domain: { id: 'default' } } } },
    });
    expect(() => authenticationBody({ method: 'applicationCredential', id: 'ac1', secret: 'x' }, { projectId: 'p' })).toThrow(/already scoped/);
    expect(() => authenticationBody({ method: 'applicationCredential', secret: 'x' }, undefined)).toThrow(/credential ID, or its name and user/);
  });

  it('token method; bad input names the problem', () => {
    expect(authenticationBody({ method: 'token', token: 'abc' }, undefined)).toEqual({ auth: { identity: { methods: ['token'], token: { id: 'abc' } } } });
    expect(() => authenticationBody({ method: 'password', username: 'demo', password: 'p' }, undefined)).toThrow(/needs a user domain/);
    expect(() => authenticationBody({ method: 'password', userId: 'u', password: '' }, undefined)).toThrow(/needs a password/);
    expect(() => authenticationBody({ method: 'password', userId: 'u', password: 'p' }, { projectName: 'x' })).toThrow(/needs a project domain/);
  });
});

describe('URLs and the catalog', () => {
  it('normalizes the auth URL to /v3', () => {
    expect(normalizeAuthUrl('http://k:5000')).toBe('http://k:5000/v3');
    expect(normalizeAuthUrl('http://k:5000/v3/')).toBe('http://k:5000/v3');
    expect(normalizeAuthUrl('https://k/identity/v2.0')).toBe('https://k/identity/v3');
    expect(() => normalizeAuthUrl('k:5000')).toThrow(/not http\(s\)|not a URL/);
  });

  it('appends queries with repeated keys', () => {
    expect(appendQuery('http://x/ports', { device_id: 'd', fixed_ips: ['ip_address=10.0.0.1', 'subnet_id=s'], skip: undefined })).toBe('http://x/ports?device_id=d&fixed_ips=ip_address%3D10.0.0.1&fixed_ips=subnet_id%3Ds');
    expect(appendQuery('http://x/next?marker=m', { limit: 2 })).toBe('http://x/next?marker=m&limit=2');
  });

  const catalog: CatalogEntry[] = [
    {
      id: 'n',
      type: 'network',
      name: 'neutron',
      endpoints: [
        { id: '1', interface: 'public', region_id: 'RegionOne', url: 'http://one-public:9696/' },
        { id: '2', interface: 'internal', region_id: 'RegionOne', url: 'http://one-internal:9696' },
        { id: '3', interface: 'public', region_id: 'RegionTwo', url: 'http://two-public:9696' },
      ],
    },
  ];

  it('selects by interface and region', () => {
    expect(selectEndpoint(catalog, 'network', 'public', 'RegionOne')).toBe('http://one-public:9696');
    expect(selectEndpoint(catalog, 'network', 'internal', 'RegionOne')).toBe('http://one-internal:9696');
    expect(selectEndpoint(catalog, 'network', 'public', 'RegionTwo')).toBe('http://two-public:9696');
    expect(selectEndpoint(catalog, 'network', 'public', undefined)).toBe('http://one-public:9696');
  });

  it('names what is missing', () => {
    expect(() => selectEndpoint(catalog, 'compute', 'public', undefined)).toThrow('the catalog has no service of type compute');
    expect(() => selectEndpoint(catalog, 'network', 'admin', 'RegionTwo')).toThrow('the catalog has no network endpoint for interface admin, region RegionTwo');
  });
});

describe('KeystoneSession against a local server', () => {
  let server: FakeOpenStackServer;
  let clock = Date.now();

  beforeAll(async () => {
    server = await startFakeOpenStack();
    server.routes.push((request) => (request.url.startsWith('/network/v2.0/networks') ? { status: 200, body: { networks: [], token: request.headers['x-auth-token'] } } : undefined));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    server.nextExpiry = () => new Date(clock + 3_600_000);
  });

  const session = (): KeystoneSession =>
    new KeystoneSession({
      authUrl: `${server.url}/identity`,
      credentials: { method: 'password', username: 'demo', userDomainName: 'Default', password: 'pw' },
      scope: { projectName: 'demo', projectDomainName: 'Default' },
      region: 'RegionOne',
      now: () => clock,
    });

  it('authenticates once, reuses the token, and reads the token body', async () => {
    const keystone = session();
    const [first, second] = await Promise.all([keystone.token(), keystone.token()]);
    expect(first).toBe(second);
    expect(first.projectName).toBe('demo');
    expect(first.roles).toEqual(['member']);
    expect(server.requests.filter((request) => request.url.endsWith('/auth/tokens'))).toHaveLength(1);
    expect(JSON.parse(server.requests[0]!.body)).toEqual(authenticationBody({ method: 'password', username: 'demo', userDomainName: 'Default', password: 'pw' }, { projectName: 'demo', projectDomainName: 'Default' }));
  });

  it('re-authenticates when the token is about to expire', async () => {
    const keystone = session();
    server.nextExpiry = () => new Date(clock + 120_000);
    const first = await keystone.token();
    clock += 30_000;
    expect(await keystone.token()).toBe(first);
    clock += 40_000; // 50 s left: inside the 60 s margin
    const second = await keystone.token();
    expect(second.id).not.toBe(first.id);
  });

  it('sends the token to the catalog endpoint and re-authenticates once on 401', async () => {
    const keystone = session();
    const first = await keystone.token();
    server.revoked.add(first.id);
    const response = await keystone.request('network', { method: 'GET', path: '/v2.0/networks', query: { name: 'x' } });
    const used = (response.json as { token: string }).token;
    expect(used).not.toBe(first.id);
    expect(server.requests.at(-1)!.url).toBe('/network/v2.0/networks?name=x');
  });

  it('surfaces a wrong password as Unauthorized', async () => {
    server.routes.unshift((request) => (request.url === '/bad/v3/auth/tokens' ? { status: 401, body: { error: { code: 401, title: 'Unauthorized', message: 'The request you have made requires authentication.' } } } : undefined));
    const keystone = new KeystoneSession({ authUrl: `${server.url}/bad`, credentials: { method: 'password', userId: 'u', password: 'wrong' } });
    const error = await keystone.token().catch((caught: unknown) => caught);
    expect(isOpenStackError(error, 'Unauthorized')).toBe(true);
    expect(String(error)).not.toContain('wrong');
  });
});
