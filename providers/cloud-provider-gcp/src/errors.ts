/**
 * Typed errors of the GCE provider. Every Compute API failure leaves the SDK adapter as a
 * `GceApiError` (core's `CloudApiError`, `ports/gce-api-error.ts`) with a `kind` callers branch
 * on; retryability is decided there, where it is born.
 */

/** Failed Compute API calls (core's `CloudApiError` with GCE's words): `ports/gce-api-error.ts`. */
export { GCE_API_ERROR_KINDS, GceApiError, asGceApiError, isGceErrorKind, type GceApiErrorKind } from './ports/gce-api-error.js';

/** The cloud is not in a state the provider can work with (no hosts found, a size mismatch after an update). */
export class GceCloudStateError extends Error {
  readonly kind = 'CloudState';
  constructor(message: string) {
    super(message);
    this.name = 'GceCloudStateError';
  }
}
