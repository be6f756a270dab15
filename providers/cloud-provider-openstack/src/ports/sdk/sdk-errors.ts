/**
 * Turns every failure of openstack-client-ts (an `OpenStackError` with its kind, HTTP status,
 * request ID and fault type; anything else it may throw) into the provider's `OpenStackApiError`,
 * keeping the client's retryability decision: it is made where the error is born.
 */
import { isOpenStackError, type OpenStackErrorKind } from 'openstack-client-ts';
import { OpenStackApiError, type OpenStackApiErrorKind } from '../openstack-api-error.js';

const KIND: Readonly<Record<OpenStackErrorKind, OpenStackApiErrorKind>> = {
  BadRequest: 'Invalid',
  Unauthorized: 'Unauthorized',
  Forbidden: 'Unauthorized',
  NotFound: 'NotFound',
  Conflict: 'Conflict',
  OverLimit: 'Throttled',
  ServerError: 'Unavailable',
  ServiceUnavailable: 'Unavailable',
  UnexpectedStatus: 'Unknown',
  EndpointNotFound: 'EndpointNotFound',
  ProvisioningFailed: 'ProvisioningFailed',
  ProvisioningTimeout: 'Unavailable',
  InvalidConfiguration: 'Invalid',
  InvalidResponse: 'Unknown',
  Transport: 'Unavailable',
  Timeout: 'Unavailable',
  Aborted: 'Unknown',
};

/** The provider's error for a failure of `operation` (`compute.getServer`). */
export function toOpenStackApiError(error: unknown, operation: string): OpenStackApiError {
  if (error instanceof OpenStackApiError) return error;
  if (isOpenStackError(error)) {
    const kind = KIND[error.kind];
    return new OpenStackApiError(error.message, {
      kind,
      operation,
      // Throttling is retried by the budget; the client's own decision otherwise.
      retryable: kind === 'Throttled' ? true : error.retryable,
      ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
      ...(error.requestId === undefined ? {} : { requestId: error.requestId }),
      ...(error.faultType === undefined ? {} : { faultType: error.faultType }),
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new OpenStackApiError(message, { kind: 'Unknown', operation, retryable: false, cause: error });
}

/** Runs one client call, turning its failure into an `OpenStackApiError`. */
export async function callOpenStack<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toOpenStackApiError(error, operation);
  }
}
