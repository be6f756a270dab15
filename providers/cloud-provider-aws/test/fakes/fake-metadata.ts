/** An in-memory MetadataPort (the instance metadata service): fixed answers, a call log. */
import type { MetadataPort } from '../../src/ports/metadata-port.js';

export class FakeMetadata implements MetadataPort {
  calls: string[] = [];
  constructor(readonly values: { region?: string; instanceId?: string; availabilityZone?: string } = {}) {}
  async region(): Promise<string> {
    this.calls.push('region');
    if (this.values.region === undefined) throw new Error('metadata: no region');
    return this.values.region;
  }
  async instanceId(): Promise<string> {
    this.calls.push('instanceId');
    if (this.values.instanceId === undefined) throw new Error('metadata: connect ECONNREFUSED 169.254.169.254:80');
    return this.values.instanceId;
  }
  async availabilityZone(): Promise<string> {
    this.calls.push('availabilityZone');
    return this.values.availabilityZone ?? '';
  }
}
