/**
 * SDK errors -> AwsApiError. The kind and retryability are decided here, where the error is born,
 * from the AWS error code (`Code` on query-protocol errors, else the exception name), the HTTP
 * status and Node network error codes.
 */
import { NETWORK_ERROR_CODES } from '@ccm/core/cloud';
import { AwsApiError, type AwsApiErrorKind } from '../aws-api-error.js';

/** AWS error codes that mean "slow down" (the cloud API budget's classifier uses the same list). */
export const AWS_THROTTLING_CODES: readonly string[] = [
  'RequestLimitExceeded',
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'EC2ThrottledException',
  'PriorRequestNotComplete',
  'SlowDown',
  'BandwidthLimitExceeded',
];
const THROTTLING_CODES = new Set(AWS_THROTTLING_CODES);
const NOT_FOUND_CODES = new Set(['LoadBalancerNotFound', 'AccessPointNotFound', 'PolicyNotFound', 'TargetGroupNotFound', 'ListenerNotFound']);
const CONFLICT_CODES = new Set(['DuplicateLoadBalancerName', 'DuplicateTargetGroupName', 'DuplicateListener', 'DuplicatePolicyName', 'DuplicateAccessPointName', 'RouteAlreadyExists']);
const DEPENDENCY_CODES = new Set(['DependencyViolation', 'ResourceInUse', 'InvalidConfigurationRequest.ResourceInUse']);
const UNAUTHORIZED_CODES = new Set([
  'UnauthorizedOperation',
  'AccessDenied',
  'AccessDeniedException',
  'AuthFailure',
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'ExpiredToken',
  'ExpiredTokenException',
  'OptInRequired',
  'Blocked',
]);
const UNAVAILABLE_CODES = new Set([
  'InternalError',
  'InternalFailure',
  'ServiceUnavailable',
  'Unavailable',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
  ...NETWORK_ERROR_CODES,
]);

interface SdkErrorShape {
  name?: unknown;
  Code?: unknown;
  code?: unknown;
  message?: unknown;
  $fault?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

export function errorCodeOf(error: unknown): string {
  if (error === null || typeof error !== 'object') return '';
  const shape = error as SdkErrorShape;
  for (const candidate of [shape.Code, shape.code]) if (typeof candidate === 'string' && candidate !== '') return candidate;
  return typeof shape.name === 'string' && shape.name !== 'Error' ? shape.name : '';
}

export function classifyAwsError(code: string, httpStatus: number | undefined, fault: unknown): AwsApiErrorKind {
  if (THROTTLING_CODES.has(code) || httpStatus === 429) return 'Throttled';
  if (code === 'AbortError') return 'Unknown';
  if (NOT_FOUND_CODES.has(code) || code.endsWith('NotFound') || code.endsWith('NotFoundException')) return 'NotFound';
  if (DEPENDENCY_CODES.has(code)) return 'DependencyViolation';
  if (CONFLICT_CODES.has(code) || code.endsWith('.Duplicate') || code.endsWith('AlreadyExists')) return 'Conflict';
  if (UNAUTHORIZED_CODES.has(code) || httpStatus === 401 || httpStatus === 403) return 'Unauthorized';
  if (UNAVAILABLE_CODES.has(code) || (httpStatus !== undefined && httpStatus >= 500) || fault === 'server') return 'Unavailable';
  if (httpStatus !== undefined && httpStatus >= 400) return 'Invalid';
  if (code.startsWith('Invalid') || code.startsWith('Validation')) return 'Invalid';
  return 'Unknown';
}

export function toAwsApiError(operation: string, error: unknown): AwsApiError {
  if (error instanceof AwsApiError) return error;
  const shape = (error !== null && typeof error === 'object' ? error : {}) as SdkErrorShape;
  const code = errorCodeOf(error);
  const status = typeof shape.$metadata?.httpStatusCode === 'number' ? shape.$metadata.httpStatusCode : undefined;
  const kind = classifyAwsError(code, status, shape.$fault);
  const message = typeof shape.message === 'string' && shape.message !== '' ? shape.message : String(error);
  return new AwsApiError(code === '' ? message : `${code}: ${message}`, {
    kind,
    code,
    operation,
    retryable: kind === 'Throttled' || kind === 'Unavailable',
    ...(status === undefined ? {} : { httpStatus: status }),
    cause: error,
  });
}

/** Runs an SDK call and converts its failure. */
export async function sdkCall<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toAwsApiError(operation, error);
  }
}
