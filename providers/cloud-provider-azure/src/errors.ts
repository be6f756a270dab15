/**
 * Typed errors of the Azure provider. Every error carries a `kind` callers branch on and keeps
 * the original error as `cause`. ARM errors are core's `CloudApiError` (`ports/azure-api-error.ts`);
 * retryability is decided where they are born (`ports/sdk/sdk-errors.ts`), never guessed later.
 */

/** Failed ARM and Entra calls (core's `CloudApiError` with Azure's words): `ports/azure-api-error.ts`. */
export { AZURE_API_ERROR_KINDS, AzureApiError, asAzureApiError, isAzureErrorKind, type AzureApiErrorKind } from './ports/azure-api-error.js';

/** The cloud holds something the provider cannot work with (core's). */
export { CloudStateError } from '@ccm/core/provider';

/** The effective config is incomplete or wrong (e.g. the credentials Secret lacks a key); names the source and key. */
export class AzureConfigurationError extends Error {
  readonly kind = 'Configuration' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AzureConfigurationError';
  }
}

/**
 * A credential cannot be built from its keys (a certificate file that cannot be read or
 * decrypted, a federated token file that is missing): names the config key; the composition root
 * turns it into a cloud config problem with the key's file and line.
 */
export class AzureCredentialSetupError extends Error {
  readonly kind = 'CredentialSetup' as const;
  readonly key: string;

  constructor(key: string, message: string, options?: { cause?: unknown }) {
    super(`key ${JSON.stringify(key)}: ${message}`, options);
    this.name = 'AzureCredentialSetupError';
    this.key = key;
  }
}
