/**
 * The managed identity endpoint of the Azure Instance Metadata Service (IMDS), served on its own
 * plain-HTTP listener as the real one is (http://169.254.169.254): `GET
 * /metadata/identity/oauth2/token?api-version=...&resource=...` with the header `Metadata: true`,
 * for the VM's system-assigned identity or a user-assigned one named by `client_id`,
 * `object_id`, `msi_res_id` or `mi_res_id`. Tokens come from the simulator's Entra ID, so ARM
 * accepts them. Errors are IMDS's `{"error","error_description"}` bodies.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { EntraId } from './entra-id.js';

export const IMDS_TOKEN_PATH = '/metadata/identity/oauth2/token';

export interface ManagedIdentity {
  clientId: string;
  objectId: string;
  /** ARM ID of a user-assigned identity (`/subscriptions/.../userAssignedIdentities/<name>`). */
  resourceId?: string;
}

export interface ManagedIdentities {
  /** The VM's system-assigned identity; undefined when the VM has none. */
  systemAssigned: ManagedIdentity | undefined;
  userAssigned: ManagedIdentity[];
}

export interface InstanceMetadataService {
  /** `http://127.0.0.1:<port>` (what `AZURE_POD_IDENTITY_AUTHORITY_HOST` takes). */
  endpoint: string;
  /** Token requests so far (for tests that count them). */
  requests(): number;
  close(): Promise<void>;
}

interface ImdsAnswer {
  status: number;
  body: Record<string, unknown>;
}

export function answerImdsTokenRequest(url: URL, metadataHeader: string | undefined, identities: ManagedIdentities, entra: EntraId): ImdsAnswer {
  const error = (status: number, code: string, description: string): ImdsAnswer => ({ status, body: { error: code, error_description: description } });
  if (metadataHeader?.toLowerCase() !== 'true') return error(400, 'invalid_request', 'Required metadata header not specified');
  if (!url.searchParams.get('api-version')) return error(400, 'invalid_request', "Required query variable 'api-version' is missing");
  const resource = url.searchParams.get('resource');
  if (!resource) return error(400, 'invalid_request', "Required query variable 'resource' is missing");
  const clientId = url.searchParams.get('client_id');
  const objectId = url.searchParams.get('object_id');
  const resourceId = url.searchParams.get('msi_res_id') ?? url.searchParams.get('mi_res_id');
  const named = [clientId, objectId, resourceId].filter((value) => value !== null);
  if (named.length > 1) return error(400, 'invalid_request', 'Only one of client_id, object_id, msi_res_id or mi_res_id may be specified');
  const all = [...(identities.systemAssigned === undefined ? [] : [identities.systemAssigned]), ...identities.userAssigned];
  const identity =
    named.length === 0
      ? identities.systemAssigned
      : all.find((candidate) => (clientId !== null && candidate.clientId === clientId) || (objectId !== null && candidate.objectId === objectId) || (resourceId !== null && candidate.resourceId?.toLowerCase() === resourceId.toLowerCase()));
  if (identity === undefined) return error(400, 'invalid_request', 'Identity not found');
  const token = entra.issue(resource, identity.clientId, 'v1');
  return {
    status: 200,
    body: {
      access_token: token.accessToken,
      client_id: identity.clientId,
      expires_in: String(token.expiresOn - token.issuedAt),
      expires_on: String(token.expiresOn),
      ext_expires_in: String(token.expiresOn - token.issuedAt),
      not_before: String(token.issuedAt),
      resource,
      token_type: 'Bearer',
    },
  };
}

export async function startInstanceMetadataService(options: { host: string; port?: number; identities: ManagedIdentities; entra: EntraId }): Promise<InstanceMetadataService> {
  let requests = 0;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    const url = new URL(request.url ?? '/', 'http://imds');
    const send = (status: number, body: Record<string, unknown>): void => {
      const text = JSON.stringify(body);
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), 'x-ms-request-id': randomUUID() }).end(text);
    };
    // MSAL asks for the path with a trailing slash; IMDS answers both.
    if (url.pathname.replace(/\/$/, '') !== IMDS_TOKEN_PATH) return send(404, { error: 'not_found', error_description: `azure-simulator IMDS serves only ${IMDS_TOKEN_PATH}` });
    if (request.method !== 'GET') return send(405, { error: 'invalid_request', error_description: 'Only GET is allowed' });
    requests += 1;
    const metadata = request.headers['metadata'];
    const answer = answerImdsTokenRequest(url, Array.isArray(metadata) ? metadata[0] : metadata, options.identities, options.entra);
    send(answer.status, answer.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('azure-simulator: the IMDS listener has no TCP address');
  return {
    endpoint: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${address.port}`,
    requests: () => requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
