/**
 * The @azure/identity credential of the chosen kind (`config/azure-credential-config.ts`), as
 * upstream's azclient builds it: ClientSecretCredential, ClientCertificateCredential (the chain
 * sent, `x5c`), ManagedIdentityCredential (system- or user-assigned; IMDS at 169.254.169.254, or
 * at `AZURE_POD_IDENTITY_AUTHORITY_HOST` when that is set: @azure/identity reads it), and
 * ClientAssertionCredential over the federated token file (workload identity). Each is wrapped
 * in the reporting credential (one log line per problem, a cooldown after failures).
 *
 * Files are read here, when the credential is built: a certificate or token file that cannot be
 * read fails at once with an `AzureCredentialSetupError` naming the key.
 */
import { ClientAssertionCredential, ClientCertificateCredential, ClientSecretCredential, ManagedIdentityCredential, type TokenCredential } from '@azure/identity';
import type { Logger } from '@ccm/core/logging';
import { CREDENTIAL_ENVIRONMENT, describeAzureCredential, type AzureCredentialConfig } from '../../../config/azure-credential-config.js';
import { readClientCertificate } from './client-certificate.js';
import { FederatedTokenFile } from './federated-token-file.js';
import { ReportingTokenCredential } from './reporting-token-credential.js';

export interface TokenCredentialSettings {
  credential: AzureCredentialConfig;
  /** Entra authority host. */
  authorityHost: string;
  disableInstanceDiscovery: boolean;
  /** Pipeline options shared with the ARM clients (retries off, TLS trust, user agent). */
  clientOptions: Record<string, unknown>;
  logger: Logger;
  environment?: Readonly<Record<string, string | undefined>>;
}

export function createAzureTokenCredential(settings: TokenCredentialSettings): TokenCredential {
  const { credential } = settings;
  const entraOptions = { ...settings.clientOptions, authorityHost: settings.authorityHost, disableInstanceDiscovery: settings.disableInstanceDiscovery };
  let inner: TokenCredential;
  switch (credential.kind) {
    case 'client-secret':
      inner = new ClientSecretCredential(credential.tenantId, credential.clientId, credential.clientSecret, entraOptions);
      break;
    case 'client-certificate': {
      const certificate = readClientCertificate(credential.certificatePath, credential.certificatePassword);
      inner = new ClientCertificateCredential(credential.tenantId, credential.clientId, { certificate: certificate.pem }, { ...entraOptions, sendCertificateChain: true });
      break;
    }
    case 'managed-identity': {
      const identity = credential.userAssignedIdentity;
      inner =
        identity === undefined
          ? new ManagedIdentityCredential(settings.clientOptions)
          : 'clientId' in identity
            ? new ManagedIdentityCredential({ ...settings.clientOptions, clientId: identity.clientId })
            : new ManagedIdentityCredential({ ...settings.clientOptions, resourceId: identity.resourceId });
      break;
    }
    case 'workload-identity': {
      const environment = settings.environment ?? process.env;
      const key = environment[CREDENTIAL_ENVIRONMENT.federatedTokenFile] === credential.tokenFile ? CREDENTIAL_ENVIRONMENT.federatedTokenFile : 'aadFederatedTokenFile';
      const tokenFile = new FederatedTokenFile(credential.tokenFile, key);
      tokenFile.token();
      inner = new ClientAssertionCredential(credential.tenantId, credential.clientId, async () => tokenFile.token(), entraOptions);
      break;
    }
  }
  const description = { ...describeAzureCredential(credential), ...(credential.kind === 'managed-identity' ? {} : { authorityHost: settings.authorityHost }) };
  return new ReportingTokenCredential(inner, { logger: settings.logger, description });
}
