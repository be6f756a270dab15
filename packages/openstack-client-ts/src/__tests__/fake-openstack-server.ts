/**
 * A local HTTP server for unit tests: Keystone's token endpoint (with a catalog pointing back at
 * this server for network, load-balancer and compute) plus whatever routes a test adds. Records
 * every request.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Route = (request: RecordedRequest) => FakeResponse | undefined;

export interface FakeOpenStackServer {
  url: string;
  requests: RecordedRequest[];
  routes: Route[];
  /** Tokens issued so far (`token-1`, `token-2`, ...); a token in `revoked` gets 401 from services. */
  issued: string[];
  revoked: Set<string>;
  /** `expires_at` of the next token; default in one hour. */
  nextExpiry: () => Date;
  close(): Promise<void>;
}

export async function startFakeOpenStack(): Promise<FakeOpenStackServer> {
  const requests: RecordedRequest[] = [];
  const routes: Route[] = [];
  const issued: string[] = [];
  const revoked = new Set<string>();
  let url = '';
  const state: FakeOpenStackServer = {
    url: '',
    requests,
    routes,
    issued,
    revoked,
    nextExpiry: () => new Date(Date.now() + 3_600_000),
    close: async () => undefined,
  };
  const server: Server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: RecordedRequest = { method: incoming.method ?? '', url: incoming.url ?? '', headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      const send = (response: FakeResponse): void => {
        const text = response.body === undefined ? '' : typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
        outgoing.writeHead(response.status, { 'Content-Type': 'application/json', 'x-openstack-request-id': `req-${requests.length}`, ...response.headers });
        outgoing.end(text);
      };
      if (request.method === 'POST' && request.url === '/identity/v3/auth/tokens') {
        const token = `token-${issued.length + 1}`;
        issued.push(token);
        const catalogEntry = (type: string, path: string): unknown => ({
          id: type,
          type,
          name: type,
          endpoints: [
            { id: `${type}-public-r1`, interface: 'public', region_id: 'RegionOne', region: 'RegionOne', url: `${url}${path}` },
            { id: `${type}-internal-r1`, interface: 'internal', region_id: 'RegionOne', region: 'RegionOne', url: `${url}/internal${path}` },
            { id: `${type}-public-r2`, interface: 'public', region_id: 'RegionTwo', region: 'RegionTwo', url: `${url}/region-two${path}` },
          ],
        });
        send({
          status: 201,
          headers: { 'X-Subject-Token': token },
          body: {
            token: {
              methods: ['password'],
              expires_at: state.nextExpiry().toISOString(),
              issued_at: new Date().toISOString(),
              user: { id: 'user-id', name: 'demo' },
              project: { id: 'project-id', name: 'demo' },
              roles: [{ name: 'member' }],
              catalog: [catalogEntry('network', '/network/'), catalogEntry('load-balancer', '/load-balancer'), catalogEntry('compute', '/compute/v2.1')],
            },
          },
        });
        return;
      }
      const token = request.headers['x-auth-token'];
      if (typeof token === 'string' && revoked.has(token)) {
        send({ status: 401, body: { error: { code: 401, title: 'Unauthorized', message: 'The request you have made requires authentication.' } } });
        return;
      }
      for (const route of routes) {
        const response = route(request);
        if (response !== undefined) {
          send(response);
          return;
        }
      }
      send({ status: 404, body: { NeutronError: { type: 'HTTPNotFound', message: `no route for ${request.method} ${request.url}`, detail: '' } } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  url = `http://127.0.0.1:${address.port}`;
  state.url = url;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
