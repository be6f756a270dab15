/**
 * A failed sandbox cloud call. The kind is decided where the error is born (the HTTP adapter),
 * and so is retryability: throttling, server errors and network failures are worth retrying.
 */
export type SandboxApiErrorKind =
  | 'NotFound'
  | 'AlreadyExists'
  | 'InvalidArgument'
  | 'InvalidState'
  | 'Throttled'
  | 'ServerError'
  | 'Unavailable'
  | 'Unexpected';

const RETRYABLE: ReadonlySet<SandboxApiErrorKind> = new Set(['Throttled', 'ServerError', 'Unavailable']);

export class SandboxApiError extends Error {
  readonly kind: SandboxApiErrorKind;
  /** The port operation that failed, e.g. `getInstance`. */
  readonly operation: string;
  readonly status: number | undefined;
  /** The cloud's error code, e.g. `AddressPoolExhausted`. */
  readonly code: string | undefined;
  readonly retryable: boolean;
  /** From Retry-After, when the cloud sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(
    kind: SandboxApiErrorKind,
    operation: string,
    message: string,
    details: { status?: number; code?: string; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(`sandbox cloud ${operation}: ${message}`, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SandboxApiError';
    this.kind = kind;
    this.operation = operation;
    this.status = details.status;
    this.code = details.code;
    this.retryable = RETRYABLE.has(kind);
    this.retryAfterMs = details.retryAfterMs;
  }
}

export function isSandboxApiError(error: unknown, kind?: SandboxApiErrorKind): error is SandboxApiError {
  return error instanceof SandboxApiError && (kind === undefined || error.kind === kind);
}
