/**
 * An error answered by the Kubernetes API (a `Status` object), or a transport failure
 * (`statusCode` 0). Retryability is decided here, where the error is born.
 */
export class KubeApiError extends Error {
  readonly statusCode: number;
  /** `Status.reason`, e.g. `Conflict`, `NotFound`, `AlreadyExists`, `Expired`. */
  readonly reason: string;
  constructor(message: string, statusCode: number, reason = '', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KubeApiError';
    this.statusCode = statusCode;
    this.reason = reason;
  }
  get isNotFound(): boolean {
    return this.statusCode === 404;
  }
  get isConflict(): boolean {
    return this.statusCode === 409 && this.reason !== 'AlreadyExists';
  }
  get isAlreadyExists(): boolean {
    return this.statusCode === 409 && this.reason === 'AlreadyExists';
  }
  get isGone(): boolean {
    return this.statusCode === 410;
  }
  get isRetryable(): boolean {
    return this.statusCode === 0 || this.statusCode === 429 || this.statusCode >= 500 || this.isConflict;
  }
}

export const isKubeNotFound = (error: unknown): boolean => error instanceof KubeApiError && error.isNotFound;
export const isKubeConflict = (error: unknown): boolean => error instanceof KubeApiError && error.isConflict;
