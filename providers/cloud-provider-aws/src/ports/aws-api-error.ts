/**
 * A failed AWS API call: core's `CloudApiError` with AWS's own word for it (`kind`) and core's
 * (`cloudKind`). Born in the SDK adapter (`sdk/sdk-errors.ts`), which decides the kind and the
 * retryability from the AWS error code, the HTTP status and Node network error codes.
 */
import { defineCloudApiErrorKinds, providerApiErrorClass } from '@ccm/core/cloud';

/** AWS's words for a failed call, each with core's kind. */
export const AWS_API_ERROR_KINDS = defineCloudApiErrorKinds({
  NotFound: 'not-found',
  Throttled: 'throttled',
  Invalid: 'invalid',
  Conflict: 'conflict',
  DependencyViolation: 'conflict',
  Unauthorized: 'unauthorized',
  Unavailable: 'transient',
  Unknown: 'unknown',
});

export type AwsApiErrorKind = keyof typeof AWS_API_ERROR_KINDS;

export class AwsApiError extends providerApiErrorClass('AwsApiError', AWS_API_ERROR_KINDS) {
  /** The AWS error code (`InvalidInstanceID.NotFound`, `RequestLimitExceeded`, ...), or '' when there is none. */
  declare readonly code: string;
}

