import type { V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { NeutronSecurityGroupRule, NodeNeutronPort, SecurityGroupRuleSpec } from '../../ports/security-group-port.js';
import { desiredSecurityGroupRules, detachment, planSecurityGroupRules, portsToAttach, securityGroupDescription, securityGroupName } from './security-group-planner.js';

function service(spec: Partial<NonNullable<V1Service['spec']>> = {}, name = 'web'): V1Service {
  return { metadata: { name, namespace: 'shop', uid: '5f1c' }, spec: { type: 'LoadBalancer', ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }], ...spec } };
}

const tcp = (port: number, from: string, etherType: 'IPv4' | 'IPv6' = 'IPv4', protocol = 'tcp'): SecurityGroupRuleSpec => ({ direction: 'ingress', protocol, etherType, remoteIpPrefix: from, portRangeMin: port, portRangeMax: port });
const observed = (id: string, rule: SecurityGroupRuleSpec): NeutronSecurityGroupRule => ({ ...rule, id, securityGroupId: 'sg' });

describe('securityGroupName, securityGroupDescription', () => {
  it('are upstream\'s lb-sg-<uid>-<namespace>-<name> (cut to 255) and its description', () => {
    expect(securityGroupName(service())).toBe('lb-sg-5f1c-shop-web');
    expect(securityGroupName(service({}, 'n'.repeat(300)))).toHaveLength(255);
    expect(securityGroupDescription('prod', { namespace: 'shop', name: 'web' })).toBe('Security Group for shop/web Service LoadBalancer in cluster prod');
  });
});

describe('desiredSecurityGroupRules', () => {
  it.each<[string, V1Service, { memberSubnetCidr: string; ovnSourceRanges: string[] | undefined }, SecurityGroupRuleSpec[]]>([
    ['one rule per node port, lower-case protocol, from the member subnet', service({ ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }, { port: 53, nodePort: 30053, protocol: 'UDP' }] }), { memberSubnetCidr: '10.0.0.0/24', ovnSourceRanges: undefined }, [tcp(30080, '10.0.0.0/24'), tcp(30053, '10.0.0.0/24', 'IPv4', 'udp')]],
    ['the healthCheckNodePort first, TCP from the member subnet', service({ healthCheckNodePort: 32100 }), { memberSubnetCidr: '10.0.0.0/24', ovnSourceRanges: undefined }, [tcp(32100, '10.0.0.0/24'), tcp(30080, '10.0.0.0/24')]],
    ['no rule for node port 0 (allocateLoadBalancerNodePorts: false)', service({ ports: [{ port: 80, nodePort: 0, protocol: 'TCP' }] }), { memberSubnetCidr: '10.0.0.0/24', ovnSourceRanges: undefined }, []],
    ['IPv6 member subnet: IPv6 rules', service(), { memberSubnetCidr: 'fd00::/64', ovnSourceRanges: undefined }, [tcp(30080, 'fd00::/64', 'IPv6')]],
    ['OVN: node ports from every source range, the health check from the subnet', service({ healthCheckNodePort: 32100 }), { memberSubnetCidr: '10.0.0.0/24', ovnSourceRanges: ['192.0.2.0/24', '198.51.100.0/24'] }, [tcp(32100, '10.0.0.0/24'), tcp(30080, '192.0.2.0/24'), tcp(30080, '198.51.100.0/24')]],
  ])('%s', (_, input, inputs, expected) => {
    expect(desiredSecurityGroupRules(input, inputs)).toEqual(expected);
  });
});

describe('planSecurityGroupRules', () => {
  it.each<[string, SecurityGroupRuleSpec[], NeutronSecurityGroupRule[], { create: SecurityGroupRuleSpec[]; delete: string[] }]>([
    ['a new group: every rule created, Neutron\'s default egress rules deleted (as upstream)', [tcp(30080, '10.0.0.0/24')], [observed('e4', { direction: 'egress', protocol: undefined, etherType: 'IPv4', remoteIpPrefix: undefined, portRangeMin: undefined, portRangeMax: undefined })], { create: [tcp(30080, '10.0.0.0/24')], delete: ['e4'] }],
    ['nothing to do when equal; the protocol compared in any case', [tcp(30080, '10.0.0.0/24')], [observed('r1', { ...tcp(30080, '10.0.0.0/24'), protocol: 'TCP' })], { create: [], delete: [] }],
    ['a changed node port: the old rule deleted, the new created', [tcp(30081, '10.0.0.0/24')], [observed('r1', tcp(30080, '10.0.0.0/24'))], { create: [tcp(30081, '10.0.0.0/24')], delete: ['r1'] }],
    ['a changed source: another rule', [tcp(30080, '10.0.1.0/24')], [observed('r1', tcp(30080, '10.0.0.0/24'))], { create: [tcp(30080, '10.0.1.0/24')], delete: ['r1'] }],
    ['a rule wanted twice is created once', [tcp(30080, '10.0.0.0/24'), tcp(30080, '10.0.0.0/24')], [], { create: [tcp(30080, '10.0.0.0/24')], delete: [] }],
  ])('%s', (_, wanted, existing, expected) => {
    const plan = planSecurityGroupRules(wanted, existing);
    expect({ create: plan.create, delete: plan.delete.map((rule) => rule.id) }).toEqual(expected);
  });
});

const nodePort = (id: string, address: string, extra: Partial<NodeNeutronPort> = {}): NodeNeutronPort => ({ id, deviceId: 'server', fixedIps: [{ subnetId: 'subnet-nodes', address }], securityGroupIds: ['default'], portSecurityEnabled: true, tags: [], ...extra });

describe('portsToAttach', () => {
  it.each<[string, NodeNeutronPort[], string[]]>([
    ['the port holding the member address on the member subnet', [nodePort('p1', '10.0.0.11'), nodePort('p2', '10.9.0.11')], ['p1']],
    ['not one whose address is on another subnet', [nodePort('p1', '10.0.0.11', { fixedIps: [{ subnetId: 'subnet-other', address: '10.0.0.11' }] })], []],
    ['not one without port security (Neutron refuses groups there)', [nodePort('p1', '10.0.0.11', { portSecurityEnabled: false })], []],
    ['not one that has the group already', [nodePort('p1', '10.0.0.11', { securityGroupIds: ['default', 'sg'] })], []],
  ])('%s', (_, ports, expected) => {
    expect(portsToAttach('10.0.0.11', ports, 'sg', 'subnet-nodes').map((port) => port.id)).toEqual(expected);
  });
});

describe('detachment', () => {
  it('keeps the other groups (sorted, de-duplicated) and removes the tag an older release put', () => {
    expect(detachment(nodePort('p', '10.0.0.11', { securityGroupIds: ['z', 'sg', 'a', 'a'], tags: ['sg', 'other'] }), 'sg')).toEqual({ securityGroupIds: ['a', 'z'], removeTag: true });
    expect(detachment(nodePort('p', '10.0.0.11', { securityGroupIds: ['sg'] }), 'sg')).toEqual({ securityGroupIds: [], removeTag: false });
  });
});
