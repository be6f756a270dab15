import { describe, expect, it } from 'vitest';
import type { ClassicAttributes, ClassicListener } from '../../../ports/elb-port.js';
import { classicAttributesSatisfied } from './classic-attributes.js';
import { classicHealthChecksEqual } from './classic-health-check.js';
import { planClassicListeners } from './classic-listeners.js';
import { classicSecurityGroupRules, planClassicInstances, planProxyProtocol, primarySecurityGroup } from './classic-load-balancer.js';

const tcp = (port: number, nodePort: number): ClassicListener => ({ protocol: 'tcp', loadBalancerPort: port, instanceProtocol: 'tcp', instancePort: nodePort });
const described = (listener: ClassicListener) => ({ listener: { ...listener, protocol: listener.protocol.toUpperCase(), instanceProtocol: listener.instanceProtocol.toUpperCase() }, policyNames: [] });

describe('planClassicListeners', () => {
  it.each([
    ['nothing to do (protocols compare case-insensitively)', [tcp(80, 30080)], [tcp(80, 30080)], [], []],
    ['new port', [tcp(80, 30080)], [tcp(80, 30080), tcp(443, 30443)], [], [443]],
    ['removed port', [tcp(80, 30080), tcp(443, 30443)], [tcp(80, 30080)], [443], []],
    ['node port change replaces the listener', [tcp(80, 30080)], [tcp(80, 30081)], [80], [80]],
    ['protocol change replaces the listener', [tcp(443, 30443)], [{ ...tcp(443, 30443), protocol: 'ssl', sslCertificateId: 'arn:cert' }], [443], [443]],
    ['certificate ARNs compare case-insensitively', [{ ...tcp(443, 30443), protocol: 'ssl', sslCertificateId: 'ARN:CERT' }], [{ ...tcp(443, 30443), protocol: 'ssl', sslCertificateId: 'arn:cert' }], [], []],
    ['certificate change replaces the listener', [{ ...tcp(443, 30443), protocol: 'ssl', sslCertificateId: 'arn:a' }], [{ ...tcp(443, 30443), protocol: 'ssl', sslCertificateId: 'arn:b' }], [443], [443]],
  ])('%s', (_name, actual, expected, removals, additionPorts) => {
    const plan = planClassicListeners(actual.map(described), expected);
    expect(plan.removals).toEqual(removals);
    expect(plan.additions.map((listener) => listener.loadBalancerPort)).toEqual(additionPorts);
  });
});

describe('classicAttributesSatisfied', () => {
  const base: ClassicAttributes = { accessLog: { enabled: false }, connectionDraining: { enabled: false }, connectionSettings: { idleTimeout: 60 }, crossZoneLoadBalancing: { enabled: false } };
  it.each([
    ['identical', base, base, true],
    ['AWS extras do not matter', { ...base, connectionDraining: { enabled: false, timeout: 300 } }, base, true],
    ['idle timeout differs', { ...base, connectionSettings: { idleTimeout: 30 } }, base, false],
    ['cross-zone differs', base, { ...base, crossZoneLoadBalancing: { enabled: true } }, false],
    ['bucket differs', { ...base, accessLog: { enabled: true, s3BucketName: 'a' } }, { ...base, accessLog: { enabled: true, s3BucketName: 'b' } }, false],
    ['draining timeout wanted', { ...base, connectionDraining: { enabled: true, timeout: 300 } }, { ...base, connectionDraining: { enabled: true, timeout: 30 } }, false],
  ])('%s', (_name, actual, desired, satisfied) => {
    expect(classicAttributesSatisfied(actual, desired)).toBe(satisfied);
  });
});

describe('classicHealthChecksEqual', () => {
  const check = { target: 'TCP:30080', interval: 10, timeout: 5, healthyThreshold: 2, unhealthyThreshold: 6 };
  it('compares the five fields and treats a missing health check as different', () => {
    expect(classicHealthChecksEqual(check, { ...check })).toBe(true);
    expect(classicHealthChecksEqual(undefined, check)).toBe(false);
    for (const change of [{ target: 'TCP:1' }, { interval: 11 }, { timeout: 6 }, { healthyThreshold: 3 }, { unhealthyThreshold: 5 }]) {
      expect(classicHealthChecksEqual({ ...check, ...change }, check)).toBe(false);
    }
  });
});

describe('planProxyProtocol', () => {
  const policy = 'k8s-proxyprotocol-enabled';
  it.each([
    ['enable on new backends', [], [30080, 30443], true, [[30080, [policy]], [30443, [policy]]]],
    ['nothing on new backends when disabled', [], [30080], false, []],
    ['keep enabled backends', [{ instancePort: 30080, policyNames: [policy] }], [30080], true, []],
    ['disable enabled backends', [{ instancePort: 30080, policyNames: [policy] }], [30080], false, [[30080, []]]],
    ['clear backends that lost their listener', [{ instancePort: 30999, policyNames: [policy] }], [30080], true, [[30080, [policy]], [30999, []]]],
    ['leave other policies of unused backends alone', [{ instancePort: 30999, policyNames: ['other'] }], [30080], false, []],
  ])('%s', (_name, backendServers, ports, enabled, expected) => {
    expect(planProxyProtocol({ backendServers }, ports, enabled).map((change) => [change.instancePort, change.policyNames])).toEqual(expected);
  });
});

describe('planClassicInstances', () => {
  it('registers the missing and deregisters the extra', () => {
    expect(planClassicInstances(['i-1', 'i-2'], ['i-2', 'i-3'])).toEqual({ register: ['i-3'], deregister: ['i-1'] });
    expect(planClassicInstances([], [])).toEqual({ register: [], deregister: [] });
  });
});

describe('primarySecurityGroup (upstream sortELBSecurityGroupList)', () => {
  it.each([
    [['sg-managed'], [], [], 'sg-managed'],
    [['sg-managed', 'sg-extra'], [], ['sg-extra'], 'sg-managed'],
    [['sg-extra', 'sg-managed'], [], ['sg-extra'], 'sg-managed'],
    [['sg-b', 'sg-a', 'sg-extra'], ['sg-a', 'sg-b'], ['sg-extra'], 'sg-a'],
    [[], [], [], undefined],
  ])('%j annotated %j extra %j -> %s', (groups, annotated, extra, expected) => {
    expect(primarySecurityGroup(groups, annotated, extra)).toBe(expected);
  });
});

describe('classicSecurityGroupRules', () => {
  it('opens every service port and ICMP 3/4 from every source range', () => {
    expect(classicSecurityGroupRules({ frontendPorts: [{ port: 80, protocol: 'tcp' }, { port: 443, protocol: 'tcp' }], sourceRanges: ['10.0.0.0/8', '2600::/64'] })).toEqual([
      { protocol: 'tcp', fromPort: 80, toPort: 80, source: { kind: 'ipv4', value: '10.0.0.0/8' } },
      { protocol: 'tcp', fromPort: 80, toPort: 80, source: { kind: 'ipv6', value: '2600::/64' } },
      { protocol: 'tcp', fromPort: 443, toPort: 443, source: { kind: 'ipv4', value: '10.0.0.0/8' } },
      { protocol: 'tcp', fromPort: 443, toPort: 443, source: { kind: 'ipv6', value: '2600::/64' } },
      { protocol: 'icmp', fromPort: 3, toPort: 4, source: { kind: 'ipv4', value: '10.0.0.0/8' } },
    ]);
  });
});
