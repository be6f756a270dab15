/**
 * A reverse proxy between the CCM and a cloud simulator that counts what the CCM asks: every
 * request is named by the driver's `operationOf` (the AWS `Action=`, the vSphere SOAP method) and
 * counted before it is forwarded unchanged. HTTPS targets get an HTTPS proxy with a certificate
 * of its own (the CCM is told to trust it); the proxy trusts the simulator's CA.
 */
import { Agent as HttpAgent, createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { errorMessage } from '@ccm/core/util';
import { generateSelfSignedCertificate } from '@ccm/kube-emulator';
import type { CloudEndpoint } from '@ccm/testing/conformance';

export interface ProxyCounts {
  /** Requests the CCM sent (forwarded or not). */
  total: number;
  /** Answers with HTTP 429 or 503 (the cloud asking to slow down). */
  throttled: number;
  byOperation: Record<string, number>;
}

export interface CountingProxy {
  /** Where the CCM must send its cloud requests. */
  readonly url: string;
  /** PEM of the proxy's certificate (HTTPS only): the CCM's CA file. */
  readonly certificate: string | undefined;
  counts(): ProxyCounts;
  reset(): void;
  close(): Promise<void>;
}

/** Hop-by-hop headers are the proxy's own business (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export async function startCountingProxy(endpoint: CloudEndpoint): Promise<CountingProxy> {
  const target = new URL(endpoint.url);
  const secure = target.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true, maxSockets: 64, ...(endpoint.ca === undefined ? {} : { ca: endpoint.ca }) }) : new HttpAgent({ keepAlive: true, maxSockets: 64 });
  const send = secure ? httpsRequest : httpRequest;
  let counts: ProxyCounts = { total: 0, throttled: 0, byOperation: {} };

  const forward = async (incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> => {
    const body = await readBody(incoming);
    const path = incoming.url ?? '/';
    const operation = endpoint.operationOf({ method: incoming.method ?? 'GET', path, headers: incoming.headers, body: body.toString('utf8') });
    counts.total++;
    counts.byOperation[operation] = (counts.byOperation[operation] ?? 0) + 1;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    headers['host'] = target.host;
    // The origin the client reached, for servers that echo their own URLs (the Azure simulator's Entra discovery).
    if (incoming.headers.host !== undefined) headers['x-forwarded-host'] = incoming.headers.host;
    headers['content-length'] = String(body.length);
    const upstream = send({ protocol: target.protocol, hostname: target.hostname, port: target.port, method: incoming.method, path, headers, agent }, (answer) => {
      const status = answer.statusCode ?? 502;
      if (status === 429 || status === 503) counts.throttled++;
      const answerHeaders: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) answerHeaders[name] = value;
      outgoing.writeHead(status, answerHeaders);
      answer.pipe(outgoing);
    });
    upstream.on('error', (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`counting proxy: ${target.origin} did not answer: ${error.message}`);
    });
    upstream.end(body);
  };
  const handler = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    forward(incoming, outgoing).catch((error: unknown) => {
      if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'text/plain' });
      outgoing.end(`counting proxy: ${errorMessage(error)}`);
    });
  };

  const certificate = secure ? generateSelfSignedCertificate(['127.0.0.1', 'localhost']) : undefined;
  const server: Server = certificate === undefined ? createHttpServer(handler) : createHttpsServer({ key: certificate.privateKeyPem, cert: certificate.certificatePem }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `${secure ? 'https' : 'http'}://127.0.0.1:${port}`,
    certificate: certificate?.certificatePem,
    counts: () => ({ total: counts.total, throttled: counts.throttled, byOperation: { ...counts.byOperation } }),
    reset: () => {
      counts = { total: 0, throttled: 0, byOperation: {} };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
