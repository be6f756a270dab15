/**
 * A failed vCenter call: core's `CloudApiError` as the SDK adapter (`sdk/`) reports it: the
 * client's error kind (`InvalidLogin`, `Transport`, `ManagedObjectNotFound`, ...) as `code` (also
 * the metric label), the client's message and retryability, the client's error as `cause`.
 */
import { CloudApiError, type CloudApiErrorKind } from '@ccm/core/cloud';

/** The client's error kinds, each with core's kind (any other: `unknown`); HTTP 429 and 503 are throttling. */
export const VCENTER_ERROR_KINDS: Readonly<Record<string, CloudApiErrorKind>> = {
  ManagedObjectNotFound: 'not-found', NotFound: 'not-found', NotAuthenticated: 'unauthorized', InvalidLogin: 'unauthorized', NoPermission: 'unauthorized',
  InvalidArgument: 'invalid', InvalidProperty: 'invalid', Transport: 'transient', InvalidResponse: 'transient', Timeout: 'transient', Aborted: 'aborted',
};
const THROTTLING_STATUSES: ReadonlySet<number> = new Set([429, 503]);

export class VsphereApiError extends CloudApiError {
  /** The client's error kind. */
  declare readonly code: string;

  /** `operation` is the VIM method or REST operation (`RetrievePropertiesEx`); the message is the client's, as it is. */
  constructor(message: string, details: { code: string; operation: string; retryable: boolean; httpStatus?: number; cause?: unknown }) {
    const throttled = details.httpStatus !== undefined && THROTTLING_STATUSES.has(details.httpStatus);
    super(throttled ? 'throttled' : (VCENTER_ERROR_KINDS[details.code] ?? 'unknown'), details.operation, message, { ...details, messagePrefix: '' });
    this.name = 'VsphereApiError';
  }
}
