/**
 * Turns every failure of the Compute SDK (a GaxiosError with the HTTP status and the JSON error
 * body, a failed Operation, a network error, a token-source failure) into a `GceApiError`,
 * deciding its kind and retryability here, where it is born.
 */
import { findNetworkErrorCode } from '@ccm/core/cloud';
import { GceApiError, type GceApiErrorKind } from '../gce-api-error.js';

/** `errors[].reason` values Google uses for rate limits and quota. */
export const GCE_THROTTLING_REASONS: readonly string[] = ['rateLimitExceeded', 'userRateLimitExceeded', 'RATE_LIMIT_EXCEEDED'];

interface ParsedBody {
  code?: number;
  message?: string;
  reason: string;
}

function parseBody(text: unknown): ParsedBody | undefined {
  if (typeof text !== 'string' || !text.trimStart().startsWith('{')) return undefined;
  try {
    const body = JSON.parse(text) as { error?: { code?: number; message?: string; errors?: Array<{ reason?: string }> } };
    if (body.error === undefined) return undefined;
    return { code: body.error.code, message: body.error.message, reason: body.error.errors?.[0]?.reason ?? '' };
  } catch {
    return undefined;
  }
}

function kindOf(status: number | undefined, reason: string, message: string): { kind: GceApiErrorKind; retryable: boolean } {
  if (GCE_THROTTLING_REASONS.includes(reason) || status === 429) return { kind: 'Throttled', retryable: true };
  if (status === 404 || reason === 'notFound') return { kind: 'NotFound', retryable: false };
  if (status === 409 || reason === 'alreadyExists') return { kind: 'AlreadyExists', retryable: false };
  if (status === 412 || reason === 'conditionNotMet') return { kind: 'PreconditionFailed', retryable: false };
  if (reason === 'resourceInUseByAnotherResource' || (status === 400 && message.includes('being used by'))) return { kind: 'InUse', retryable: false };
  if (status === 401 || status === 403) return { kind: 'Unauthorized', retryable: false };
  if (status !== undefined && status >= 500) return { kind: 'Unavailable', retryable: true };
  if (status !== undefined && status >= 400) return { kind: 'Invalid', retryable: false };
  return { kind: 'Unknown', retryable: false };
}

/**
 * gax turns the HTTP error of some calls (LRO methods) into a GoogleError carrying a gRPC code
 * (`rpcCodeFromHttpStatusCode`) and the body's message, without the HTTP status or the reason.
 */
function kindOfGrpcCode(code: number, message: string): { kind: GceApiErrorKind; retryable: boolean } {
  if (/rate limit|quota exceeded/i.test(message) || code === 8) return { kind: 'Throttled', retryable: true };
  switch (code) {
    case 5:
      return { kind: 'NotFound', retryable: false };
    case 6:
    case 10:
      return { kind: 'AlreadyExists', retryable: false };
    case 9:
      return message.includes('being used by') ? { kind: 'InUse', retryable: false } : { kind: 'PreconditionFailed', retryable: false };
    case 3:
      return message.includes('being used by') ? { kind: 'InUse', retryable: false } : { kind: 'Invalid', retryable: false };
    case 7:
    case 16:
      return { kind: 'Unauthorized', retryable: false };
    case 4:
    case 13:
    case 14:
      return { kind: 'Unavailable', retryable: true };
    default:
      return { kind: 'Unknown', retryable: false };
  }
}

const isGoogleError = (error: unknown): boolean => error instanceof Error && error.constructor.name === 'GoogleError';

/** The GceApiError of an SDK failure. */
export function toGceApiError(error: unknown, operation: string): GceApiError {
  if (error instanceof GceApiError) return error;
  const shape = (error ?? {}) as { status?: unknown; code?: unknown; message?: unknown; response?: { status?: unknown; data?: unknown } };
  const rawMessage = typeof shape.message === 'string' ? shape.message : String(error);
  const body = parseBody(rawMessage) ?? parseBody(typeof shape.response?.data === 'string' ? shape.response.data : JSON.stringify(shape.response?.data ?? ''));
  const status = typeof shape.status === 'number' ? shape.status : typeof shape.response?.status === 'number' ? shape.response.status : typeof shape.code === 'number' ? shape.code : body?.code;
  const networkCode = findNetworkErrorCode(error);
  if (status === undefined && networkCode !== undefined) {
    return new GceApiError(`cannot reach the Compute API (${networkCode})`, { kind: 'Unavailable', reason: networkCode, operation, retryable: true, cause: error });
  }
  if (isGoogleError(error) && typeof shape.code === 'number' && networkCode === undefined) {
    const grpc = kindOfGrpcCode(shape.code, rawMessage);
    return new GceApiError(`gRPC code ${shape.code}: ${rawMessage}`, { kind: grpc.kind, reason: '', operation, retryable: grpc.retryable, cause: error });
  }
  const message = body?.message ?? rawMessage;
  const reason = body?.reason ?? '';
  const { kind, retryable } = kindOf(status, reason, message);
  return new GceApiError(status === undefined ? message : `HTTP ${status}${reason === '' ? '' : ` ${reason}`}: ${message}`, {
    kind,
    reason,
    operation,
    retryable: retryable || (status === undefined && kind === 'Unknown' && networkCode !== undefined),
    ...(status === undefined ? {} : { httpStatus: status }),
    cause: error,
  });
}

/** Operation error codes (`error.errors[].code` of a DONE Operation) and the kind they mean. */
const OPERATION_CODE_KINDS: Readonly<Record<string, GceApiErrorKind>> = {
  RESOURCE_NOT_FOUND: 'NotFound',
  NOT_FOUND: 'NotFound',
  ALREADY_EXISTS: 'AlreadyExists',
  RESOURCE_ALREADY_EXISTS: 'AlreadyExists',
  RESOURCE_IN_USE_BY_ANOTHER_RESOURCE: 'InUse',
  CONDITION_NOT_MET: 'PreconditionFailed',
  RATE_LIMIT_EXCEEDED: 'Throttled',
  QUOTA_EXCEEDED: 'Invalid',
};

/** The GceApiError of an Operation that ended with `error`. */
export function operationError(errors: ReadonlyArray<{ code?: string | null; message?: string | null }>, httpStatus: number | undefined, operation: string): GceApiError {
  const first = errors[0] ?? {};
  const code = first.code ?? '';
  const kind = OPERATION_CODE_KINDS[code] ?? (httpStatus === undefined ? 'Unknown' : kindOf(httpStatus, '', first.message ?? '').kind);
  return new GceApiError(`operation failed: ${code}: ${first.message ?? ''}`, {
    kind,
    reason: code,
    operation,
    retryable: kind === 'Throttled' || (httpStatus !== undefined && httpStatus >= 500),
    ...(httpStatus === undefined ? {} : { httpStatus }),
  });
}
