/**
 * Test helpers: the pinned Azure SDK clients (ClientSecretCredential, arm-network, arm-compute)
 * pointed at a running simulator, and a raw ARM request helper (node:https trusting the CA).
 */
import { request as httpsRequest } from 'node:https';
import { ComputeManagementClient } from '@azure/arm-compute';
import { NetworkManagementClient } from '@azure/arm-network';
import { ClientSecretCredential } from '@azure/identity';
import type { AzureSimulator } from '../start-azure-simulator.js';

export interface AzureClients {
  credential: ClientSecretCredential;
  network: NetworkManagementClient;
  compute: ComputeManagementClient;
}

export function azureClients(simulator: AzureSimulator): AzureClients {
  const tlsOptions = { ca: simulator.caCertificatePem };
  const retryOptions = { maxRetries: 3, retryDelayInMs: 10, maxRetryDelayInMs: 50 };
  const credential = new ClientSecretCredential(simulator.tenantId, simulator.clientId, simulator.clientSecret, {
    authorityHost: simulator.activeDirectoryEndpoint,
    // MSAL's instance discovery asks login.microsoftonline.com, which a test cannot reach.
    disableInstanceDiscovery: true,
    tlsOptions,
  });
  const scopes = [`${simulator.resourceManagerEndpoint}/.default`];
  const network = new NetworkManagementClient(credential, simulator.subscriptionId, { endpoint: simulator.resourceManagerEndpoint, credentialScopes: scopes, tlsOptions, retryOptions });
  const compute = new ComputeManagementClient(credential, simulator.subscriptionId, { endpoint: simulator.resourceManagerEndpoint, credentials: { scopes }, tlsOptions, retryOptions });
  return { credential, network, compute };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One HTTPS request to the simulator; `token` undefined sends no Authorization header. */
export function rawRequest(simulator: AzureSimulator, method: string, path: string, options: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string>; form?: Record<string, string> } = {}): Promise<RawResponse> {
  const url = new URL(path, simulator.resourceManagerEndpoint);
  const payload = options.raw !== undefined ? options.raw : options.form !== undefined ? new URLSearchParams(options.form).toString() : options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      url,
      {
        method,
        ca: simulator.caCertificatePem,
        headers: {
          ...(options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {}),
          ...(payload !== undefined ? { 'content-type': options.form !== undefined ? 'application/x-www-form-urlencoded' : 'application/json' } : {}),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) });
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** A token from the simulator's v2.0 endpoint for the given client secret. */
export async function clientCredentialsToken(simulator: AzureSimulator, secret = simulator.clientSecret): Promise<RawResponse> {
  return rawRequest(simulator, 'POST', `/${simulator.tenantId}/oauth2/v2.0/token`, {
    form: { grant_type: 'client_credentials', client_id: simulator.clientId, client_secret: secret, scope: 'https://management.azure.com/.default' },
  });
}

export async function accessToken(simulator: AzureSimulator): Promise<string> {
  const response = await clientCredentialsToken(simulator);
  if (response.status !== 200) throw new Error(`token endpoint answered ${response.status}: ${JSON.stringify(response.body)}`);
  return String(response.body.access_token);
}
