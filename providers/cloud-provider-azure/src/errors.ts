/**
 * Typed errors of the Azure provider. Every error carries a `kind` callers branch on and keeps
 * the original error as `cause`. Retryability is decided where the error is born (the SDK adapter
 * for ARM errors, `ports/sdk/sdk-errors.ts`), never guessed later from a message.
 */

/** What went wrong with an ARM or Entra call, independent of the ARM error code spelling. */
export type AzureApiErrorKind =
  | 'NotFound'
  | 'Throttled'
  | 'Invalid'
  | 'Conflict'
  /** HTTP 412: the etag we sent is stale; re-read and try again. */
  | 'PreconditionFailed'
  | 'Unauthorized'
  | 'Unavailable'
  | 'Unknown';

export interface AzureApiErrorDetails {
  kind: AzureApiErrorKind;
  /** The ARM error code (`ResourceNotFound`, `TooManyRequests`, ...), or '' when there is none. */
  code: string;
  /** `<service>.<operation>`, e.g. `compute.listVirtualMachines`. */
  operation: string;
  retryable: boolean;
  httpStatus?: number;
  /** The wait ARM asked for (Retry-After), when it sent one. */
  retryAfterMs?: number;
  cause?: unknown;
}

export class AzureApiError extends Error {
  readonly kind: AzureApiErrorKind;
  readonly code: string;
  readonly operation: string;
  readonly retryable: boolean;
  readonly httpStatus: number | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, details: AzureApiErrorDetails) {
    super(`${details.operation}: ${message}`, { cause: details.cause });
    this.name = 'AzureApiError';
    this.kind = details.kind;
    this.code = details.code;
    this.operation = details.operation;
    this.retryable = details.retryable;
    this.httpStatus = details.httpStatus;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** Finds an AzureApiError in the cause chain. */
export function asAzureApiError(error: unknown): AzureApiError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 16 && current instanceof Error; depth++) {
    if (current instanceof AzureApiError) return current;
    current = current.cause;
  }
  return undefined;
}

export function isAzureErrorKind(error: unknown, kind: AzureApiErrorKind): boolean {
  return asAzureApiError(error)?.kind === kind;
}

/** The cloud holds something the provider cannot work with (a VM without a NIC, a malformed ID). */
export class CloudStateError extends Error {
  readonly kind = 'CloudState' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CloudStateError';
  }
}

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
