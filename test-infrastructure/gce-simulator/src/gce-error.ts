/** The `errors[].reason` values the simulator answers with, as the Compute API spells them. */
export type GceErrorReason =
  | 'notFound'
  | 'alreadyExists'
  | 'conditionNotMet'
  | 'resourceInUseByAnotherResource'
  | 'resourceNotReady'
  | 'invalid'
  | 'required'
  | 'badRequest'
  | 'authError'
  | 'memberAlreadyExists'
  | 'memberNotFound'
  | 'notImplemented'
  | 'backendError';

const STATUS_BY_REASON: Record<GceErrorReason, number> = {
  notFound: 404,
  alreadyExists: 409,
  conditionNotMet: 412,
  resourceInUseByAnotherResource: 400,
  resourceNotReady: 400,
  invalid: 400,
  required: 400,
  badRequest: 400,
  authError: 401,
  memberAlreadyExists: 400,
  memberNotFound: 400,
  notImplemented: 501,
  backendError: 500,
};

/** The `status` of the JSON error body (google.rpc.Code names) for an HTTP code. */
const RPC_STATUS_BY_HTTP: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  412: 'FAILED_PRECONDITION',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
};

/** An error answered as `{"error":{"code","message","errors":[{"reason","message","domain":"global"}]}}`. */
export class GceError extends Error {
  readonly reason: GceErrorReason;
  readonly httpStatus: number;

  constructor(reason: GceErrorReason, message: string) {
    super(message);
    this.name = 'GceError';
    this.reason = reason;
    this.httpStatus = STATUS_BY_REASON[reason];
  }

  /** The body Compute sends for a failed call. */
  toBody(): { error: { code: number; message: string; errors: { reason: string; message: string; domain: string; location?: string; locationType?: string }[]; status?: string } } {
    const status = RPC_STATUS_BY_HTTP[this.httpStatus];
    return {
      error: {
        code: this.httpStatus,
        message: this.message,
        errors: [{ reason: this.reason, message: this.message, domain: 'global' }],
        ...(status === undefined ? {} : { status }),
      },
    };
  }

  /** The `code` of an Operation's `error.errors[]` entry, e.g. `RESOURCE_IN_USE_BY_ANOTHER_RESOURCE`. */
  operationCode(): string {
    if (this.reason === 'notFound') return 'RESOURCE_NOT_FOUND';
    return this.reason.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
  }
}

export function notFound(relativePath: string): GceError {
  return new GceError('notFound', `The resource '${relativePath}' was not found`);
}

export function alreadyExists(relativePath: string): GceError {
  return new GceError('alreadyExists', `The resource '${relativePath}' already exists`);
}

export function inUse(relativePath: string, userPath: string): GceError {
  return new GceError('resourceInUseByAnotherResource', `The resource '${relativePath}' is already being used by '${userPath}'`);
}

export function invalidField(field: string, value: unknown, why: string): GceError {
  return new GceError('invalid', `Invalid value for field '${field}': '${typeof value === 'string' ? value : JSON.stringify(value)}'. ${why}`);
}

export function requiredField(field: string): GceError {
  return new GceError('required', `Required field '${field}' not specified`);
}

/** 401: no or an unknown bearer token. */
export class UnauthorizedError extends GceError {
  constructor(readonly missing: boolean) {
    super(
      'authError',
      missing
        ? 'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.'
        : 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
    );
  }

  override toBody(): ReturnType<GceError['toBody']> {
    return {
      error: {
        code: 401,
        message: this.message,
        errors: [{ message: this.missing ? 'Login Required.' : 'Invalid Credentials', domain: 'global', reason: this.missing ? 'required' : 'authError', location: 'Authorization', locationType: 'header' }],
        status: 'UNAUTHENTICATED',
      },
    };
  }
}
