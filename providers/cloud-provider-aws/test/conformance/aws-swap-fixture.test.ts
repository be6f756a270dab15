// The swap fixture's names against upstream's own expectations (no moto needed).
import { describe, expect, it } from 'vitest';
import { upstreamLoadBalancerName, upstreamTargetGroupName } from './aws-swap-fixture.js';

describe('the AWS swap fixture names resources as upstream does', () => {
  it('names target groups as upstream TestBuildTargetGroupName expects (aws_loadbalancer_test.go, empty health check config)', () => {
    const service = { namespace: 'default', name: 'service-a' };
    const port = { port: 80, nodePort: 8080, protocol: 'TCP' };
    const emptyHealthCheck = { protocol: '', intervalSeconds: 0 };
    expect(upstreamTargetGroupName('cluster-a', service, port, emptyHealthCheck)).toBe('k8s-default-servicea-7fa2e07508');
    expect(upstreamTargetGroupName('cluster-b', service, port, emptyHealthCheck)).toBe('k8s-default-servicea-719ee635da');
  });

  it('names load balancers a + the UID without dashes, cut to 32 (DefaultLoadBalancerName)', () => {
    expect(upstreamLoadBalancerName('4f8a3c2e-1b7d-4e9a-8c6f-0123456789ab')).toBe('a4f8a3c2e1b7d4e9a8c6f0123456789a');
  });
});
