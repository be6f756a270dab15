/**
 * The Azure SDK clients of one provider: an Entra client-secret credential against the
 * configured authority, and the Compute and Network clients against the configured ARM endpoint.
 * The SDK's own retry policies are turned off (`maxRetries: 0`): retries, throttling waits and
 * Retry-After are the port pipeline's job (`ports/azure-port-pipeline.ts`).
 */
import { ComputeManagementClient } from '@azure/arm-compute';
import { NetworkManagementClient } from '@azure/arm-network';
import { ClientSecretCredential, type TokenCredential } from '@azure/identity';

export interface AzureSdkClientSettings {
  /** ARM, e.g. `https://management.azure.com/`. */
  resourceManagerEndpoint: string;
  /** Entra authority host, e.g. `https://login.microsoftonline.com/`. */
  activeDirectoryEndpoint: string;
  /** The token audience: `<resource>/.default`. */
  tokenScope: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  subscriptionId: string;
  /** Trust this CA (PEM) in addition to the system's (tests against a simulator). */
  caPem?: string;
  userAgent?: string;
  /** A custom cloud's authority is not in Entra's instance list: skip instance discovery. */
  disableInstanceDiscovery: boolean;
}

export interface AzureSdkClients {
  compute: ComputeManagementClient;
  network: NetworkManagementClient;
  credential: TokenCredential;
}

export function createAzureSdkClients(settings: AzureSdkClientSettings): AzureSdkClients {
  const tlsOptions = settings.caPem === undefined ? undefined : { ca: settings.caPem };
  const common = {
    retryOptions: { maxRetries: 0 },
    ...(tlsOptions === undefined ? {} : { tlsOptions }),
    ...(settings.userAgent === undefined || settings.userAgent === '' ? {} : { userAgentOptions: { userAgentPrefix: settings.userAgent } }),
  };
  const credential = new ClientSecretCredential(settings.tenantId, settings.clientId, settings.clientSecret, {
    authorityHost: settings.activeDirectoryEndpoint,
    disableInstanceDiscovery: settings.disableInstanceDiscovery,
    ...common,
  });
  const endpoint = settings.resourceManagerEndpoint.replace(/\/+$/, '');
  const compute = new ComputeManagementClient(credential, settings.subscriptionId, { ...common, endpoint, credentials: { scopes: [settings.tokenScope] } });
  const network = new NetworkManagementClient(credential, settings.subscriptionId, { ...common, endpoint, $host: endpoint, credentialScopes: [settings.tokenScope] });
  return { compute, network, credential };
}
