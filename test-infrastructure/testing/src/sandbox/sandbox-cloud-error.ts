/**
 * Errors of the sandbox cloud. Each code has one HTTP status; the HTTP API answers
 * `{ "error": { "code": ..., "message": ... } }` with that status.
 */
export const SANDBOX_ERROR_STATUS = {
  InvalidArgument: 400,
  NotFound: 404,
  AlreadyExists: 409,
  InvalidState: 409,
  AddressPoolExhausted: 409,
  Throttling: 429,
  InternalError: 500,
} as const;

export type SandboxErrorCode = keyof typeof SANDBOX_ERROR_STATUS;

export interface SandboxErrorBody {
  error: { code: SandboxErrorCode; message: string };
}

export class SandboxCloudError extends Error {
  readonly code: SandboxErrorCode;

  constructor(code: SandboxErrorCode, message: string) {
    super(message);
    this.name = 'SandboxCloudError';
    this.code = code;
  }

  get status(): number {
    return SANDBOX_ERROR_STATUS[this.code];
  }

  toBody(): SandboxErrorBody {
    return { error: { code: this.code, message: this.message } };
  }
}

export function isSandboxErrorCode(value: unknown): value is SandboxErrorCode {
  return typeof value === 'string' && Object.hasOwn(SANDBOX_ERROR_STATUS, value);
}
