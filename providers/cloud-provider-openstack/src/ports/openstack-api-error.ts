/** A failed Keystone, Nova, Neutron or Octavia call: core's `CloudApiError` with OpenStack's own word for it, born in the SDK adapter (`sdk/sdk-errors.ts`). */
import { defineCloudApiErrorKinds, providerApiErrorClass, type ProviderApiErrorDetails } from '@ccm/core/cloud';

/** OpenStack's words, each with core's kind. `Throttled`: HTTP 413/429; `Unavailable`: 5xx, transport, timeouts, a load balancer still PENDING_*. */
export const OPENSTACK_API_ERROR_KINDS = defineCloudApiErrorKinds({
  NotFound: 'not-found',
  Conflict: 'conflict',
  Throttled: 'throttled',
  Invalid: 'invalid',
  Unauthorized: 'unauthorized',
  Unavailable: 'transient',
  EndpointNotFound: 'invalid',
  ProvisioningFailed: 'unknown',
  Unknown: 'unknown',
});
export type OpenStackApiErrorKind = keyof typeof OPENSTACK_API_ERROR_KINDS;

export class OpenStackApiError extends providerApiErrorClass('OpenStackApiError', OPENSTACK_API_ERROR_KINDS) {
  /** `x-openstack-request-id` (to find the call in the service logs) and the service's fault type (`PortNotFound`), or ''. */
  readonly requestId: string | undefined;
  readonly faultType: string;
  constructor(message: string, details: ProviderApiErrorDetails<OpenStackApiErrorKind> & { requestId?: string; faultType?: string }) {
    super(message, details);
    this.requestId = details.requestId;
    this.faultType = details.faultType ?? '';
  }
}
export const asOpenStackApiError = (error: unknown): OpenStackApiError | undefined => OpenStackApiError.find(error);
export const isOpenStackErrorKind = (error: unknown, kind: OpenStackApiErrorKind): boolean => OpenStackApiError.hasKind(error, kind);
