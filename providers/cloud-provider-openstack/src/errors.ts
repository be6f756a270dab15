/**
 * Typed errors of the OpenStack provider. Every error carries a `kind` callers branch on and keeps
 * the original error as `cause`. The SDK adapters (`ports/sdk/`) turn every client failure into an
 * `OpenStackApiError` (core's `CloudApiError`, `ports/openstack-api-error.ts`); retryability is
 * decided there (`ports/sdk/sdk-errors.ts`), never guessed later from a message.
 */

/** Failed Keystone, Nova, Neutron and Octavia calls (core's `CloudApiError` with OpenStack's words): `ports/openstack-api-error.ts`. */
export { OPENSTACK_API_ERROR_KINDS, OpenStackApiError, asOpenStackApiError, isOpenStackErrorKind, type OpenStackApiErrorKind } from './ports/openstack-api-error.js';

/** The cloud holds something the provider cannot work with (core's). */
export { CloudStateError } from '@ccm/core/provider';

/** The effective config cannot be used (an unreadable CA file); names the key. */
export class OpenStackConfigurationError extends Error {
  readonly kind = 'Configuration' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OpenStackConfigurationError';
  }
}
