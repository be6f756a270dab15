import { describe, expect, it } from 'vitest';
import { FakeEc2 } from '../../test/fakes/fake-ec2.js';
import { InstanceTagOperations } from './instance-tags.js';

describe('InstanceTagOperations', () => {
  it('never sends DeleteTags without tags (EC2 would delete every tag of the instance)', async () => {
    const ec2 = new FakeEc2();
    const operations = new InstanceTagOperations(ec2);
    await operations.untag('i-0123456789abcdef0', {});
    expect(ec2.log.count('ec2.deleteTags')).toBe(0);
  });
});
