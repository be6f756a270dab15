import { describe, expect, it } from 'vitest';
import { AwsProviderIdError, formatAwsProviderId, instanceIdFromNodeName, parseAwsProviderId } from './provider-id.js';

describe('AWS provider IDs', () => {
  it('formats aws:///<az>/<id>', () => {
    expect(formatAwsProviderId('us-east-1a', 'i-0abc')).toBe('aws:///us-east-1a/i-0abc');
  });

  it.each([
    ['aws:///us-east-1a/i-0abc', 'i-0abc'],
    ['aws:////i-0abc', 'i-0abc'],
    ['aws:///i-0abc', 'i-0abc'],
    ['aws://us-east-1a/i-0abc', 'i-0abc'],
    ['i-0abc', 'i-0abc'],
    ['us-east-1a/i-0abc', 'i-0abc'],
    ['aws:///us-east-1a/i-12345678', 'i-12345678'],
    ['aws:///us-east-1a/i-0abc/', 'i-0abc'],
    // upstream MapToAWSInstanceID (instances.go at b82bcf9d): the last path token is the instance
    ['aws:///a/b/i-0abc', 'i-0abc'],
  ])('parses %s', (providerId, instanceId) => {
    expect(parseAwsProviderId(providerId)).toBe(instanceId);
  });

  it.each([
    ['', /Invalid format for AWS instance/],
    ['aws://', /Invalid format/],
    ['aws:///us-east-1a/vol-123', /Invalid format/],
    ['aws:///us-east-1a/i-0abc/vol-1', /Invalid format/],
    ['gce://project/zone/i-0abc', /Invalid scheme/],
    ['aws:///us-east-1a/fargate-ip-10-0-0-1', /Fargate nodes are not supported/],
    ['node-1', /Invalid format/],
  ])('rejects %j', (providerId, message) => {
    expect(() => parseAwsProviderId(providerId)).toThrow(AwsProviderIdError);
    expect(() => parseAwsProviderId(providerId)).toThrow(message);
  });

  it('reads resource-based node names', () => {
    expect(instanceIdFromNodeName('i-0abc')).toBe('i-0abc');
    expect(instanceIdFromNodeName('i-0abc.us-west-2.compute.internal')).toBe('i-0abc');
    expect(instanceIdFromNodeName('ip-10-0-0-1.us-west-2.compute.internal')).toBeUndefined();
  });
});
