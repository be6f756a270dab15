/**
 * The Compute v1 clients of `@google-cloud/compute` (imported from its `v1` entry: the package
 * root also loads the 30 MB `protos.js`, which made the CCM start in ~14 s instead of ~3 s on a
 * busy machine), in REST mode (`fallback`: JSON over HTTP/1.1,
 * no gRPC), pointed at the configured `api-endpoint` and authenticated by the configured source:
 * the `token-url` alternate token source, or Application Default Credentials.
 */
import {
  AddressesClient,
  FirewallsClient,
  ForwardingRulesClient,
  GlobalOperationsClient,
  HealthChecksClient,
  InstanceGroupsClient,
  InstancesClient,
  RegionBackendServicesClient,
  RegionOperationsClient,
  RoutesClient,
  TargetPoolsClient,
  ZoneOperationsClient,
  ZonesClient,
} from '@google-cloud/compute/build/src/v1/index.js';
import { GoogleAuth } from 'google-auth-library';
import type { ComputeEndpoint, GceCredentialsSource } from '../../config/read-gce-cloud-config.js';
import { createTokenUrlAuthClient } from './token-url-auth-client.js';

export const COMPUTE_SCOPE = 'https://www.googleapis.com/auth/compute';

export interface ComputeClients {
  instances: InstancesClient;
  routes: RoutesClient;
  addresses: AddressesClient;
  forwardingRules: ForwardingRulesClient;
  targetPools: TargetPoolsClient;
  /** Legacy `httpHealthChecks` (target pools accept only those): the SDK has no client for them, so plain REST with the same credentials. */
  httpHealthChecks: ComputeRestClient;
  firewalls: FirewallsClient;
  healthChecks: HealthChecksClient;
  regionBackendServices: RegionBackendServicesClient;
  instanceGroups: InstanceGroupsClient;
  zones: ZonesClient;
  zoneOperations: ZoneOperationsClient;
  regionOperations: RegionOperationsClient;
  globalOperations: GlobalOperationsClient;
}

/** JSON requests to `<api-endpoint><path>` with the clients' credentials; failures carry `status` and the error body as `message`, like the SDK's. */
export interface ComputeRestClient {
  request<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

export function createComputeRestClient(baseUrl: string, headers: () => Promise<Headers>): ComputeRestClient {
  return {
    async request<T>(method: string, path: string, body?: unknown): Promise<T> {
      const requestHeaders = await headers();
      requestHeaders.set('content-type', 'application/json');
      const response = await fetch(`${baseUrl}${path}`, { method, headers: requestHeaders, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const text = await response.text();
      if (!response.ok) throw Object.assign(new Error(text), { status: response.status });
      return (text === '' ? {} : JSON.parse(text)) as T;
    },
  };
}

export function createComputeClients(endpoint: ComputeEndpoint, credentials: GceCredentialsSource): ComputeClients {
  const tokenClient = credentials.kind === 'token-url' ? createTokenUrlAuthClient(credentials.url, credentials.body) : undefined;
  const googleAuth = tokenClient === undefined ? new GoogleAuth({ scopes: [COMPUTE_SCOPE] }) : undefined;
  const auth = tokenClient !== undefined ? { authClient: tokenClient as never } : { auth: googleAuth as never };
  const headers = async (): Promise<Headers> => {
    if (tokenClient !== undefined) return tokenClient.getRequestHeaders();
    const found: unknown = await (googleAuth as GoogleAuth).getRequestHeaders();
    return found instanceof Headers ? found : new Headers(found as Record<string, string>);
  };
  const options = { apiEndpoint: endpoint.host, port: endpoint.port, protocol: endpoint.protocol, fallback: true, ...auth };
  return {
    instances: new InstancesClient(options),
    routes: new RoutesClient(options),
    addresses: new AddressesClient(options),
    forwardingRules: new ForwardingRulesClient(options),
    targetPools: new TargetPoolsClient(options),
    httpHealthChecks: createComputeRestClient(endpoint.baseUrl, headers),
    firewalls: new FirewallsClient(options),
    healthChecks: new HealthChecksClient(options),
    regionBackendServices: new RegionBackendServicesClient(options),
    instanceGroups: new InstanceGroupsClient(options),
    zones: new ZonesClient(options),
    zoneOperations: new ZoneOperationsClient(options),
    regionOperations: new RegionOperationsClient(options),
    globalOperations: new GlobalOperationsClient(options),
  };
}
