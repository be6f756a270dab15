/**
 * One contract for the SecurityGroupPort (`manage-security-groups`), run on the in-memory fake
 * (test/fakes/fake-security-group.ts) and on the production adapter (sdk-security-group-port.ts)
 * against the real Neutron of @ccm/openstack-services (issue 23 point 4), with what Neutron
 * refuses: names over 255, duplicate rules, a port range upside down, unknown groups, rules, ports
 * and tags, groups on a port without port security, deleting a group still attached.
 */
import { expect, it } from 'vitest';
import type { NodeNeutronPort, SecurityGroupPort, SecurityGroupRuleSpec } from '../../src/ports/security-group-port.js';
import { NAME_OVER_255, refusalKind, UNKNOWN_UUID } from './refusal-kind.js';

export interface SecurityGroupPortContractFixture {
  port: SecurityGroupPort;
  /** A node port owned by `deviceId` (with the side's default groups, if any). */
  createNodePort(deviceId: string, options?: { portSecurityEnabled?: boolean; tags?: string[] }): Promise<NodeNeutronPort>;
  /** Unique per run. */
  prefix: string;
}

const NODE_PORT_RULE: SecurityGroupRuleSpec = { direction: 'ingress', protocol: 'tcp', etherType: 'IPv4', remoteIpPrefix: '10.0.0.0/8', portRangeMin: 30080, portRangeMax: 30080 };

export function describeSecurityGroupPortContract(fixture: () => SecurityGroupPortContractFixture): void {
  it('creates a group with the two default egress rules, finds it by exact name only, deletes it; refuses a name over 255 (Invalid) and an unknown group (NotFound)', async () => {
    const side = fixture();
    const name = `${side.prefix}-group`;
    const group = await side.port.createSecurityGroup({ name, description: 'contract' });
    expect(group).toMatchObject({ name, description: 'contract' });
    expect((await side.port.listRules(group.id)).map((rule) => [rule.direction, rule.etherType, rule.protocol, rule.remoteIpPrefix, rule.portRangeMin]).sort()).toEqual([
      ['egress', 'IPv4', undefined, undefined, undefined],
      ['egress', 'IPv6', undefined, undefined, undefined],
    ]);
    expect(await side.port.findSecurityGroupsByName(name)).toEqual([group]);
    expect(await side.port.findSecurityGroupsByName(`${name}-x`)).toEqual([]);
    expect(await refusalKind(side.port.createSecurityGroup({ name: NAME_OVER_255, description: '' }))).toBe('Invalid');
    await side.port.deleteSecurityGroup(group.id);
    expect(await side.port.findSecurityGroupsByName(name)).toEqual([]);
    expect(await refusalKind(side.port.deleteSecurityGroup(group.id))).toBe('NotFound');
  });

  it('creates and deletes rules; refuses a duplicate (Conflict), a port range upside down (Invalid), an unknown group (NotFound) and an unknown rule (NotFound)', async () => {
    const side = fixture();
    const group = await side.port.createSecurityGroup({ name: `${side.prefix}-rules`, description: '' });
    const rule = await side.port.createRule(group.id, NODE_PORT_RULE);
    expect(rule).toEqual({ ...NODE_PORT_RULE, id: rule.id, securityGroupId: group.id });
    expect(await side.port.listRules(group.id)).toContainEqual(rule);
    expect(await refusalKind(side.port.createRule(group.id, NODE_PORT_RULE))).toBe('Conflict');
    expect(await refusalKind(side.port.createRule(group.id, { ...NODE_PORT_RULE, portRangeMin: 30090, portRangeMax: 30080 }))).toBe('Invalid');
    expect(await refusalKind(side.port.createRule(UNKNOWN_UUID, NODE_PORT_RULE))).toBe('NotFound');
    await side.port.deleteRule(rule.id);
    expect(await side.port.listRules(group.id)).not.toContainEqual(rule);
    expect(await refusalKind(side.port.deleteRule(rule.id))).toBe('NotFound');
    await side.port.deleteSecurityGroup(group.id);
  });

  it('attaches groups to a node port and finds the port by group; refuses an unknown port or group (NotFound), groups on a port without port security, and deleting an attached group (Conflict)', async () => {
    const side = fixture();
    const device = `${side.prefix}-node`;
    const node = await side.createNodePort(device);
    const group = await side.port.createSecurityGroup({ name: `${side.prefix}-attach`, description: '' });
    await side.port.setPortSecurityGroups(node.id, [...node.securityGroupIds, group.id]);
    expect((await side.port.portsOfDevice(device)).map((port) => [port.id, [...port.securityGroupIds].sort()])).toEqual([[node.id, [...node.securityGroupIds, group.id].sort()]]);
    expect((await side.port.portsWithSecurityGroup(group.id)).map((port) => port.id)).toEqual([node.id]);
    expect(await refusalKind(side.port.deleteSecurityGroup(group.id))).toBe('Conflict');
    expect(await refusalKind(side.port.setPortSecurityGroups(UNKNOWN_UUID, [group.id]))).toBe('NotFound');
    expect(await refusalKind(side.port.setPortSecurityGroups(node.id, [UNKNOWN_UUID]))).toBe('NotFound');
    const open = await side.createNodePort(`${side.prefix}-open`, { portSecurityEnabled: false });
    expect([open.portSecurityEnabled, open.securityGroupIds]).toEqual([false, []]);
    expect(await refusalKind(side.port.setPortSecurityGroups(open.id, [group.id]))).toBe('Invalid');
    await side.port.setPortSecurityGroups(node.id, node.securityGroupIds);
    expect(await side.port.portsWithSecurityGroup(group.id)).toEqual([]);
    await side.port.deleteSecurityGroup(group.id);
  });

  it('removes a tag of a port; a tag the port lacks is NotFound', async () => {
    const side = fixture();
    const tag = `${side.prefix}-tag`;
    const node = await side.createNodePort(`${side.prefix}-tagged`, { tags: [tag] });
    expect(node.tags).toEqual([tag]);
    await side.port.removePortTag(node.id, tag);
    expect((await side.port.portsOfDevice(`${side.prefix}-tagged`))[0]!.tags).toEqual([]);
    expect(await refusalKind(side.port.removePortTag(node.id, tag))).toBe('NotFound');
  });
}
