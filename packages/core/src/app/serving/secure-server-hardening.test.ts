// The secure port against slow and greedy clients: slowloris clients (headers dribbled byte by
// byte, TCP connections that never start TLS) do not delay the port's other clients, and are
// cut off by the headers, request and handshake timeouts; the connection cap holds.
import { request } from 'node:https';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls, type TLSSocket } from 'node:tls';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger.js';
import { HealthChecks } from './health-checks.js';
import { SECURE_SERVER_LIMITS, startSecureServer, type RunningSecureServer, type SecureServerLimits } from './secure-server.js';
import { generateSelfSignedCertificate } from './self-signed-certificate.js';
import { createServingHandler } from './serving-handler.js';

const certificate = generateSelfSignedCertificate();
const sockets: Socket[] = [];
let server: RunningSecureServer | undefined;

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server?.close();
  server = undefined;
});

async function serve(limits: Partial<SecureServerLimits> = {}): Promise<number> {
  server = await startSecureServer({
    bindAddress: '127.0.0.1',
    port: 0,
    certificate,
    limits,
    handler: createServingHandler({
      healthChecks: new HealthChecks(),
      metrics: new Registry(),
      configz: () => ({}),
      logger: silentLogger,
      // /debug/flags/v reads a request body.
      verbosity: { verbosity: () => 0, setVerbosity: () => undefined },
    }),
  });
  return server.address.port;
}

function healthz(port: number): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path: '/healthz', rejectUnauthorized: false, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, ms: performance.now() - started }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** A TCP connection that never starts TLS. */
function silentTcpClient(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp({ host: '127.0.0.1', port }, () => resolve(socket));
    socket.on('error', () => undefined);
    socket.once('error', reject);
    sockets.push(socket);
  });
}

/** A TLS client that completes the handshake, then sends its request headers one byte per interval, never finishing them. */
function slowlorisClient(port: number, intervalMs: number): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connectTls({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
      const timer = setInterval(() => {
        if (!socket.destroyed && socket.writable) socket.write('a');
      }, intervalMs);
      socket.once('close', () => clearInterval(timer));
      resolve(socket);
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
    sockets.push(socket);
  });
}

function closed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    if (socket.destroyed) resolve(received);
    else socket.once('close', () => resolve(received));
  });
}

describe('secure server hardening', () => {
  it('sets upstream-like limits explicitly', () => {
    expect(SECURE_SERVER_LIMITS).toEqual({
      headersTimeoutMs: 32_000,
      requestTimeoutMs: 60_000,
      handshakeTimeoutMs: 10_000,
      maxConnections: 1024,
      keepAliveTimeoutMs: 5_000,
      timeoutCheckIntervalMs: 2_000,
    });
  });

  it('keeps answering /healthz promptly while slowloris clients hold connections', async () => {
    const port = await serve();
    const slow = await Promise.all([
      ...Array.from({ length: 60 }, () => slowlorisClient(port, 100)),
      ...Array.from({ length: 60 }, () => silentTcpClient(port)),
    ]);
    expect(slow).toHaveLength(120);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const reply = await healthz(port);
      expect(reply).toMatchObject({ status: 200, body: 'ok' });
      // A bound that holds on a busy 2-core machine; unloaded it is a few milliseconds.
      expect(reply.ms).toBeLessThan(3_000);
    }
    expect(slow.every((socket) => !socket.destroyed)).toBe(true);
  });

  it('closes a connection that never finishes the TLS handshake, and one whose headers never end', async () => {
    const port = await serve({ handshakeTimeoutMs: 300, headersTimeoutMs: 600, requestTimeoutMs: 1_000, timeoutCheckIntervalMs: 100 });
    const silent = await silentTcpClient(port);
    const slowloris = await slowlorisClient(port, 50);
    const [silentOutcome, slowlorisOutcome] = await Promise.all([closed(silent), closed(slowloris)]);
    expect(silentOutcome).toBe('');
    // Node answers 408 to a request whose headers took too long.
    expect(slowlorisOutcome).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(await healthz(port)).toMatchObject({ status: 200 });
  });

  it('closes a request whose body never arrives within the request timeout', async () => {
    const port = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 600, timeoutCheckIntervalMs: 100 });
    const socket = await new Promise<TLSSocket>((resolve) => {
      const client = connectTls({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => resolve(client));
      client.on('error', () => undefined);
      sockets.push(client);
    });
    socket.write('PUT /debug/flags/v HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\n1');
    expect(await closed(socket)).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it('caps the open connections: one more is closed at once, and served again once one goes', async () => {
    const port = await serve({ maxConnections: 3 });
    const held = await Promise.all([silentTcpClient(port), silentTcpClient(port), silentTcpClient(port)]);
    const extra = await silentTcpClient(port);
    expect(await closed(extra)).toBe('');
    expect(held.every((socket) => !socket.destroyed)).toBe(true);
    (held[0] as Socket).destroy();
    // The server sees the close a moment later; wait for a request to get through.
    let reply: { status: number } | undefined;
    for (let attempt = 0; attempt < 50 && reply === undefined; attempt += 1) {
      reply = await healthz(port).catch(() => undefined);
      if (reply === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(reply).toMatchObject({ status: 200 });
  });
});
