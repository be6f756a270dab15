/** A failed Compute API call: core's `CloudApiError` with GCE's own word for it, born in the SDK adapter (`sdk/sdk-errors.ts`). */
import { defineCloudApiErrorKinds, providerApiErrorClass, type ProviderApiErrorDetails } from '@ccm/core/cloud';

/** GCE's words, each with core's kind. `InUse`: HTTP 400 "being used by"; `PreconditionFailed`: HTTP 412, a stale fingerprint. */
export const GCE_API_ERROR_KINDS = defineCloudApiErrorKinds({
  NotFound: 'not-found',
  AlreadyExists: 'conflict',
  InUse: 'conflict',
  PreconditionFailed: 'conflict',
  Throttled: 'throttled',
  Invalid: 'invalid',
  Unauthorized: 'unauthorized',
  Unavailable: 'transient',
  Unknown: 'unknown',
});

export type GceApiErrorKind = keyof typeof GCE_API_ERROR_KINDS;

export class GceApiError extends providerApiErrorClass('GceApiError', GCE_API_ERROR_KINDS) {
  /** The first `errors[].reason` (`notFound`, `alreadyExists`, `rateLimitExceeded`, ...), or ''. */
  readonly reason: string;
  constructor(message: string, details: ProviderApiErrorDetails<GceApiErrorKind> & { reason: string }) {
    super(message, details);
    this.reason = details.reason;
  }
}

export const asGceApiError = (error: unknown): GceApiError | undefined => GceApiError.find(error);
export const isGceErrorKind = (error: unknown, kind: GceApiErrorKind): boolean => GceApiError.hasKind(error, kind);
