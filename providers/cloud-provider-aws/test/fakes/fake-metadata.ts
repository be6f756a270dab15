/**
 * An in-memory MetadataPort (the instance metadata service): fixed answers, a call log. A value
 * left out is a service that does not answer: the call fails as the IMDS adapter's does.
 */
import { AwsApiError } from '../../src/ports/aws-api-error.js';
import type { MetadataPort } from '../../src/ports/metadata-port.js';

const ENDPOINT = 'http://169.254.169.254';

export class FakeMetadata implements MetadataPort {
  calls: string[] = [];
  constructor(readonly values: { region?: string; instanceId?: string; availabilityZone?: string } = {}) {}
  async region(): Promise<string> {
    return this.#answer('region');
  }
  async instanceId(): Promise<string> {
    return this.#answer('instanceId');
  }
  async availabilityZone(): Promise<string> {
    return this.#answer('availabilityZone');
  }

  #answer(key: 'region' | 'instanceId' | 'availabilityZone'): string {
    this.calls.push(key);
    const value = this.values[key];
    if (value !== undefined) return value;
    const cause = Object.assign(new Error('connect ECONNREFUSED 169.254.169.254:80'), { code: 'ECONNREFUSED' });
    throw new AwsApiError(`instance metadata service at ${ENDPOINT} is not reachable: ${String(cause)}`, { kind: 'Unavailable', code: '', operation: 'imds.get', retryable: true, cause });
  }
}
