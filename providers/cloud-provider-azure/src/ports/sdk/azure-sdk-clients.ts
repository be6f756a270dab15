/**
 * The Azure SDK clients of one provider: the Entra credential of the configured kind (client
 * secret, client certificate, managed identity, workload identity: `credentials/azure-token-credential.ts`)
 * against the configured authority, and the Compute and Network clients against the configured ARM endpoint.
 * The SDK's own retry policies are turned off (`maxRetries: 0`): retries, throttling waits and
 * Retry-After are the port pipeline's job (`ports/azure-port-pipeline.ts`).
 */
import { ComputeManagementClient } from '@azure/arm-compute';
import { NetworkManagementClient } from '@azure/arm-network';
import type { TokenCredential } from '@azure/identity';
import type { Logger } from '@ccm/core/logging';
import type { AzureCredentialConfig } from '../../config/azure-credential-config.js';
import { createAzureTokenCredential } from './credentials/azure-token-credential.js';

export interface AzureSdkClientSettings {
  /** ARM, e.g. `https://management.azure.com/`. */
  resourceManagerEndpoint: string;
  /** Entra authority host, e.g. `https://login.microsoftonline.com/`. */
  activeDirectoryEndpoint: string;
  /** The token audience: `<resource>/.default`. */
  tokenScope: string;
  /** Which credential, with its tenant and client where it has them. */
  credential: AzureCredentialConfig;
  /** Where the credential reports refusals (once per problem). */
  logger: Logger;
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
  const credential = createAzureTokenCredential({
    credential: settings.credential,
    authorityHost: settings.activeDirectoryEndpoint,
    disableInstanceDiscovery: settings.disableInstanceDiscovery,
    clientOptions: common,
    logger: settings.logger,
  });
  const endpoint = settings.resourceManagerEndpoint.replace(/\/+$/, '');
  const compute = new ComputeManagementClient(credential, settings.subscriptionId, { ...common, endpoint, credentials: { scopes: [settings.tokenScope] } });
  const network = new NetworkManagementClient(credential, settings.subscriptionId, { ...common, endpoint, $host: endpoint, credentialScopes: [settings.tokenScope] });
  return { compute, network, credential };
}
