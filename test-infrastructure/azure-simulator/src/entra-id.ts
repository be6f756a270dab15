/**
 * The slice of Entra ID (Azure AD) a confidential client uses: OpenID discovery, MSAL's instance
 * discovery and the client-credentials grant on the v2.0 and v1 token endpoints, with a client
 * secret, a certificate's client assertion or a federated (workload identity) assertion
 * (`client-assertion.ts`). Access tokens are
 * opaque to clients (JWT-shaped, HMAC-signed with a per-process key) and remembered until they
 * expire; ARM requests must carry one of them (or the configured static token).
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  JWT_BEARER_ASSERTION_TYPE,
  audiencesOf,
  certificateCredentialOf,
  hasValidSignature,
  issuerKeyOf,
  parseAssertion,
  timeRangeOf,
  type CertificateCredential,
  type FederatedIdentityCredential,
  type ParsedAssertion,
} from './client-assertion.js';

export interface EntraIdentity {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** Certificates (PEM) registered as credentials of the application. */
  clientCertificates?: readonly string[];
  /** Federated identity credentials of the application (workload identity). */
  federatedCredentials?: readonly FederatedIdentityCredential[];
}

/** The audience of a federated credential unless it names another. */
export const TOKEN_EXCHANGE_AUDIENCE = 'api://AzureADTokenExchange';

/** An access token the simulator issued. */
export interface IssuedToken {
  accessToken: string;
  /** Unix seconds. */
  issuedAt: number;
  expiresOn: number;
}

export interface EntraAnswer {
  status: number;
  body: Record<string, unknown>;
}

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3599;

export class EntraId {
  private readonly signingKey = randomBytes(32);
  private readonly issued = new Map<string, number>();
  private readonly certificates: CertificateCredential[] = [];
  private readonly federated: Array<FederatedIdentityCredential & { key: ReturnType<typeof issuerKeyOf> }> = [];

  constructor(
    private readonly identity: EntraIdentity,
    private readonly baseUrl: () => string,
    private readonly staticToken: string | undefined,
    private readonly now: () => number = Date.now,
    private readonly tokenLifetimeSeconds: number = DEFAULT_TOKEN_LIFETIME_SECONDS,
  ) {
    for (const pem of identity.clientCertificates ?? []) this.addClientCertificate(pem);
    for (const credential of identity.federatedCredentials ?? []) this.addFederatedCredential(credential);
  }

  /** Registers a certificate (PEM) as a credential of the application; returns its SHA-1 thumbprint. */
  addClientCertificate(certificatePem: string): string {
    const credential = certificateCredentialOf(certificatePem);
    this.certificates.push(credential);
    return credential.thumbprint;
  }

  /** Registers a federated identity credential (issuer, subject, audience, the issuer's key) of the application. */
  addFederatedCredential(credential: FederatedIdentityCredential): void {
    this.federated.push({ ...credential, key: issuerKeyOf(credential.issuerKeyPem) });
  }

  /** Mints an access token for `audience` on behalf of `appId` (the token endpoint's and IMDS's). */
  issue(audience: string, appId: string, version: 'v1' | 'v2'): IssuedToken {
    const issuedAt = Math.floor(this.now() / 1000);
    const expiresOn = issuedAt + this.tokenLifetimeSeconds;
    const accessToken = this.mint({ aud: audience, iss: `${this.baseUrl()}/${this.identity.tenantId}/`, iat: issuedAt, nbf: issuedAt, exp: expiresOn, appid: appId, tid: this.identity.tenantId, oid: randomUUID(), ver: version === 'v2' ? '2.0' : '1.0' });
    this.issued.set(accessToken, expiresOn * 1000);
    return { accessToken, issuedAt, expiresOn };
  }

  get lifetimeSeconds(): number {
    return this.tokenLifetimeSeconds;
  }

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
  token(tenant: string, version: 'v1' | 'v2', form: URLSearchParams, authorizationHeader: string | undefined, publicBase: string = this.baseUrl()): EntraAnswer {
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
    const assertion = form.get('client_assertion');
    if (assertion !== null && assertion !== '') {
      if (form.get('client_assertion_type') !== JWT_BEARER_ASSERTION_TYPE) {
        return this.aadError(400, 'invalid_request', 50027, `Invalid client_assertion_type '${form.get('client_assertion_type') ?? ''}': it must be '${JWT_BEARER_ASSERTION_TYPE}'.`);
      }
      const problem = this.checkAssertion(assertion, clientId, [`${publicBase}/${tenant}/oauth2/v2.0/token`, `${publicBase}/${tenant}/oauth2/token`]);
      if (problem) return problem;
    } else if (clientSecret === null || clientSecret === '') {
      return this.aadError(401, 'invalid_client', 7000218, "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.");
    } else if (!sameSecret(clientSecret, this.identity.clientSecret)) {
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
    const { accessToken, issuedAt, expiresOn } = this.issue(audience, clientId, version);
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

  /**
   * Undefined when `assertion` authenticates `clientId`: a certificate credential's assertion
   * (`iss` = the client) or a federated one (another issuer); else Entra's error answer.
   */
  private checkAssertion(assertion: string, clientId: string, tokenEndpoints: readonly string[]): EntraAnswer | undefined {
    const parsed = parseAssertion(assertion);
    if (parsed === undefined) return this.aadError(400, 'invalid_client', 50027, 'JWT token is invalid or malformed.');
    const range = timeRangeOf(parsed, this.now());
    if (range !== 'valid') {
      const detail = range === 'no-expiry' ? 'The assertion has no expiry time (exp).' : `Current time: ${new Date(this.now()).toISOString()}, expiry time of assertion ${new Date(Number(parsed.claims['exp']) * 1000).toISOString()}.`;
      return this.aadError(400, 'invalid_client', 700024, `Client assertion is not within its valid time range. ${detail}`);
    }
    return parsed.claims['iss'] === clientId ? this.checkCertificateAssertion(parsed, clientId, tokenEndpoints) : this.checkFederatedAssertion(parsed, clientId);
  }

  private checkCertificateAssertion(parsed: ParsedAssertion, clientId: string, tokenEndpoints: readonly string[]): EntraAnswer | undefined {
    if (parsed.claims['sub'] !== clientId) return this.aadError(400, 'invalid_client', 50027, `JWT token is invalid or malformed: the sub claim must be the client ID '${clientId}'.`);
    if (!audiencesOf(parsed).some((audience) => tokenEndpoints.includes(audience))) {
      return this.aadError(400, 'invalid_client', 700212, `The audience of the client assertion '${audiencesOf(parsed).join(', ')}' is not the token endpoint of the tenant.`);
    }
    const x5t = parsed.header['x5t'];
    const x5tS256 = parsed.header['x5t#S256'];
    const certificate = this.certificates.find((candidate) => candidate.x5t === x5t || candidate.x5tS256 === x5tS256);
    if (certificate === undefined) {
      const thumbprint = typeof x5t === 'string' ? Buffer.from(x5t, 'base64url').toString('hex').toUpperCase() : typeof x5tS256 === 'string' ? Buffer.from(x5tS256, 'base64url').toString('hex').toUpperCase() : '';
      return this.aadError(401, 'invalid_client', 700027, `The certificate with identifier used to sign the client assertion is not registered on application. [Reason - The key was not found., Thumbprint of key used by client: '${thumbprint}']`);
    }
    if (!hasValidSignature(parsed, certificate.publicKey)) return this.aadError(401, 'invalid_client', 700027, 'Client assertion failed signature validation.');
    return undefined;
  }

  private checkFederatedAssertion(parsed: ParsedAssertion, clientId: string): EntraAnswer | undefined {
    const issuer = String(parsed.claims['iss'] ?? '');
    const subject = String(parsed.claims['sub'] ?? '');
    const ofIssuer = this.federated.filter((credential) => credential.issuer === issuer);
    if (ofIssuer.length === 0) return this.aadError(400, 'invalid_request', 700211, `No matching federated identity record found for presented assertion issuer '${issuer}'. Please check your federated identity credential Subject, Audience and Issuer against the presented assertion.`);
    const ofSubject = ofIssuer.filter((credential) => credential.subject === subject);
    if (ofSubject.length === 0) return this.aadError(400, 'invalid_request', 700213, `No matching federated identity record found for presented assertion subject '${subject}'. Please check your federated identity credential Subject, Audience and Issuer against the presented assertion.`);
    const audiences = audiencesOf(parsed);
    const matching = ofSubject.find((credential) => audiences.includes(credential.audience ?? TOKEN_EXCHANGE_AUDIENCE));
    if (matching === undefined) return this.aadError(400, 'invalid_request', 700212, `No matching federated identity record found for presented assertion audience '${audiences.join(', ')}'. Please check your federated identity credential Subject, Audience and Issuer against the presented assertion.`);
    if (!hasValidSignature(parsed, matching.key)) return this.aadError(400, 'invalid_client', 700027, `Client assertion failed signature validation. The assertion of issuer '${issuer}' for application '${clientId}' is not signed by the issuer's key.`);
    return undefined;
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
