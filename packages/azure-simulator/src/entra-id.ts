/**
 * The slice of Entra ID (Azure AD) a confidential client uses: OpenID discovery, MSAL's instance
 * discovery and the client-credentials grant on the v2.0 and v1 token endpoints. Access tokens are
 * opaque to clients (JWT-shaped, HMAC-signed with a per-process key) and remembered until they
 * expire; ARM requests must carry one of them (or the configured static token).
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

export interface EntraIdentity {
  tenantId: string;
  clientId: string;
  clientSecret: string;
}

export interface EntraAnswer {
  status: number;
  body: Record<string, unknown>;
}

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3599;

export class EntraId {
  private readonly signingKey = randomBytes(32);
  private readonly issued = new Map<string, number>();

  constructor(
    private readonly identity: EntraIdentity,
    private readonly baseUrl: () => string,
    private readonly staticToken: string | undefined,
    private readonly now: () => number = Date.now,
    private readonly tokenLifetimeSeconds: number = DEFAULT_TOKEN_LIFETIME_SECONDS,
  ) {}

  /**
   * `/{tenant}/v2.0/.well-known/openid-configuration` (and the v1 document without `/v2.0`).
   * `publicBase` is the origin the client reached (its Host header): MSAL refuses endpoints on
   * another host than its authority, so a client behind a proxy gets the proxy's URLs.
   */
  openIdConfiguration(tenant: string, version: 'v1' | 'v2', publicBase: string = this.baseUrl()): EntraAnswer {
    const check = this.checkTenant(tenant);
    if (check) return check;
    const base = `${publicBase}/${tenant}`;
    const v2 = version === 'v2' ? '/v2.0' : '';
    return {
      status: 200,
      body: {
        token_endpoint: `${base}/oauth2${v2}/token`,
        token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
        jwks_uri: `${publicBase}/${tenant}/discovery${v2}/keys`,
        response_modes_supported: ['query', 'fragment', 'form_post'],
        subject_types_supported: ['pairwise'],
        id_token_signing_alg_values_supported: ['RS256'],
        response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
        scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
        issuer: version === 'v2' ? `${publicBase}/${this.identity.tenantId}/v2.0` : `${publicBase}/${this.identity.tenantId}/`,
        request_uri_parameter_supported: false,
        authorization_endpoint: `${base}/oauth2${v2}/authorize`,
        device_authorization_endpoint: `${base}/oauth2${v2}/devicecode`,
        http_logout_supported: true,
        frontchannel_logout_supported: true,
        end_session_endpoint: `${base}/oauth2${v2}/logout`,
        claims_supported: ['sub', 'iss', 'cloud_instance_name', 'cloud_instance_host_name', 'cloud_graph_host_name', 'msgraph_host', 'aud', 'exp', 'iat', 'auth_time', 'acr', 'nonce', 'tid', 'ver', 'at_hash', 'c_hash', 'email'],
        tenant_region_scope: 'NA',
        cloud_instance_name: 'microsoftonline.com',
        cloud_graph_host_name: 'graph.windows.net',
        msgraph_host: 'graph.microsoft.com',
        rbac_url: 'https://pas.windows.net',
      },
    };
  }

  /** `/common/discovery/instance?api-version=1.1&authorization_endpoint=...` (MSAL's cloud discovery). */
  instanceDiscovery(authorizationEndpoint: string | null): EntraAnswer {
    const host = new URL(this.baseUrl()).host;
    const tenant = tenantOfAuthorizationEndpoint(authorizationEndpoint) ?? 'common';
    return {
      status: 200,
      body: {
        tenant_discovery_endpoint: `${this.baseUrl()}/${tenant}/v2.0/.well-known/openid-configuration`,
        'api-version': '1.1',
        metadata: [{ preferred_network: host, preferred_cache: host, aliases: [host] }],
      },
    };
  }

  /** `POST /{tenant}/oauth2/v2.0/token` (`v2`, `scope`) or `POST /{tenant}/oauth2/token` (`v1`, `resource`). */
  token(tenant: string, version: 'v1' | 'v2', form: URLSearchParams, authorizationHeader: string | undefined): EntraAnswer {
    const tenantProblem = this.checkTenant(tenant);
    if (tenantProblem) return tenantProblem;
    const grantType = form.get('grant_type');
    if (grantType !== 'client_credentials') {
      return this.aadError(400, 'unsupported_grant_type', 70003, `The app requested an unsupported grant type '${grantType ?? ''}'.`);
    }
    let clientId = form.get('client_id');
    let clientSecret = form.get('client_secret');
    const basic = /^Basic\s+(.+)$/i.exec(authorizationHeader ?? '');
    if (basic?.[1] !== undefined) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const separator = decoded.indexOf(':');
      clientId = decodeURIComponent(decoded.slice(0, separator));
      clientSecret = decodeURIComponent(decoded.slice(separator + 1));
    }
    if (clientId === null || clientId === '') {
      return this.aadError(400, 'invalid_request', 900144, "The request body must contain the following parameter: 'client_id'.");
    }
    if (clientId !== this.identity.clientId) {
      return this.aadError(
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${clientId}' was not found in the directory '${this.identity.tenantId}'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You may have sent your authentication request to the wrong tenant.`,
      );
    }
    if (clientSecret === null || clientSecret === '') {
      return this.aadError(401, 'invalid_client', 7000218, "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.");
    }
    if (!sameSecret(clientSecret, this.identity.clientSecret)) {
      return this.aadError(
        401,
        'invalid_client',
        7000215,
        `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`,
      );
    }
    const audience = version === 'v2' ? audienceOfScope(form.get('scope')) : form.get('resource');
    if (audience === undefined || audience === null || audience === '') {
      return version === 'v2'
        ? this.aadError(400, 'invalid_scope', 1002012, `The provided value for scope ${form.get('scope') ?? ''} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`)
        : this.aadError(400, 'invalid_request', 50001, 'The resource principal named  was not found in the tenant.');
    }
    const issuedAt = Math.floor(this.now() / 1000);
    const expiresOn = issuedAt + this.tokenLifetimeSeconds;
    const accessToken = this.mint({ aud: audience, iss: `${this.baseUrl()}/${this.identity.tenantId}/`, iat: issuedAt, nbf: issuedAt, exp: expiresOn, appid: clientId, tid: this.identity.tenantId, oid: randomUUID(), ver: version === 'v2' ? '2.0' : '1.0' });
    this.issued.set(accessToken, expiresOn * 1000);
    if (version === 'v2') {
      return { status: 200, body: { token_type: 'Bearer', expires_in: this.tokenLifetimeSeconds, ext_expires_in: this.tokenLifetimeSeconds, access_token: accessToken } };
    }
    return {
      status: 200,
      body: {
        token_type: 'Bearer',
        expires_in: String(this.tokenLifetimeSeconds),
        ext_expires_in: String(this.tokenLifetimeSeconds),
        expires_on: String(expiresOn),
        not_before: String(issuedAt),
        resource: audience,
        access_token: accessToken,
      },
    };
  }

  /** 'valid', or why a bearer token is not accepted. */
  checkBearer(token: string): 'valid' | 'unknown' | 'expired' {
    if (this.staticToken !== undefined && sameSecret(token, this.staticToken)) return 'valid';
    const expiresAt = this.issued.get(token);
    if (expiresAt === undefined) return 'unknown';
    if (expiresAt <= this.now()) return 'expired';
    return 'valid';
  }

  private checkTenant(tenant: string): EntraAnswer | undefined {
    if (tenant.toLowerCase() === this.identity.tenantId.toLowerCase() || tenant === 'common' || tenant === 'organizations') return undefined;
    return this.aadError(
      400,
      'invalid_request',
      90002,
      `Tenant '${tenant}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud. Check with your subscription administrator, this may happen if there are no active subscriptions for the tenant.`,
    );
  }

  private aadError(status: number, error: string, code: number, description: string): EntraAnswer {
    const traceId = randomUUID();
    const correlationId = randomUUID();
    const timestamp = new Date(this.now()).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
    return {
      status,
      body: {
        error,
        error_description: `AADSTS${code}: ${description} Trace ID: ${traceId} Correlation ID: ${correlationId} Timestamp: ${timestamp}`,
        error_codes: [code],
        timestamp,
        trace_id: traceId,
        correlation_id: correlationId,
        error_uri: `${this.baseUrl()}/error?code=${code}`,
      },
    };
  }

  private mint(claims: Record<string, unknown>): string {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ typ: 'JWT', alg: 'HS256', kid: 'azure-simulator' })}.${encode(claims)}`;
    return `${unsigned}.${createHmac('sha256', this.signingKey).update(unsigned).digest('base64url')}`;
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `https://management.azure.com/.default` -> `https://management.azure.com/`; undefined unless one `/.default` scope. */
function audienceOfScope(scope: string | null): string | undefined {
  const scopes = (scope ?? '').split(' ').filter((entry) => entry !== '' && !['openid', 'profile', 'offline_access'].includes(entry));
  if (scopes.length !== 1 || !scopes[0]?.endsWith('/.default')) return undefined;
  return scopes[0].slice(0, -'.default'.length);
}

function tenantOfAuthorizationEndpoint(endpoint: string | null): string | undefined {
  if (endpoint === null) return undefined;
  try {
    return new URL(endpoint).pathname.split('/').filter((part) => part !== '')[0];
  } catch {
    return undefined;
  }
}
