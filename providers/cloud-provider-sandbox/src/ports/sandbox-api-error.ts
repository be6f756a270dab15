/** A failed sandbox cloud call: core's `CloudApiError` with the sandbox's own word for it, born in the HTTP adapter (retryable: core's `throttled` and `transient`). */
import { CloudApiError, defineCloudApiErrorKinds } from '@ccm/core/cloud';

/** The sandbox's words, each with core's kind. */
export const SANDBOX_API_ERROR_KINDS = defineCloudApiErrorKinds({
  NotFound: 'not-found',
  AlreadyExists: 'conflict',
  InvalidArgument: 'invalid',
  InvalidState: 'conflict',
  Throttled: 'throttled',
  ServerError: 'transient',
  Unavailable: 'transient',
  Unexpected: 'unknown',
});
export type SandboxApiErrorKind = keyof typeof SANDBOX_API_ERROR_KINDS;

export class SandboxApiError extends CloudApiError<SandboxApiErrorKind> {
  /** The HTTP status; `code` is the cloud's error code (`AddressPoolExhausted`), `retryAfterMs` its Retry-After. */
  readonly status: number | undefined;
  constructor(kind: SandboxApiErrorKind, operation: string, message: string, details: { status?: number; code?: string; retryAfterMs?: number; cause?: unknown } = {}) {
    super(kind, operation, message, { ...details, cloudKind: SANDBOX_API_ERROR_KINDS[kind], messagePrefix: `sandbox cloud ${operation}: ` });
    this.name = 'SandboxApiError';
    this.status = details.status;
  }
}

export function isSandboxApiError(error: unknown, kind?: SandboxApiErrorKind): error is SandboxApiError {
  return error instanceof SandboxApiError && (kind === undefined || error.kind === kind);
}
