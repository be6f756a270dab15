/**
 * One base URL for every OpenStack service, so that the benchmark's counting proxy (which fronts
 * one URL) sees each call of the CCM: Keystone is served at the root, and every service of the
 * catalog under `/svc/<type>`; the token answers' catalogs are rewritten to point there, on the
 * host the request came to (`x-forwarded-host` when behind the proxy). Bodies other than the
 * token's are passed through unchanged.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CloudRequest } from '@ccm/testing/conformance';

const SERVICE_PREFIX = /^\/svc\/([^/]+)(\/.*)?$/;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'content-length', 'host']);

interface CatalogEndpoint {
  url: string;
}

interface CatalogEntry {
  type: string;
  endpoints: CatalogEndpoint[];
}

export interface CatalogRouter {
  readonly url: string;
  close(): Promise<void>;
}

/** `compute GET /servers/detail`, `network GET /v2.0/ports`, `identity POST /v3/auth/tokens` (IDs as `{id}`). */
export function openStackOperationOf(request: CloudRequest): string {
  const path = request.path.split('?')[0] ?? '';
  const match = SERVICE_PREFIX.exec(path);
  const service = match?.[1] ?? 'identity';
  const rest = match === null ? path : (match[2] ?? '/');
  const template = rest
    .split('/')
    .map((segment) => (/^[0-9a-f]{8}-[0-9a-f]{4}-|^[0-9a-f]{32}$/i.test(segment) ? '{id}' : segment))
    .join('/');
  return `${service} ${request.method} ${template.replace(/^\/v2\.1(?=\/)/, '')}`;
}

/** Starts the router in front of Keystone at `authUrl` (its origin) on 127.0.0.1. */
export async function startCatalogRouter(authUrl: string): Promise<CatalogRouter> {
  const keystone = new URL(authUrl);
  /** Service type -> the origin of its catalog endpoint, learnt from the token answers. */
  const origins = new Map<string, string>();

  const rewriteCatalog = (body: string, publicBase: string): string => {
    const parsed = JSON.parse(body) as { token?: { catalog?: CatalogEntry[] } };
    for (const entry of parsed.token?.catalog ?? []) {
      for (const endpoint of entry.endpoints) {
        const original = new URL(endpoint.url);
        if (original.origin === keystone.origin) continue;
        origins.set(entry.type, original.origin);
        endpoint.url = `${publicBase}/svc/${entry.type}${original.pathname.replace(/\/$/, '')}${original.search}`;
      }
    }
    return JSON.stringify(parsed);
  };

  const forward = (incoming: IncomingMessage, outgoing: ServerResponse, body: Buffer): void => {
    const path = incoming.url ?? '/';
    const match = SERVICE_PREFIX.exec(path.split('?')[0] ?? '');
    const origin = match === null ? keystone.origin : origins.get(match[1] ?? '');
    if (origin === undefined) {
      outgoing.writeHead(502, { 'content-type': 'text/plain' }).end(`no catalog endpoint known for ${path}`);
      return;
    }
    const target = new URL(origin);
    const targetPath = match === null ? path : `${match[2] ?? '/'}${path.includes('?') ? `?${path.split('?').slice(1).join('?')}` : ''}`;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    headers['content-length'] = String(body.length);
    const publicBase = `http://${String(incoming.headers['x-forwarded-host'] ?? incoming.headers.host ?? '')}`;
    const upstream = httpRequest({ hostname: target.hostname, port: target.port, method: incoming.method, path: targetPath, headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        let text = Buffer.concat(chunks);
        const isToken = match === null && /\/auth\/tokens$/.test(path.split('?')[0] ?? '') && (answer.statusCode ?? 0) < 300 && text.length > 0;
        if (isToken) text = Buffer.from(rewriteCatalog(text.toString('utf8'), publicBase));
        const answerHeaders: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) answerHeaders[name] = value;
        answerHeaders['content-length'] = String(text.length);
        outgoing.writeHead(answer.statusCode ?? 502, answerHeaders).end(text);
      });
    });
    upstream.on('error', (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(error.message);
    });
    upstream.end(body);
  };

  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => forward(incoming, outgoing, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
