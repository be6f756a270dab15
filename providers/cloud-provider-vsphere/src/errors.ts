/**
 * Errors of the vSphere provider. One class, a `kind` per outcome callers and logs care about,
 * the vCenter concerned, and the cause. Messages are complete sentences for the node
 * controller's logs and never contain credentials.
 */
export type VsphereProviderErrorKind =
  /** A vCenter could not be reached or answered with an error (possibly transient). */
  | 'VcenterUnavailable'
  /** Login refused: wrong user name or password. */
  | 'InvalidCredentials'
  /** The credentials are not available (Secret missing, key missing, directory unreadable). */
  | 'CredentialsUnavailable'
  /** A configured datacenter does not exist on its vCenter. */
  | 'DatacenterNotFound'
  /** The VM reports no usable address (or no guest hostname). */
  | 'NoSuitableAddress'
  /** A configured zone/region tag category matches no tag on the VM's host or its ancestors. */
  | 'ZoneNotFound'
  /** No VM for the node (lookup by name when the node has no providerID). */
  | 'VmNotFound'
  /** The VM is gone but SKIP_NODE_DELETION forbids reporting it. */
  | 'NodeDeletionSkipped';

export class VsphereProviderError extends Error {
  readonly kind: VsphereProviderErrorKind;
  /** The vCenter (config name) concerned, when there is one. */
  readonly vcenter: string | undefined;

  constructor(kind: VsphereProviderErrorKind, message: string, options: { vcenter?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'VsphereProviderError';
    this.kind = kind;
    this.vcenter = options.vcenter;
  }

  /** A short, bounded label (metrics): the kind. */
  get code(): VsphereProviderErrorKind {
    return this.kind;
  }
}

/** A failed vCenter call (core's `CloudApiError`): `ports/vsphere-api-error.ts`. */
export { VCENTER_ERROR_KINDS, VsphereApiError } from './ports/vsphere-api-error.js';

/** The message of an error, or the value as text (core's). */
export { errorMessage } from '@ccm/core/util';
