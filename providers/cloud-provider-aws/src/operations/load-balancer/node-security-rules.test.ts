import { silentLogger } from '@ccm/core/logging';
import { describe, expect, it } from 'vitest';
import type { Ec2Instance, Ec2SecurityGroup } from '../../ports/ec2-port.js';
import { portRule, toPermissions, type IngressRule } from './ingress-rules.js';
import type { NetworkPortMapping } from './load-balancer-spec.js';
import { desiredNetworkRules, nodeSecurityGroupIds, planClassicNodeRules, planMtuRules, planNetworkNodeRules } from './node-security-rules.js';
import { securityGroupForInstance } from './security-groups.js';

const instance = (id: string, ...groups: string[]): Ec2Instance => ({ instanceId: id, securityGroups: groups.map((groupId) => ({ groupId, groupName: groupId })), networkInterfaces: [], tags: {} });
const mapping = (trafficPort: number, options: Partial<NetworkPortMapping> = {}): NetworkPortMapping => ({
  frontendPort: 80,
  frontendProtocol: 'TCP',
  trafficPort,
  trafficProtocol: 'TCP',
  healthCheck: { protocol: 'TCP', port: 'traffic-port', path: '/', interval: 30, timeout: 10, healthyThreshold: 3, unhealthyThreshold: 3 },
  ...options,
});
const cidr = (value: string) => ({ kind: 'ipv4' as const, value });

describe('securityGroupForInstance (upstream findSecurityGroupForInstance)', () => {
  const tagged = new Set(['sg-k8s', 'sg-k8s-2']);
  it.each([
    [instance('i', 'sg-k8s', 'sg-other'), 'sg-k8s'],
    [instance('i', 'sg-only'), 'sg-only'],
    [instance('i'), undefined],
  ])('%j -> %s', (candidate, expected) => {
    expect(securityGroupForInstance(candidate, tagged)).toBe(expected);
  });

  it('refuses ambiguity', () => {
    expect(() => securityGroupForInstance(instance('i-1', 'sg-k8s', 'sg-k8s-2'), tagged)).toThrow(/Multiple tagged security groups found for instance i-1/);
    expect(() => securityGroupForInstance(instance('i-1', 'sg-a', 'sg-b'), tagged)).toThrow(/Multiple untagged security groups found for instance i-1/);
  });

  it('collects node groups and skips instances without one', () => {
    expect([...nodeSecurityGroupIds([instance('a', 'sg-k8s'), instance('b'), instance('c', 'sg-x')], tagged, silentLogger)]).toEqual(['sg-k8s', 'sg-x']);
  });
});

describe('planClassicNodeRules', () => {
  it('adds to new node groups and removes from groups without targets', () => {
    expect(planClassicNodeRules(new Set(['sg-a', 'sg-b']), ['sg-b', 'sg-c'])).toEqual({ add: ['sg-a'], remove: ['sg-c'] });
  });
});

describe('desiredNetworkRules', () => {
  it('skips the health rule when the client rule already covers it (0.0.0.0/0, tcp, same ports)', () => {
    const rules = desiredNetworkRules({ loadBalancerName: 'a1', mappings: [mapping(30080)], clientCidrs: ['0.0.0.0/0'], subnetCidrs: ['10.0.1.0/24'] });
    expect(rules.client).toEqual([portRule('tcp', 30080, cidr('0.0.0.0/0'), 'kubernetes.io/rule/nlb/client=a1')]);
    expect(rules.health).toEqual([]);
  });

  it('adds health rules from the subnets for restricted clients, another health port, or UDP', () => {
    const restricted = desiredNetworkRules({ loadBalancerName: 'a1', mappings: [mapping(30080)], clientCidrs: ['192.168.0.0/16'], subnetCidrs: ['10.0.1.0/24', '10.0.2.0/24'] });
    expect(restricted.health).toEqual([
      portRule('tcp', 30080, cidr('10.0.1.0/24'), 'kubernetes.io/rule/nlb/health=a1'),
      portRule('tcp', 30080, cidr('10.0.2.0/24'), 'kubernetes.io/rule/nlb/health=a1'),
    ]);
    const local = desiredNetworkRules({
      loadBalancerName: 'a1',
      mappings: [mapping(30080, { healthCheck: { protocol: 'HTTP', port: '32000', path: '/healthz', interval: 10, timeout: 10, healthyThreshold: 2, unhealthyThreshold: 2 } })],
      clientCidrs: [],
      subnetCidrs: ['10.0.1.0/24'],
    });
    expect(local.client).toEqual([portRule('tcp', 30080, cidr('0.0.0.0/0'), 'kubernetes.io/rule/nlb/client=a1')]);
    expect(local.health).toEqual([portRule('tcp', 32000, cidr('10.0.1.0/24'), 'kubernetes.io/rule/nlb/health=a1')]);
    const udp = desiredNetworkRules({ loadBalancerName: 'a1', mappings: [mapping(30053, { frontendProtocol: 'UDP', trafficProtocol: 'UDP' })], clientCidrs: ['0.0.0.0/0'], subnetCidrs: ['10.0.1.0/24'] });
    expect(udp.client).toEqual([portRule('udp', 30053, cidr('0.0.0.0/0'), 'kubernetes.io/rule/nlb/client=a1')]);
    expect(udp.health).toEqual([portRule('tcp', 30053, cidr('10.0.1.0/24'), 'kubernetes.io/rule/nlb/health=a1')]);
  });
});

describe('planMtuRules', () => {
  it('keeps one ICMP 3/4 rule per client CIDR of any NLB', () => {
    const rules: IngressRule[] = [
      portRule('tcp', 30080, cidr('10.0.0.0/8'), 'kubernetes.io/rule/nlb/client=a1'),
      portRule('tcp', 30081, cidr('10.0.0.0/8'), 'kubernetes.io/rule/nlb/client=a2'),
      { protocol: 'icmp', fromPort: 3, toPort: 4, source: cidr('172.16.0.0/12'), description: 'kubernetes.io/rule/nlb/mtu' },
    ];
    expect(planMtuRules(rules)).toEqual({
      grant: [{ protocol: 'icmp', fromPort: 3, toPort: 4, source: cidr('10.0.0.0/8'), description: 'kubernetes.io/rule/nlb/mtu' }],
      revoke: [{ protocol: 'icmp', fromPort: 3, toPort: 4, source: cidr('172.16.0.0/12'), description: 'kubernetes.io/rule/nlb/mtu' }],
    });
  });
});

describe('planNetworkNodeRules', () => {
  const group = (groupId: string, rules: IngressRule[] = []): Ec2SecurityGroup => ({ groupId, groupName: groupId, ingress: toPermissions(rules), tags: {} });
  const input = { loadBalancerName: 'a1', mappings: [mapping(30080)], clientCidrs: ['10.0.0.0/8'], subnetCidrs: ['10.0.1.0/24'] };

  it('grants client, health and MTU rules on node groups and removes them elsewhere', () => {
    const stale = group('sg-old', [
      portRule('tcp', 30080, cidr('10.0.0.0/8'), 'kubernetes.io/rule/nlb/client=a1'),
      { protocol: 'icmp', fromPort: 3, toPort: 4, source: cidr('10.0.0.0/8'), description: 'kubernetes.io/rule/nlb/mtu' },
      portRule('tcp', 22, cidr('0.0.0.0/0'), 'ssh'),
    ]);
    const plans = planNetworkNodeRules([group('sg-node'), stale, group('sg-untouched')], new Set(['sg-node']), input);
    expect(plans.get('sg-node')?.grant).toEqual([
      portRule('tcp', 30080, cidr('10.0.1.0/24'), 'kubernetes.io/rule/nlb/health=a1'),
      portRule('tcp', 30080, cidr('10.0.0.0/8'), 'kubernetes.io/rule/nlb/client=a1'),
      { protocol: 'icmp', fromPort: 3, toPort: 4, source: cidr('10.0.0.0/8'), description: 'kubernetes.io/rule/nlb/mtu' },
    ]);
    expect(plans.get('sg-old')).toEqual({
      grant: [],
      revoke: [
        portRule('tcp', 30080, cidr('10.0.0.0/8'), 'kubernetes.io/rule/nlb/client=a1'),
        { protocol: 'icmp', fromPort: 3, toPort: 4, source: cidr('10.0.0.0/8'), description: 'kubernetes.io/rule/nlb/mtu' },
      ],
    });
    expect(plans.has('sg-untouched')).toBe(false);
  });

  it('keeps the shared MTU rule while another NLB still has the client CIDR', () => {
    const shared = group('sg-node', [
      portRule('tcp', 30080, cidr('10.0.0.0/8'), 'kubernetes.io/rule/nlb/client=a1'),
      portRule('tcp', 30090, cidr('10.0.0.0/8'), 'kubernetes.io/rule/nlb/client=other'),
      { protocol: 'icmp', fromPort: 3, toPort: 4, source: cidr('10.0.0.0/8'), description: 'kubernetes.io/rule/nlb/mtu' },
    ]);
    expect(planNetworkNodeRules([shared], new Set(), input).get('sg-node')).toEqual({ grant: [], revoke: [portRule('tcp', 30080, cidr('10.0.0.0/8'), 'kubernetes.io/rule/nlb/client=a1')] });
  });

  it('is a no-op when everything is in place', () => {
    const ready = group('sg-node', [
      portRule('tcp', 30080, cidr('10.0.1.0/24'), 'kubernetes.io/rule/nlb/health=a1'),
      portRule('tcp', 30080, cidr('10.0.0.0/8'), 'kubernetes.io/rule/nlb/client=a1'),
      { protocol: 'icmp', fromPort: 3, toPort: 4, source: cidr('10.0.0.0/8'), description: 'kubernetes.io/rule/nlb/mtu' },
    ]);
    expect(planNetworkNodeRules([ready], new Set(['sg-node']), input).size).toBe(0);
  });
});
