/**
 * A failed ARM or Entra call: core's `CloudApiError` with Azure's own word for it (`kind`) and
 * core's (`cloudKind`), ARM's Retry-After in `retryAfterMs`. Born in the SDK adapter
 * (`sdk/sdk-errors.ts`), which decides the kind and the retryability from the HTTP status and code.
 */
import { defineCloudApiErrorKinds, providerApiErrorClass } from '@ccm/core/cloud';

/** Azure's words for a failed call, each with core's kind. `PreconditionFailed`: HTTP 412, a stale etag. */
export const AZURE_API_ERROR_KINDS = defineCloudApiErrorKinds({
  NotFound: 'not-found',
  Throttled: 'throttled',
  Invalid: 'invalid',
  Conflict: 'conflict',
  PreconditionFailed: 'conflict',
  Unauthorized: 'unauthorized',
  Unavailable: 'transient',
  Unknown: 'unknown',
});

export type AzureApiErrorKind = keyof typeof AZURE_API_ERROR_KINDS;

export class AzureApiError extends providerApiErrorClass('AzureApiError', AZURE_API_ERROR_KINDS) {
  /** The ARM error code (`ResourceNotFound`, `TooManyRequests`, ...), or '' when there is none. */
  declare readonly code: string;
}

export const asAzureApiError = (error: unknown): AzureApiError | undefined => AzureApiError.find(error);
export const isAzureErrorKind = (error: unknown, kind: AzureApiErrorKind): boolean => AzureApiError.hasKind(error, kind);
