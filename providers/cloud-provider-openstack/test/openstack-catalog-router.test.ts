/** The benchmark's one-URL router: operation names, and catalog rewriting against a fake Keystone and service. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openStackOperationOf, startCatalogRouter, type CatalogRouter } from './conformance/openstack-catalog-router.js';

describe('openStackOperationOf', () => {
  it.each([
    ['POST', '/v3/auth/tokens', 'identity POST /v3/auth/tokens'],
    ['GET', '/svc/compute/v2.1/servers/detail?name=%5E(a%7Cb)%24', 'compute GET /servers/detail'],
    ['GET', '/svc/compute/v2.1/servers/5d6c3a4e-1f5a-4c1e-9e5b-0a1b2c3d4e5f', 'compute GET /servers/{id}'],
    ['GET', '/svc/network/v2.0/ports?device_id=a&device_id=b', 'network GET /v2.0/ports'],
    ['PUT', '/svc/network/v2.0/routers/0123456789abcdef0123456789abcdef/add_extraroutes', 'network PUT /v2.0/routers/{id}/add_extraroutes'],
  ])('%s %s -> %s', (method, path, expected) => {
    expect(openStackOperationOf({ method, path, headers: {}, body: '' })).toBe(expected);
  });
});

describe('startCatalogRouter', () => {
  const servers: Server[] = [];
  let router: CatalogRouter | undefined;
  afterEach(async () => {
    await router?.close();
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });

  async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('points the catalog at itself and forwards service calls to the real endpoint', async () => {
    const nova = await listen((request, response) => response.end(JSON.stringify({ path: request.url })));
    const keystone = await listen((_request, response) => {
      response.setHeader('x-subject-token', 'token');
      response.end(JSON.stringify({ token: { catalog: [{ type: 'compute', endpoints: [{ url: `${nova}/v2.1` }] }] } }));
    });
    router = await startCatalogRouter(`${keystone}/v3`);
    const token = (await (await fetch(`${router.url}/v3/auth/tokens`, { method: 'POST', body: '{}' })).json()) as { token: { catalog: Array<{ endpoints: Array<{ url: string }> }> } };
    const computeUrl = token.token.catalog[0]?.endpoints[0]?.url ?? '';
    expect(computeUrl).toBe(`${router.url}/svc/compute/v2.1`);
    expect(await (await fetch(`${computeUrl}/servers/detail?name=x`)).json()).toEqual({ path: '/v2.1/servers/detail?name=x' });
  });
});
