/**
 * A Keystone v3 session: authenticates lazily, keeps the token until `reauthenticateBeforeMs`
 * before it expires, finds service endpoints in the token's catalog (region and interface),
 * and sends authenticated requests to a service, re-authenticating once on a 401.
 */
import { OpenStackError } from '../openstack-error.js';
import { HttpTransport, type HttpResponse } from '../http/http-transport.js';
import { authenticationBody } from './keystone-request.js';
import type { CatalogEntry, EndpointInterface, KeystoneCredentials, KeystoneScope, KeystoneToken } from './keystone-types.js';

export type QueryValue = string | number | boolean | readonly (string | number | boolean)[] | undefined;
export type Query = Record<string, QueryValue>;

export interface KeystoneSessionOptions {
  /** `https://keystone.example:5000` or `.../v3`. */
  authUrl: string;
  credentials: KeystoneCredentials;
  scope?: KeystoneScope;
  /** Endpoint selection; region default: any (the first in the catalog). */
  region?: string;
  /** Default `public`. */
  interface?: EndpointInterface;
  transport?: HttpTransport;
  /** Re-authenticate this long before the token expires; default 60 s. */
  reauthenticateBeforeMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export interface ServiceRequest {
  method: string;
  /** Appended to the endpoint URL, or an absolute URL (a pagination link). */
  path: string;
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  expectedStatuses?: readonly number[];
  signal?: AbortSignal;
}

/** `.../v3` for any form of the auth URL. */
export function normalizeAuthUrl(authUrl: string): string {
  let url: URL;
  try {
    url = new URL(authUrl);
  } catch (error) {
    throw new OpenStackError(`the auth URL ${JSON.stringify(authUrl)} is not a URL`, { kind: 'InvalidConfiguration', operation: 'Keystone authentication', cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OpenStackError(`the auth URL ${JSON.stringify(authUrl)} is not http(s)`, { kind: 'InvalidConfiguration', operation: 'Keystone authentication' });
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = /\/v3$/.test(path) ? path : `${path.replace(/\/v2\.0$/, '')}/v3`;
  return url.toString().replace(/\/$/, '');
}

export function appendQuery(url: string, query: Query | undefined): string {
  if (query === undefined) return url;
  const parameters = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value as readonly (string | number | boolean)[]) parameters.append(key, String(item));
    else parameters.append(key, String(value));
  }
  const text = parameters.toString();
  return text === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${text}`;
}

/** The endpoint URL of a service type in a catalog (no trailing slash). */
export function selectEndpoint(catalog: readonly CatalogEntry[], serviceType: string, endpointInterface: EndpointInterface, region: string | undefined): string {
  const candidates = catalog.filter((entry) => entry.type === serviceType);
  for (const entry of candidates) {
    const endpoint = entry.endpoints.find((candidate) => candidate.interface === endpointInterface && (region === undefined || candidate.region_id === region || candidate.region === region));
    if (endpoint !== undefined) return endpoint.url.replace(/\/+$/, '');
  }
  const where = `interface ${endpointInterface}${region === undefined ? '' : `, region ${region}`}`;
  const message = candidates.length === 0 ? `the catalog has no service of type ${serviceType}` : `the catalog has no ${serviceType} endpoint for ${where}`;
  throw new OpenStackError(message, { kind: 'EndpointNotFound', operation: `catalog ${serviceType}` });
}

interface TokenBody {
  token?: {
    expires_at?: string;
    issued_at?: string;
    methods?: string[];
    user?: { id?: string; name?: string };
    project?: { id?: string; name?: string };
    domain?: { id?: string };
    roles?: { name?: string }[];
    catalog?: CatalogEntry[];
  };
}

export class KeystoneSession {
  readonly authUrl: string;
  readonly transport: HttpTransport;
  readonly #options: KeystoneSessionOptions;
  #token: KeystoneToken | undefined;
  #authenticating: Promise<KeystoneToken> | undefined;

  constructor(options: KeystoneSessionOptions) {
    this.#options = options;
    this.authUrl = normalizeAuthUrl(options.authUrl);
    this.transport = options.transport ?? new HttpTransport();
    // Checked now, so bad options fail at construction rather than at the first call.
    authenticationBody(options.credentials, options.scope);
  }

  get region(): string | undefined {
    return this.#options.region;
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }

  /** A valid token, authenticating when there is none or it expires soon. */
  async token(signal?: AbortSignal): Promise<KeystoneToken> {
    const margin = this.#options.reauthenticateBeforeMs ?? 60_000;
    if (this.#token !== undefined && this.#token.expiresAt.getTime() - margin > this.#now()) return this.#token;
    this.#authenticating ??= this.#authenticate(signal).finally(() => {
      this.#authenticating = undefined;
    });
    return this.#authenticating;
  }

  /** Forget the token (the next call authenticates again). */
  invalidate(): void {
    this.#token = undefined;
  }

  async #authenticate(signal: AbortSignal | undefined): Promise<KeystoneToken> {
    const response = await this.transport.send({
      method: 'POST',
      url: `${this.authUrl}/auth/tokens`,
      body: authenticationBody(this.#options.credentials, this.#options.scope),
      expectedStatuses: [201],
      operation: 'POST identity /v3/auth/tokens',
      ...(signal === undefined ? {} : { signal }),
    });
    const id = response.headers.get('x-subject-token');
    const body = (response.json ?? {}) as TokenBody;
    const token = body.token;
    if (id === null || token?.expires_at === undefined) {
      throw new OpenStackError('POST identity /v3/auth/tokens: the answer has no X-Subject-Token or no token body', { kind: 'InvalidResponse', operation: 'POST identity /v3/auth/tokens', httpStatus: response.status });
    }
    this.#token = {
      id,
      expiresAt: new Date(token.expires_at),
      issuedAt: new Date(token.issued_at ?? Date.now()),
      methods: token.methods ?? [],
      userId: token.user?.id ?? '',
      userName: token.user?.name ?? '',
      projectId: token.project?.id,
      projectName: token.project?.name,
      domainId: token.domain?.id,
      roles: (token.roles ?? []).map((role) => role.name ?? '').filter((name) => name !== ''),
      catalog: token.catalog ?? [],
    };
    return this.#token;
  }

  /** The URL of a service (catalog type `network`, `load-balancer`, `compute`). */
  async endpoint(serviceType: string, options: { region?: string; interface?: EndpointInterface; signal?: AbortSignal } = {}): Promise<string> {
    const token = await this.token(options.signal);
    return selectEndpoint(token.catalog, serviceType, options.interface ?? this.#options.interface ?? 'public', options.region ?? this.#options.region);
  }

  /** An authenticated request to a service; one re-authentication and retry on 401. */
  async request(serviceType: string, request: ServiceRequest): Promise<HttpResponse> {
    const attempt = async (): Promise<HttpResponse> => {
      const token = await this.token(request.signal);
      const base = /^https?:\/\//.test(request.path) ? request.path : `${selectEndpoint(token.catalog, serviceType, this.#options.interface ?? 'public', this.#options.region)}${request.path}`;
      const url = appendQuery(base, request.query);
      return this.transport.send({
        method: request.method,
        url,
        headers: { ...request.headers, 'X-Auth-Token': token.id },
        ...(request.body === undefined ? {} : { body: request.body }),
        ...(request.expectedStatuses === undefined ? {} : { expectedStatuses: request.expectedStatuses }),
        operation: `${request.method} ${serviceType} ${new URL(url).pathname}`,
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
    };
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof OpenStackError) || error.kind !== 'Unauthorized' || this.#options.credentials.method === 'token') throw error;
      this.invalidate();
      return attempt();
    }
  }
}
