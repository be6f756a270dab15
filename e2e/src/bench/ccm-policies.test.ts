import { describe, expect, it } from 'vitest';
import { OUR_POLICY, UPSTREAM_POLICY, policyFlags } from './ccm-policies.js';

describe('benchmark policies', () => {
  it('runs the reference row with upstream k8s.io/cloud-provider defaults, whatever our policy is', () => {
    expect(UPSTREAM_POLICY.lookupPolicy).toBe('single');
    expect(policyFlags(UPSTREAM_POLICY)).toEqual(['--concurrent-node-syncs=1', '--concurrent-service-syncs=1', '--kube-api-qps=20', '--kube-api-burst=30']);
  });

  it('runs our row with its documented flags', () => {
    expect(OUR_POLICY.lookupPolicy).toBe('batched');
    expect(policyFlags(OUR_POLICY)).toEqual(['--concurrent-node-syncs=500', '--concurrent-service-syncs=100', '--kube-api-qps=5000', '--kube-api-burst=10000']);
  });
});
