/**
 * Typed errors of the AWS provider. Every error carries a `kind` callers branch on and keeps the
 * original error as `cause`. Cloud API errors are core's `CloudApiError` (`ports/aws-api-error.ts`),
 * typed where they are born (the SDK adapter), never guessed later from a message.
 */
import { InvalidServiceConfigurationError, PermanentInvalidServiceConfigurationError } from '@ccm/core/provider';

/** Failed cloud API calls (core's `CloudApiError` with AWS's words): `ports/aws-api-error.ts`. */
export { AWS_API_ERROR_KINDS, AwsApiError, type AwsApiErrorKind } from './ports/aws-api-error.js';

/**
 * A Service annotation holds a value that is wrong whatever the cloud does (malformed, an unknown
 * choice, contradicting another field). Thrown before any cloud change: the service controller
 * reports it as a Warning event and does not retry until the Service (or a node) changes (core
 * kind `PermanentInvalidInput`).
 */
export class InvalidAnnotationError extends PermanentInvalidServiceConfigurationError {
  declare readonly annotation: string;
  declare readonly value: string;

  constructor(annotation: string, value: string, reason: string, options?: { cause?: unknown }) {
    super(`invalid value ${JSON.stringify(value)} for annotation ${annotation}: ${reason}`, { annotation, value, cause: options?.cause });
    this.name = 'InvalidAnnotationError';
  }
}

/**
 * A Service annotation does not match the cloud as it is now: a named subnet not found (yet), or
 * fewer subnets found than EIP allocations / private IPs annotated. The cloud can change, so this
 * is core kind `InvalidInput`: a Warning event, then retried with backoff (upstream requeues every
 * such error with 5 s - 300 s backoff).
 */
export class UnresolvedAnnotationError extends InvalidServiceConfigurationError {
  declare readonly annotation: string;
  declare readonly value: string;

  constructor(annotation: string, value: string, reason: string, options?: { cause?: unknown }) {
    super(`annotation ${annotation}=${JSON.stringify(value)} does not match the cloud: ${reason}`, { annotation, value, cause: options?.cause });
    this.name = 'UnresolvedAnnotationError';
  }
}

/**
 * The Service spec asks for something AWS load balancers cannot do (mixed protocols, affinity,
 * loadBalancerIP...): wrong whatever the cloud does, so core kind `PermanentInvalidInput`, not
 * retried until the Service changes.
 */
export class UnsupportedServiceError extends PermanentInvalidServiceConfigurationError {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedServiceError';
  }
}

/** A cloud resource we would change is not tagged as owned by this cluster. */
export class NotOwnedError extends Error {
  readonly kind = 'NotOwned' as const;
  readonly resource: string;

  constructor(resource: string, reason: string) {
    super(`refusing to change ${resource}: ${reason}`);
    this.name = 'NotOwnedError';
    this.resource = resource;
  }
}

/** The cloud holds something the provider cannot work with (core's). */
export { CloudStateError } from '@ccm/core/provider';
