import { describe, expect, it } from 'vitest';
import type { Ec2IpPermission } from '../../ports/ec2-port.js';
import { applyRulePlan, planExactIngress, planMarkedIngress, portRule, ruleKey, toPermissions, ungroupPermissions, type IngressRule } from './ingress-rules.js';

const cidr = (value: string) => ({ kind: 'ipv4' as const, value });

describe('ingress rules', () => {
  it('ungroups permissions into single-source rules and back', () => {
    const permissions: Ec2IpPermission[] = [
      { protocol: 'tcp', fromPort: 80, toPort: 80, ipv4Ranges: [{ cidr: '10.0.0.0/8', description: 'a' }, { cidr: '0.0.0.0/0' }], ipv6Ranges: [{ cidr: '::/0' }], groupPairs: [] },
      { protocol: '-1', fromPort: -1, toPort: -1, ipv4Ranges: [], ipv6Ranges: [], groupPairs: [{ groupId: 'sg-lb' }] },
    ];
    const rules = ungroupPermissions(permissions);
    expect(rules).toEqual([
      { protocol: 'tcp', fromPort: 80, toPort: 80, source: cidr('10.0.0.0/8'), description: 'a' },
      { protocol: 'tcp', fromPort: 80, toPort: 80, source: cidr('0.0.0.0/0') },
      { protocol: 'tcp', fromPort: 80, toPort: 80, source: { kind: 'ipv6', value: '::/0' } },
      { protocol: '-1', source: { kind: 'group', value: 'sg-lb' } },
    ]);
    expect(ungroupPermissions(toPermissions(rules))).toEqual(rules);
  });

  it('identifies rules without their description', () => {
    expect(ruleKey(portRule('tcp', 80, cidr('10.0.0.0/8'), 'x'))).toBe(ruleKey(portRule('TCP', 80, cidr('10.0.0.0/8'))));
    expect(ruleKey({ protocol: 'all', source: { kind: 'group', value: 'sg' } })).toBe(ruleKey({ protocol: '-1', fromPort: 0, toPort: 65535, source: { kind: 'group', value: 'sg' } }));
    expect(ruleKey(portRule('tcp', 80, cidr('10.0.0.0/8')))).not.toBe(ruleKey(portRule('udp', 80, cidr('10.0.0.0/8'))));
  });

  it('plans an exact rule set', () => {
    const actual = [portRule('tcp', 80, cidr('0.0.0.0/0')), portRule('tcp', 22, cidr('0.0.0.0/0'))];
    const desired = [portRule('tcp', 80, cidr('0.0.0.0/0')), portRule('tcp', 443, cidr('0.0.0.0/0')), portRule('tcp', 443, cidr('0.0.0.0/0'))];
    expect(planExactIngress(actual, desired)).toEqual({ grant: [portRule('tcp', 443, cidr('0.0.0.0/0'))], revoke: [portRule('tcp', 22, cidr('0.0.0.0/0'))] });
  });

  it('only revokes rules marked with the description', () => {
    const mine = 'kubernetes.io/rule/nlb/client=a1';
    const actual: IngressRule[] = [
      portRule('tcp', 30080, cidr('0.0.0.0/0'), mine),
      portRule('tcp', 30081, cidr('0.0.0.0/0'), mine),
      portRule('tcp', 22, cidr('0.0.0.0/0'), 'ssh'),
      portRule('tcp', 30082, cidr('0.0.0.0/0'), 'kubernetes.io/rule/nlb/client=other'),
    ];
    const desired = [portRule('tcp', 30080, cidr('0.0.0.0/0'), mine), portRule('tcp', 30082, cidr('0.0.0.0/0'), mine), portRule('tcp', 30083, cidr('0.0.0.0/0'), mine)];
    const plan = planMarkedIngress(actual, desired, mine);
    expect(plan.revoke).toEqual([portRule('tcp', 30081, cidr('0.0.0.0/0'), mine)]);
    expect(plan.grant).toEqual([portRule('tcp', 30083, cidr('0.0.0.0/0'), mine)]);
    expect(applyRulePlan(actual, plan).map(ruleKey)).toEqual([actual[0], actual[2], actual[3], desired[2]].map((rule) => ruleKey(rule as IngressRule)));
  });
});
