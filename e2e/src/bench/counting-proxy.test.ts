import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateSelfSignedCertificate } from '@ccm/kube-emulator';
import type { CloudRequest } from '@ccm/testing/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { startCountingProxy, type CountingProxy } from './counting-proxy.js';

/** Echoes what it received, as JSON; `/throttle` answers 429. */
function echo(incoming: IncomingMessage, outgoing: ServerResponse): void {
  const chunks: Buffer[] = [];
  incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
  incoming.on('end', () => {
    outgoing.writeHead(incoming.url === '/throttle' ? 429 : 200, { 'content-type': 'application/json', 'x-echo': 'yes' });
    outgoing.end(JSON.stringify({ method: incoming.method, path: incoming.url, host: incoming.headers.host, body: Buffer.concat(chunks).toString() }));
  });
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

const byFirstWord = (request: CloudRequest): string => request.body.split(' ')[0] || `${request.method} ${request.path}`;

describe('the counting proxy', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function proxyOver(server: Server, secure: boolean, ca?: string): Promise<CountingProxy> {
    const port = await listen(server);
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const proxy = await startCountingProxy({ url: `${secure ? 'https' : 'http'}://127.0.0.1:${port}`, ...(ca === undefined ? {} : { ca }), operationOf: byFirstWord });
    cleanups.push(() => proxy.close());
    return proxy;
  }

  it('forwards requests and answers unchanged and counts them by operation', async () => {
    const proxy = await proxyOver(createHttpServer(echo), false);
    const first = await fetch(`${proxy.url}/one?x=1`, { method: 'POST', body: 'DescribeInstances please' });
    expect(first.headers.get('x-echo')).toBe('yes');
    const echoed = (await first.json()) as { host: string };
    expect(echoed).toMatchObject({ method: 'POST', path: '/one?x=1', body: 'DescribeInstances please' });
    // The simulator sees its own host, not the proxy's.
    expect(echoed.host).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(echoed.host).not.toBe(new URL(proxy.url).host);
    await fetch(`${proxy.url}/two`, { method: 'POST', body: 'DescribeInstances again' });
    await fetch(`${proxy.url}/three`);
    expect((await fetch(`${proxy.url}/throttle`)).status).toBe(429);
    expect(proxy.counts()).toEqual({ total: 4, throttled: 1, byOperation: { DescribeInstances: 2, 'GET /three': 1, 'GET /throttle': 1 } });
    proxy.reset();
    expect(proxy.counts()).toEqual({ total: 0, throttled: 0, byOperation: {} });
  });

  it('serves HTTPS with its own certificate in front of an HTTPS simulator it trusts by CA', async () => {
    const simulator = generateSelfSignedCertificate(['127.0.0.1']);
    const proxy = await proxyOver(createHttpsServer({ key: simulator.privateKeyPem, cert: simulator.certificatePem }, echo), true, simulator.certificatePem);
    expect(proxy.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const body = await new Promise<string>((resolve, reject) => {
      const request = httpsRequest(`${proxy.url}/sdk`, { method: 'POST', ca: proxy.certificate }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve(text));
      });
      request.on('error', reject);
      request.end('RetrievePropertiesEx body');
    });
    expect(JSON.parse(body)).toMatchObject({ path: '/sdk', body: 'RetrievePropertiesEx body' });
    expect(proxy.counts().byOperation).toEqual({ RetrievePropertiesEx: 1 });
  });

  it('answers 502 when the simulator is gone', async () => {
    const server = createHttpServer(echo);
    const proxy = await proxyOver(server, false);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const response = await fetch(`${proxy.url}/x`);
    expect(response.status).toBe(502);
    expect(await response.text()).toMatch(/did not answer/);
    expect(proxy.counts().total).toBe(1);
  });
});
