import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { parseBatchRequest, renderBatchResponse } from './batch-requests.js';
import type { ComputeRoute } from './compute-route.js';
import { ComputeState } from './compute-state.js';
import { DiscoveryValidator } from './discovery/discovery-validator.js';
import { GceError, UnauthorizedError } from './gce-error.js';
import { catalogRoutes } from './resources/catalog-routes.js';
import { instanceRoutes } from './resources/instance-resources.js';
import { handleMetadataRequest, METADATA_PREFIX, type MetadataInstance } from './metadata-server.js';
import { loadBalancerRoutes } from './resources/load-balancer-resources.js';
import { networkRoutes } from './resources/network-resources.js';
import { TokenIssuer } from './token-issuer.js';

export interface GceSimulatorOptions {
  /** Default 0 (a free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default `ccm-test-project`. */
  project?: string;
  /** Default `us-central1`. */
  region?: string;
  /** Default `[<region>-a, <region>-b]`. */
  zones?: string[];
  /** The network instances and firewalls use when they name none. Default `default`. */
  network?: string;
  /** A Compute v1 discovery document: every request and response is checked against it. */
  discoveryDocument?: string;
  /** Serve Compute calls without `Authorization: Bearer <issued token>`. */
  allowAnonymous?: boolean;
  /** Called with one line per Compute call: `METHOD /compute/v1/... -> STATUS [reason]`. */
  logRequest?: (line: string) => void;
  /**
   * The machine the metadata server (`/computeMetadata/v1/`) describes. Default: an instance
   * `ccm-control-plane` in the first zone, on the default network.
   */
  metadataInstance?: Partial<MetadataInstance>;
}

export interface GceSimulator {
  /** `http://127.0.0.1:PORT`, no trailing slash. The API is under `${url}/compute/v1/`. */
  url: string;
  project: string;
  region: string;
  zones: string[];
  network: string;
  /** `${url}/token`: POST answers `{accessToken, expireTime}` (and OAuth2 form posts `{access_token, expires_in}`). */
  tokenUrl: string;
  /** `127.0.0.1:PORT`: the value for `GCE_METADATA_HOST` (the metadata server is under `/computeMetadata/v1/`). */
  metadataHost: string;
  /** The discovery document's revision when one is checked against. */
  discoveryRevision: string | undefined;
  /** Every discovery-document violation seen so far (refused requests and faulty responses). */
  discoveryViolations(): readonly string[];
  /** The methods served, as discovery ids with their HTTP method and path template. */
  routes(): readonly Pick<ComputeRoute, 'id' | 'httpMethod' | 'path'>[];
  close(): Promise<void>;
}

const API_PREFIX = '/compute/v1/';
/** Google's batch endpoint for Compute v1 (gcloud sends several calls as one multipart/mixed POST). */
const BATCH_PATH = '/batch/compute/v1';
const MAX_BODY_BYTES = 10 * 1024 * 1024;

interface CompiledRoute {
  route: ComputeRoute;
  pattern: RegExp;
  names: string[];
}

function compile(route: ComputeRoute): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const variable = /^\{([^}]+)\}$/.exec(segment);
      if (variable === null) return segment;
      names.push(variable[1] ?? '');
      return '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), names };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new GceError('invalid', 'The request body is too large.');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function sendError(response: ServerResponse, error: GceError): void {
  send(response, error.httpStatus, error.toBody());
}

function defaultZones(region: string): string[] {
  return [`${region}-a`, `${region}-b`];
}

/** Starts the simulator on an HTTP port; see the package README for what it serves. */
export async function startGceSimulator(options: GceSimulatorOptions = {}): Promise<GceSimulator> {
  const project = options.project ?? 'ccm-test-project';
  const region = options.region ?? 'us-central1';
  const zones = options.zones ?? defaultZones(region);
  const network = options.network ?? 'default';
  for (const zone of zones) {
    if (!zone.startsWith(`${region}-`)) throw new Error(`zone ${zone} is not in region ${region}`);
  }
  const validator = options.discoveryDocument === undefined ? undefined : DiscoveryValidator.fromFile(options.discoveryDocument);
  const violations: string[] = [];
  const tokens = new TokenIssuer();
  let routes: CompiledRoute[] = [];
  const metadata = {
    project,
    numericProjectId: '100000000042',
    serviceAccountEmail: `cloud-controller-manager@${project}.iam.gserviceaccount.com`,
    instance: { name: 'ccm-control-plane', zone: zones[0] ?? `${region}-a`, id: '4200000000000000042', machineType: 'e2-standard-4', network, ...options.metadataInstance },
    issueToken: () => ({ token: tokens.issue().token, lifetimeSeconds: tokens.lifetimeSeconds }),
  };

  const handleToken = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const text = await readBody(request);
    const { token, expiresAt } = tokens.issue();
    if ((request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded') && new URLSearchParams(text).has('grant_type')) {
      send(response, 200, { access_token: token, expires_in: tokens.lifetimeSeconds, token_type: 'Bearer' });
      return;
    }
    send(response, 200, { accessToken: token, expireTime: expiresAt.toISOString() });
  };

  const authorized = (authorization: string | undefined): boolean => {
    if (options.allowAnonymous === true) return true;
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    return match !== null && tokens.isValid(match[1] ?? '');
  };

  /** One Compute call, from the HTTP server or from a part of a batch request. */
  const dispatch = (method: string, url: URL, authorization: string | undefined, text: string): { status: number; body: unknown } => {
    try {
      const body = computeCall(method, url, authorization, text);
      options.logRequest?.(`${method} ${url.pathname}${url.search} -> 200`);
      return { status: 200, body };
    } catch (error) {
      const failure = error instanceof GceError ? error : new GceError('backendError', error instanceof Error ? error.message : String(error));
      options.logRequest?.(`${method} ${url.pathname}${url.search} -> ${failure.httpStatus} ${failure.reason}: ${failure.message}`);
      return { status: failure.httpStatus, body: failure.toBody() };
    }
  };

  const computeCall = (method: string, url: URL, authorization: string | undefined, text: string): unknown => {
    const relative = url.pathname.slice(API_PREFIX.length);
    if (!authorized(authorization)) throw new UnauthorizedError(authorization === undefined);
    let body: Record<string, unknown> | undefined;
    if (text.trim() !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new GceError('badRequest', 'Invalid JSON payload received.');
      }
      // google-gax's REST transport sends `""` as the body of bodiless POSTs (operations wait, instances stop).
      if (parsed !== '' && parsed !== null) {
        if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new GceError('badRequest', 'Invalid JSON payload received. The body must be a JSON object.');
        body = parsed as Record<string, unknown>;
      }
    }
    const described = validator?.match(method, relative);
    if (validator !== undefined) {
      if (described === undefined) {
        const message = `${method} ${url.pathname} is not a method of the Compute API (discovery revision ${validator.revision})`;
        violations.push(message);
        throw new GceError('invalid', message);
      }
      const found = validator.validateRequest(described.method, described.pathParams, url.searchParams, body);
      if (found.length > 0) {
        violations.push(...found.map((violation) => `${described.method.id}: ${violation}`));
        throw new GceError('invalid', `Invalid request for ${described.method.id} (discovery revision ${validator.revision}): ${found.join('; ')}`);
      }
    }
    for (const compiled of routes) {
      if (compiled.route.httpMethod !== method) continue;
      const match = compiled.pattern.exec(relative);
      if (match === null) continue;
      const params: Record<string, string> = {};
      compiled.names.forEach((name, index) => {
        params[name] = decodeURIComponent(match[index + 1] ?? '');
      });
      const result = compiled.route.handle({ params, query: url.searchParams, body });
      if (described !== undefined && validator !== undefined) {
        const found = [
          ...(described.method.id === compiled.route.id ? [] : [`served by ${compiled.route.id} but described as ${described.method.id}`]),
          ...validator.validateResponse(described.method, result),
        ];
        if (found.length > 0) {
          violations.push(...found.map((violation) => `${described.method.id}: ${violation}`));
          throw new GceError('backendError', `The simulator's response to ${described.method.id} breaks the discovery document: ${found.join('; ')}`);
        }
      }
      return result;
    }
    if (described !== undefined) throw new GceError('notImplemented', `${described.method.id} is not simulated.`);
    throw new GceError('notFound', `The requested URL ${url.pathname} was not found on this server.`);
  };

  const handleBatch = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const boundary = /boundary="?([^";]+)"?/i.exec(request.headers['content-type'] ?? '')?.[1];
    if (boundary === undefined) throw new GceError('badRequest', 'A batch request must be multipart/mixed with a boundary.');
    const parts = parseBatchRequest(await readBody(request), boundary);
    const answers = parts.map((part) => {
      const url = new URL(part.target, 'http://gce-simulator');
      const answer = url.pathname.startsWith(API_PREFIX)
        ? dispatch(part.method, url, part.headers['authorization'] ?? request.headers.authorization, part.body)
        : { status: 404, body: new GceError('notFound', `The requested URL ${url.pathname} was not found on this server.`).toBody() };
      return { contentId: part.headers['content-id'], ...answer };
    });
    const responseBoundary = `batch_${randomBytes(12).toString('hex')}`;
    const text = renderBatchResponse(answers, responseBoundary);
    response.writeHead(200, { 'content-type': `multipart/mixed; boundary=${responseBoundary}`, 'content-length': Buffer.byteLength(text) });
    response.end(text);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://gce-simulator');
    try {
      if (url.pathname === '/token') {
        if (request.method !== 'POST') throw new GceError('invalid', 'POST /token.');
        await handleToken(request, response);
        return;
      }
      if (url.pathname.startsWith(API_PREFIX)) {
        const answer = dispatch(request.method ?? 'GET', url, request.headers.authorization, await readBody(request));
        send(response, answer.status, answer.body);
        return;
      }
      if (url.pathname.startsWith(METADATA_PREFIX)) {
        handleMetadataRequest(request, response, metadata);
        return;
      }
      if (url.pathname === BATCH_PATH && request.method === 'POST') {
        await handleBatch(request, response);
        return;
      }
      throw new GceError('notFound', `The requested URL ${url.pathname} was not found on this server.`);
    } catch (error) {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      sendError(response, error instanceof GceError ? error : new GceError('backendError', error instanceof Error ? error.message : String(error)));
    }
  };

  const server = createServer((request, response) => void handle(request, response));
  // Longer than any client's idle keep-alive, so the client closes an idle connection first: a
  // server closing it at the moment a client reuses it answers that request with ECONNRESET.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  const state = new ComputeState({ project, region, zones, network, apiBase: `${url}${API_PREFIX}` });
  routes = [...catalogRoutes(state), ...networkRoutes(state), ...instanceRoutes(state), ...loadBalancerRoutes(state)].map(compile);

  let closed: Promise<void> | undefined;
  return {
    url,
    project,
    region,
    zones: [...zones],
    network,
    tokenUrl: `${url}/token`,
    metadataHost: `${host}:${address.port}`,
    discoveryRevision: validator?.revision,
    discoveryViolations: () => [...violations],
    routes: () => routes.map(({ route }) => ({ id: route.id, httpMethod: route.httpMethod, path: route.path })),
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
