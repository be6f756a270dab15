import { describe, expect, it } from 'vitest';
import { formatProviderId, parseProviderId, ProviderIdError } from './provider-id.js';

describe('provider IDs', () => {
  it('formats <name>://<id>', () => {
    expect(formatProviderId('aws', '/us-east-1a/i-123')).toBe('aws:///us-east-1a/i-123');
  });
  it('parses and round-trips', () => {
    expect(parseProviderId('vsphere://4201-abc')).toEqual({ providerName: 'vsphere', instanceId: '4201-abc' });
  });
  it.each(['', 'i-123', '://x', 'aws://'])('rejects %j', (value) => {
    expect(() => parseProviderId(value)).toThrow(ProviderIdError);
  });
});
