import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenStack, type FakeOpenStackServer } from '../__tests__/fake-openstack-server.js';
import { OpenStackError } from '../openstack-error.js';
import { HttpTransport } from './http-transport.js';
import { createOpenStackDispatcher } from './tls-options.js';

describe('HttpTransport', () => {
  let server: FakeOpenStackServer;
  const transport = new HttpTransport({ timeoutMs: 2_000 });

  beforeAll(async () => {
    server = await startFakeOpenStack();
    server.routes.push((request) => {
      if (request.url === '/conflict') return { status: 409, body: { faultcode: 'Client', faultstring: 'Load Balancer 1 is immutable and cannot be updated.', debuginfo: null } };
      if (request.url === '/in-use') return { status: 409, body: { NeutronError: { type: 'IpAddressInUse', message: 'address in use', detail: '' } } };
      if (request.url === '/broken') return { status: 500, body: '<html>Internal Server Error</html>' };
      if (request.url === '/not-json') return { status: 200, body: 'hello' };
      if (request.url === '/rate') return { status: 429, body: { message: 'slow down' } };
      if (request.url === '/echo') return { status: 200, body: { method: request.method, body: request.body, contentType: request.headers['content-type'], agent: request.headers['user-agent'] } };
      return undefined;
    });
  });
  afterAll(() => server.close());

  const failure = async (url: string, options: Partial<Parameters<HttpTransport['send']>[0]> = {}, using = transport): Promise<OpenStackError> => {
    try {
      await using.send({ method: 'GET', url, operation: `GET ${url}`, ...options });
    } catch (error) {
      if (error instanceof OpenStackError) return error;
      throw error;
    }
    throw new Error('expected a failure');
  };

  it('sends JSON and parses the answer', async () => {
    const response = await transport.send({ method: 'POST', url: `${server.url}/echo`, body: { a: 1 }, operation: 'echo' });
    expect(response.json).toEqual({ method: 'POST', body: '{"a":1}', contentType: 'application/json', agent: 'openstack-client-ts' });
    expect(response.requestId).toMatch(/^req-/);
  });

  it('maps a fault to its kind, message, fault type and request id; 404 is not retryable', async () => {
    const error = await failure(`${server.url}/missing`);
    expect(error.kind).toBe('NotFound');
    expect(error.httpStatus).toBe(404);
    expect(error.faultType).toBe('HTTPNotFound');
    expect(error.requestId).toMatch(/^req-\d+$/);
    expect(error.message).toContain('no route for GET /missing');
    expect(error.retryable).toBe(false);
  });

  it('retries Octavia immutability conflicts, not other conflicts', async () => {
    expect((await failure(`${server.url}/conflict`)).retryable).toBe(true);
    expect((await failure(`${server.url}/in-use`)).retryable).toBe(false);
  });

  it('marks 5xx and 429 retryable', async () => {
    const broken = await failure(`${server.url}/broken`);
    expect([broken.kind, broken.retryable, broken.message]).toEqual(['ServerError', true, `GET ${server.url}/broken: HTTP 500: Internal Server Error (request ${broken.requestId})`]);
    const rate = await failure(`${server.url}/rate`);
    expect([rate.kind, rate.retryable]).toEqual(['OverLimit', true]);
  });

  it('reports a success body that is not JSON as InvalidResponse', async () => {
    expect((await failure(`${server.url}/not-json`)).kind).toBe('InvalidResponse');
  });

  it('reports a refused connection as a retryable Transport error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(`http://127.0.0.1:${port}/`);
    expect([error.kind, error.retryable]).toEqual(['Transport', true]);
  });

  it('times out and aborts', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const quick = new HttpTransport({ timeoutMs: 200 });
    expect((await failure(`http://127.0.0.1:${port}/`, {}, quick)).kind).toBe('Timeout');
    const controller = new AbortController();
    controller.abort();
    expect((await failure(`http://127.0.0.1:${port}/`, { signal: controller.signal })).kind).toBe('Aborted');
    silent.close();
  });
});

describe('createOpenStackDispatcher', () => {
  it('rejects an unreadable CA file and a half client certificate', () => {
    expect(() => createOpenStackDispatcher({ caFile: '/nonexistent/ca.pem' })).toThrow(/cannot read the CA file \/nonexistent\/ca.pem: ENOENT/);
    expect(() => createOpenStackDispatcher({ certFile: '/x.pem' })).toThrow(/needs both certFile and keyFile/);
  });

  it('accepts insecure and default settings', () => {
    expect(createOpenStackDispatcher({ insecure: true })).toBeDefined();
    expect(createOpenStackDispatcher()).toBeDefined();
  });
});
