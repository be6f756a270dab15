/**
 * The error of every bad Service annotation (or Service field read with one): core kind
 * `PermanentInvalidInput`, so the service controller reports it as one Warning event and a log
 * line, does not retry until the Service changes, and carries on with other Services.
 */
import { PermanentInvalidServiceConfigurationError } from '../provider/cloud-errors.js';

/** `annotation <key>="<value>": <reason>`; a `spec.` key is written `field spec.x="<value>": <reason>`. */
export class InvalidAnnotationError extends PermanentInvalidServiceConfigurationError {
  declare readonly annotation: string;
  declare readonly value: string;

  constructor(annotation: string, value: string, reason: string, options?: { cause?: unknown }) {
    super(`${annotation.startsWith('spec.') ? 'field' : 'annotation'} ${annotation}=${JSON.stringify(value)}: ${reason}`, { annotation, value, cause: options?.cause });
    this.name = 'InvalidAnnotationError';
  }
}
