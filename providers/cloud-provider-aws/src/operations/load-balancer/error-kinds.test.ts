/**
 * Which Service checks stop retrying. Core retries `InvalidInput` with backoff (as upstream requeues
 * every error) and stops only on `PermanentInvalidInput`: a value wrong whatever the cloud does.
 * Every check below is decided by the Service alone, so each must be permanent; the checks against
 * cloud state (annotated subnets, EIP/private-IP counts vs subnets found) are asserted retried in
 * test/classic-load-balancer.test.ts and test/network-load-balancer.test.ts.
 */
import { silentLogger } from '@ccm/core/logging';
import { isInvalidInput, isPermanentInvalidInput } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import { makeService, type ServiceOptions } from '../../../test/helpers.js';
import { buildLoadBalancerSpec } from './build-load-balancer-spec.js';
import { DEFAULT_LOAD_BALANCER_SETTINGS } from './load-balancer-spec.js';

const P = 'service.beta.kubernetes.io/';
const NLB = { [`${P}aws-load-balancer-type`]: 'nlb' };
const CERT = { [`${P}aws-load-balancer-ssl-cert`]: 'arn:aws:acm:cert' };

function failure(options: ServiceOptions): unknown {
  try {
    buildLoadBalancerSpec(makeService(options), DEFAULT_LOAD_BALANCER_SETTINGS, silentLogger);
  } catch (error) {
    return error;
  }
  throw new Error(`expected ${JSON.stringify(options)} to be rejected`);
}

describe('checks wrong whatever the cloud does are PermanentInvalidInput (not retried)', () => {
  it.each<[string, ServiceOptions, RegExp]>([
    ['boolean annotation', { annotations: { [`${P}aws-load-balancer-cross-zone-load-balancing-enabled`]: 'maybe' } }, /expected a boolean/],
    ['integer annotation, not a number', { annotations: { [`${P}aws-load-balancer-healthcheck-interval`]: 'soon' } }, /expected an integer/],
    ['integer annotation, out of range', { annotations: { [`${P}aws-load-balancer-healthcheck-interval`]: '99999999999999999999' } }, /integer out of range/],
    ['integer annotation, below the minimum', { annotations: { [`${P}aws-load-balancer-healthcheck-interval`]: '1' } }, /must be at least 5/],
    ['classic health check protocol', { annotations: { [`${P}aws-load-balancer-healthcheck-protocol`]: 'gopher' } }, /expected one of/],
    ['classic health check port', { annotations: { [`${P}aws-load-balancer-healthcheck-port`]: '70000' } }, /not a port number/],
    ['classic backend protocol with a certificate', { annotations: { ...CERT, [`${P}aws-load-balancer-backend-protocol`]: 'gopher' } }, /invalid backend protocol/],
    ['source ranges annotation', { annotations: { [`${P}load-balancer-source-ranges`]: '10.0.0.0/99' } }, /is not a CIDR/],
    ['spec.loadBalancerSourceRanges', { loadBalancerSourceRanges: ['nope'] }, /LoadBalancerSourceRanges/],
    ['session affinity', { sessionAffinity: 'ClientIP' }, /unsupported load balancer affinity/],
    ['no ports', { ports: [] }, /no ports/],
    ['mixed protocols', { ports: [{ port: 80, nodePort: 30080 }, { port: 53, nodePort: 30053, protocol: 'UDP' }] }, /mixed protocol/],
    ['UDP on a Classic ELB', { ports: [{ port: 53, nodePort: 30053, protocol: 'UDP' }] }, /Protocol UDP not supported/],
    ['loadBalancerIP', { loadBalancerIP: '10.0.0.9' }, /LoadBalancerIP cannot be specified/],
    ['no node port', { ports: [{ port: 80 }] }, /no Service port has a NodePort/],
    ['target group attributes on a Classic ELB', { annotations: { [`${P}aws-load-balancer-target-group-attributes`]: 'preserve_client_ip.enabled=true' } }, /only supported for NLB/],
    ['proxy protocol other than *', { annotations: { [`${P}aws-load-balancer-proxy-protocol`]: 'v2' } }, /the only value supported/],
    ['extra security groups on an NLB', { annotations: { ...NLB, [`${P}aws-load-balancer-extra-security-groups`]: 'sg-1' } }, /not supported for NLB/],
    ['private IPv4 address on an NLB', { annotations: { ...NLB, [`${P}aws-load-balancer-private-ipv4-addresses`]: '10.0.0.1,fd00::1' } }, /is not an IPv4 address/],
    ['NLB target group attribute without a name', { annotations: { ...NLB, [`${P}aws-load-balancer-target-group-attributes`]: '=true' } }, /empty attribute name/],
    ['NLB target group attribute repeated', { annotations: { ...NLB, [`${P}aws-load-balancer-target-group-attributes`]: 'preserve_client_ip.enabled=true,preserve_client_ip.enabled=false' } }, /is repeated/],
    ['NLB target group attribute unknown', { annotations: { ...NLB, [`${P}aws-load-balancer-target-group-attributes`]: 'stickiness.enabled=true' } }, /unsupported attribute/],
    ['NLB target group attribute not a boolean', { annotations: { ...NLB, [`${P}aws-load-balancer-target-group-attributes`]: 'proxy_protocol_v2.enabled=yes' } }, /needs true or false/],
    [
      'NLB preserve_client_ip=false with UDP',
      { annotations: { ...NLB, [`${P}aws-load-balancer-target-group-attributes`]: 'preserve_client_ip.enabled=false' }, ports: [{ port: 53, nodePort: 30053, protocol: 'UDP' }] },
      /not supported for UDP ports/,
    ],
    ['NLB health check protocol', { annotations: { ...NLB, [`${P}aws-load-balancer-healthcheck-protocol`]: 'gopher' } }, /expected one of/],
    ['NLB health check port', { annotations: { ...NLB, [`${P}aws-load-balancer-healthcheck-port`]: 'eighty' } }, /traffic-port or a port number/],
  ])('%s', (_name, options, message) => {
    const error = failure(options);
    expect(String(error)).toMatch(message);
    expect(error).toMatchObject({ kind: 'PermanentInvalidInput' });
    expect(isPermanentInvalidInput(error)).toBe(true);
    expect(isInvalidInput(error)).toBe(false);
  });
});
