/**
 * Starts the Azure simulator: an HTTPS server (throwaway CA, certificate for 127.0.0.1/localhost)
 * that serves Entra ID's client-credentials token endpoints (client secret, certificate and
 * federated client assertions) and Azure Resource Manager for one subscription, and a plain-HTTP
 * listener for the Instance Metadata Service's managed identity tokens. Returns the endpoint fields a client needs (the same JSON the binary writes) and
 * `close()`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArmError } from './arm-error.js';
import { ArmRouter, type ArmReply } from './arm-router.js';
import { ArmSchemaValidator, bodyShapeOf, validateBody, type ArmSchema } from './arm-schema-validator.js';
import { ArmState } from './arm-state.js';
import type { FederatedIdentityCredential } from './client-assertion.js';
import { EntraId } from './entra-id.js';
import { startInstanceMetadataService, type ManagedIdentities, type ManagedIdentity } from './instance-metadata-service.js';
import { LongRunningOperations } from './long-running-operations.js';
import { RequestThrottle, type ThrottleSettings } from './request-throttle.js';
import type { Json } from './resource-id.js';
import { createThrowawayCertificates } from './throwaway-certificate-authority.js';

export interface AzureSimulatorOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default eastus. */
  location?: string;
  subscriptionId?: string;
  tenantId?: string;
  clientId?: string;
  clientSecret?: string;
  /** A bearer token ARM accepts besides the ones the token endpoint issued (for clients with a static credential). */
  staticToken?: string;
  /** Certificates (PEM) registered as credentials of the client: client assertions signed with their keys are accepted. */
  clientCertificates?: string[];
  /** Federated identity credentials of the client (workload identity): assertions of these issuers and subjects are accepted. */
  federatedCredentials?: FederatedIdentityCredential[];
  /**
   * The managed identities IMDS serves: the VM's system-assigned identity (default: one, with
   * random IDs; false: none) and user-assigned identities (default none).
   */
  managedIdentities?: { systemAssigned?: boolean; userAssigned?: ManagedIdentity[] };
  /** Port of the plain-HTTP IMDS listener (default 0, any free port). */
  imdsPort?: number;
  /** Lifetime of issued access tokens (default 3599 s); short ones exercise ExpiredAuthenticationToken and refreshes. */
  tokenLifetimeSeconds?: number;
  /** Status polls a long-running operation answers InProgress before it succeeds. Default 1; 0 completes at once. */
  pollsBeforeDone?: number;
  /** Items per list page: lists beyond it answer with `nextLink` (default: everything on one page). */
  pageSize?: number;
  /** ARM throttling (429 with Retry-After); off by default. */
  throttle?: ThrottleSettings;
  /** Keep every ARM request and response (`exchanges`) for schema checks. */
  recordExchanges?: boolean;
  /**
   * A schema dumped by schema/dump_schema.py: PUT bodies outside it are refused with 400
   * InvalidRequestContent (read-only keys are ignored, as ARM does), and a response of the
   * simulator's own outside it becomes a 500 naming the problem.
   */
  schemaFile?: string;
}

/** The fields written to the endpoint file. */
export interface AzureSimulatorEndpoint {
  resourceManagerEndpoint: string;
  activeDirectoryEndpoint: string;
  caCertFile: string;
  tenantId: string;
  subscriptionId: string;
  clientId: string;
  clientSecret: string;
  location: string;
  /** Present when a static token was configured. */
  staticToken?: string;
  /** The Instance Metadata Service (managed identity tokens), plain HTTP: `http://127.0.0.1:<port>`. */
  imdsEndpoint: string;
  /** Client ID of the VM's system-assigned managed identity, when it has one. */
  managedIdentityClientId?: string;
}

export interface ArmExchange {
  method: string;
  /** Path and query. */
  path: string;
  requestBody: Json | undefined;
  status: number;
  responseBody: unknown;
}

export interface AzureSimulator extends AzureSimulatorEndpoint {
  /** PEM of the CA that signed the serving certificate. */
  caCertificatePem: string;
  /** ARM requests and responses so far (only with `recordExchanges`). */
  exchanges: ArmExchange[];
  /** Changes ARM throttling at run time (undefined: off). */
  setThrottle(settings: ThrottleSettings | undefined): void;
  /** Changes how many polls a new long-running operation takes. */
  setPollsBeforeDone(polls: number): void;
  /** Completes every unfinished long-running operation. */
  finishOperations(): void;
  /** Changes the list page size (undefined: one page). */
  setPageSize(size: number | undefined): void;
  /** Registers a certificate (PEM) as a credential of the client; returns its SHA-1 thumbprint. */
  addClientCertificate(certificatePem: string): string;
  /** Registers a federated identity credential of the client. */
  addFederatedCredential(credential: FederatedIdentityCredential): void;
  /** The managed identities IMDS serves. */
  managedIdentities: ManagedIdentities;
  /** IMDS token requests so far. */
  imdsRequests(): number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

export async function startAzureSimulator(options: AzureSimulatorOptions = {}): Promise<AzureSimulator> {
  const location = options.location ?? 'eastus';
  const subscriptionId = options.subscriptionId ?? randomUUID();
  const tenantId = options.tenantId ?? randomUUID();
  const clientId = options.clientId ?? randomUUID();
  const clientSecret = options.clientSecret ?? `sim~${randomUUID()}`;
  let pollsBeforeDone = options.pollsBeforeDone ?? 1;
  let baseUrl = '';

  const certificates = createThrowawayCertificates();
  const directory = await mkdtemp(join(tmpdir(), 'azure-simulator-'));
  const caCertFile = join(directory, 'ca.crt');
  await writeFile(caCertFile, certificates.certificateAuthority.certificatePem, { mode: 0o644 });

  const state = new ArmState(subscriptionId, location);
  const operations = new LongRunningOperations(() => baseUrl, subscriptionId, () => pollsBeforeDone);
  let pageSize = options.pageSize;
  const router = new ArmRouter(state, operations, () => baseUrl, () => pageSize);
  const entra = new EntraId(
    { tenantId, clientId, clientSecret, clientCertificates: options.clientCertificates ?? [], federatedCredentials: options.federatedCredentials ?? [] },
    () => baseUrl,
    options.staticToken,
    Date.now,
    options.tokenLifetimeSeconds,
  );
  const managedIdentities: ManagedIdentities = {
    systemAssigned: options.managedIdentities?.systemAssigned === false ? undefined : { clientId: randomUUID(), objectId: randomUUID() },
    userAssigned: options.managedIdentities?.userAssigned ?? [],
  };
  const throttle = new RequestThrottle();
  throttle.configure(options.throttle);
  const exchanges: ArmExchange[] = [];
  const validator = options.schemaFile === undefined ? undefined : new ArmSchemaValidator(JSON.parse(await readFile(options.schemaFile, 'utf8')) as ArmSchema, { allowReadOnlyInRequests: true });

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', baseUrl);
    const method = (request.method ?? 'GET').toUpperCase();
    const raw = await readBody(request);
    const parts = url.pathname.split('/').filter((part) => part !== '');
    const lower = parts.map((part) => part.toLowerCase());
    const requestId = randomUUID();
    const common = { 'x-ms-request-id': requestId, 'x-ms-correlation-request-id': requestId };

    // Entra ID.
    if (lower[0] !== 'subscriptions') {
      const answer = entraAnswer(method, lower, parts, url, raw, request.headers.authorization, header(request, 'x-forwarded-host') || request.headers.host);
      if (answer) return send(response, answer.status, answer.body, { ...common, 'cache-control': 'no-store, no-cache' });
      return send(response, 404, { error: 'invalid_request', error_description: `azure-simulator serves no ${method} ${url.pathname}` }, common);
    }

    // Azure Resource Manager.
    let reply: ArmReply;
    let requestBody: Json | undefined;
    try {
      const authorization = request.headers.authorization ?? '';
      const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
      if (bearer === undefined) {
        throw new ArmError(401, 'AuthenticationFailed', "Authentication failed. The 'Authorization' header is missing.", wwwAuthenticate(baseUrl, tenantId, "The authentication failed because of missing 'Authorization' header."));
      }
      const verdict = entra.checkBearer(bearer);
      if (verdict === 'expired') throw new ArmError(401, 'ExpiredAuthenticationToken', 'The access token expiry UTC time is earlier than current UTC time.', wwwAuthenticate(baseUrl, tenantId, 'The access token has expired.'));
      if (verdict === 'unknown') throw new ArmError(401, 'InvalidAuthenticationToken', 'The access token is invalid.', wwwAuthenticate(baseUrl, tenantId, 'The access token is invalid.'));
      const write = !['GET', 'HEAD'].includes(method);
      const admission = throttle.admit(write);
      if ('retryAfterSeconds' in admission) {
        throw new ArmError(
          429,
          'TooManyRequests',
          `The request is being throttled as the limit has been reached for operation type - ${write ? 'Write' : 'Read'}. For more information, see - https://aka.ms/armthrottling`,
          { 'retry-after': String(admission.retryAfterSeconds) },
        );
      }
      requestBody = parseJson(raw);
      if (validator && method === 'PUT' && requestBody !== undefined) {
        const shape = bodyShapeOf(`${url.pathname}${url.search}`);
        const problems = shape && !shape.list ? validateBody(validator, shape, requestBody, 'request') : [];
        if (problems.length > 0) {
          throw new ArmError(400, 'InvalidRequestContent', `The request content was invalid and could not be deserialized: ${problems.slice(0, 5).join('; ')}`);
        }
      }
      reply = router.handle({ method, url, headers: { 'if-match': header(request, 'if-match'), 'if-none-match': header(request, 'if-none-match') }, body: requestBody ?? {} });
      reply = { ...reply, headers: { ...admission.headers, ...reply.headers } };
    } catch (error) {
      if (!(error instanceof ArmError)) throw error;
      reply = { status: error.status, body: error.toBody(), headers: error.headers };
    }
    if (validator && reply.body !== undefined) {
      const shape = reply.status >= 400 ? { model: 'compute.CloudError', list: false } : bodyShapeOf(`${url.pathname}${url.search}`);
      const problems = shape ? validateBody(validator, shape, reply.body, 'response') : [];
      if (problems.length > 0) {
        reply = { status: 500, body: { error: { code: 'InternalServerError', message: `azure-simulator: its own response is outside the ARM schema: ${problems.slice(0, 5).join('; ')}` } } };
      }
    }
    if (options.recordExchanges) exchanges.push({ method, path: `${url.pathname}${url.search}`, requestBody: raw.length > 0 ? requestBody : undefined, status: reply.status, responseBody: reply.body });
    send(response, reply.status, reply.body, { ...common, ...reply.headers }, method === 'HEAD');
  };

  function entraAnswer(method: string, lower: string[], parts: string[], url: URL, raw: Buffer, authorization: string | undefined, host: string | undefined) {
    const publicBase = host === undefined || host === '' ? baseUrl : `https://${host}`;
    const tenant = parts[0] ?? '';
    if (method === 'GET' && lower[0] === 'common' && lower[1] === 'discovery' && lower[2] === 'instance' && lower.length === 3) {
      return entra.instanceDiscovery(url.searchParams.get('authorization_endpoint'));
    }
    if (method === 'GET' && lower.length === 4 && lower[1] === 'v2.0' && lower[2] === '.well-known' && lower[3] === 'openid-configuration') return entra.openIdConfiguration(tenant, 'v2', publicBase);
    if (method === 'GET' && lower.length === 3 && lower[1] === '.well-known' && lower[2] === 'openid-configuration') return entra.openIdConfiguration(tenant, 'v1', publicBase);
    if (method === 'GET' && lower[1] === 'discovery' && lower[lower.length - 1] === 'keys') return { status: 200, body: { keys: [] } };
    if (method === 'POST' && lower.length === 4 && lower[1] === 'oauth2' && lower[2] === 'v2.0' && lower[3] === 'token') return entra.token(tenant, 'v2', new URLSearchParams(raw.toString('utf8')), authorization, publicBase);
    if (method === 'POST' && lower.length === 3 && lower[1] === 'oauth2' && lower[2] === 'token') return entra.token(tenant, 'v1', new URLSearchParams(raw.toString('utf8')), authorization, publicBase);
    return undefined;
  }

  const server: Server = createServer({ key: certificates.server.privateKeyPem, cert: certificates.server.certificatePem }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (error instanceof ArmError) {
        send(response, error.status, error.toBody(), error.headers);
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      send(response, 500, { error: { code: 'InternalServerError', message: `azure-simulator: ${message}` } });
    });
  });
  // Longer than any client's idle keep-alive, so the client closes an idle connection first: a
  // server closing it at the moment a client reuses it answers that request with ECONNRESET.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('azure-simulator: the server has no TCP address');
  const host = options.host ?? '127.0.0.1';
  baseUrl = `https://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  const imds = await startInstanceMetadataService({ host, ...(options.imdsPort === undefined ? {} : { port: options.imdsPort }), identities: managedIdentities, entra });

  return {
    resourceManagerEndpoint: baseUrl,
    activeDirectoryEndpoint: baseUrl,
    caCertFile,
    tenantId,
    subscriptionId,
    clientId,
    clientSecret,
    location,
    ...(options.staticToken !== undefined ? { staticToken: options.staticToken } : {}),
    imdsEndpoint: imds.endpoint,
    ...(managedIdentities.systemAssigned === undefined ? {} : { managedIdentityClientId: managedIdentities.systemAssigned.clientId }),
    managedIdentities,
    addClientCertificate: (certificatePem) => entra.addClientCertificate(certificatePem),
    addFederatedCredential: (credential) => entra.addFederatedCredential(credential),
    imdsRequests: () => imds.requests(),
    caCertificatePem: certificates.certificateAuthority.certificatePem,
    exchanges,
    setThrottle: (settings) => throttle.configure(settings),
    setPollsBeforeDone: (polls) => {
      pollsBeforeDone = polls;
    },
    finishOperations: () => operations.finishAll(),
    setPageSize: (size) => {
      pageSize = size;
    },
    close: async () => {
      await imds.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The endpoint-file fields of a running simulator. */
export function endpointOf(simulator: AzureSimulator): AzureSimulatorEndpoint {
  const { resourceManagerEndpoint, activeDirectoryEndpoint, caCertFile, tenantId, subscriptionId, clientId, clientSecret, location, staticToken, imdsEndpoint, managedIdentityClientId } = simulator;
  return {
    resourceManagerEndpoint,
    activeDirectoryEndpoint,
    caCertFile,
    tenantId,
    subscriptionId,
    clientId,
    clientSecret,
    location,
    ...(staticToken !== undefined ? { staticToken } : {}),
    imdsEndpoint,
    ...(managedIdentityClientId !== undefined ? { managedIdentityClientId } : {}),
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function wwwAuthenticate(baseUrl: string, tenantId: string, description: string): Record<string, string> {
  return { 'www-authenticate': `Bearer authorization_uri="${baseUrl}/${tenantId}", error="invalid_token", error_description="${description}"` };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new ArmError(413, 'RequestEntityTooLarge', 'The request content is larger than 4 MB.');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function parseJson(raw: Buffer): Json | undefined {
  const text = raw.toString('utf8').trim();
  if (text === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ArmError(400, 'InvalidRequestContent', `The request content was invalid and could not be deserialized: '${error instanceof Error ? error.message : String(error)}'.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ArmError(400, 'InvalidRequestContent', 'The request content was invalid and could not be deserialized: the body must be a JSON object.');
  }
  return parsed as Json;
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, headOnly = false): void {
  if (body === undefined || status === 204) {
    response.writeHead(status, { ...headers, 'content-length': '0' }).end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
  response.end(headOnly ? undefined : text);
}
