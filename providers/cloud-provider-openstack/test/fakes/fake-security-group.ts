/**
 * In-memory Neutron security groups and node ports behind the provider's `SecurityGroupPort`,
 * refusing what Neutron refuses: a name over 255, a port range upside down and security groups on a
 * port without port security (400, Neutron's `PortSecurityAndIPRequiredForSecurityGroups`), a
 * duplicate rule and deleting a group still attached (409), unknown groups, rules, ports and tags
 * (404). A new group gets Neutron's two default egress rules. Every changing call is recorded in `changes`.
 */
import type { NeutronSecurityGroup, NeutronSecurityGroupRule, NodeNeutronPort, SecurityGroupPort, SecurityGroupRuleSpec } from '../../src/ports/security-group-port.js';
import { sameRule } from '../../src/operations/load-balancer/security-group-planner.js';
import { fakeError, MAX_NAME_LENGTH } from './fake-errors.js';

export class FakeSecurityGroup implements SecurityGroupPort {
  readonly groups = new Map<string, NeutronSecurityGroup>();
  readonly rules = new Map<string, NeutronSecurityGroupRule>();
  readonly ports = new Map<string, NodeNeutronPort>();
  readonly changes: string[] = [];
  #next = 1;

  addGroup(name: string, description = ''): NeutronSecurityGroup {
    const group = { id: `sg-${this.#next++}`, name, description };
    this.groups.set(group.id, group);
    for (const etherType of ['IPv4', 'IPv6'] as const) {
      const rule: NeutronSecurityGroupRule = { id: `rule-${this.#next++}`, securityGroupId: group.id, direction: 'egress', protocol: undefined, etherType, remoteIpPrefix: undefined, portRangeMin: undefined, portRangeMax: undefined };
      this.rules.set(rule.id, rule);
    }
    return group;
  }

  addPort(port: Omit<NodeNeutronPort, 'tags' | 'portSecurityEnabled'> & Partial<Pick<NodeNeutronPort, 'tags' | 'portSecurityEnabled'>>): void {
    this.ports.set(port.id, { tags: [], portSecurityEnabled: true, ...port });
  }

  rulesOf(groupId: string): NeutronSecurityGroupRule[] {
    return [...this.rules.values()].filter((rule) => rule.securityGroupId === groupId);
  }

  async findSecurityGroupsByName(name: string): Promise<NeutronSecurityGroup[]> {
    return [...this.groups.values()].filter((group) => group.name === name).map((group) => ({ ...group }));
  }

  async createSecurityGroup(spec: { name: string; description: string }): Promise<NeutronSecurityGroup> {
    this.changes.push(`createSecurityGroup ${spec.name}`);
    if (spec.name.length > MAX_NAME_LENGTH) throw fakeError('Invalid', 'network.createSecurityGroup');
    return { ...this.addGroup(spec.name, spec.description) };
  }

  async deleteSecurityGroup(id: string): Promise<void> {
    this.changes.push(`deleteSecurityGroup ${id}`);
    if (!this.groups.has(id)) throw fakeError('NotFound', 'network.deleteSecurityGroup');
    if ([...this.ports.values()].some((port) => port.securityGroupIds.includes(id))) throw fakeError('Conflict', 'network.deleteSecurityGroup');
    this.groups.delete(id);
    for (const rule of this.rulesOf(id)) this.rules.delete(rule.id);
  }

  async listRules(securityGroupId: string): Promise<NeutronSecurityGroupRule[]> {
    return this.rulesOf(securityGroupId).map((rule) => ({ ...rule }));
  }

  async createRule(securityGroupId: string, spec: SecurityGroupRuleSpec): Promise<NeutronSecurityGroupRule> {
    this.changes.push(`createRule ${spec.protocol}/${spec.portRangeMin} from ${spec.remoteIpPrefix}`);
    if (spec.portRangeMin !== undefined && spec.portRangeMax !== undefined && spec.portRangeMin > spec.portRangeMax) throw fakeError('Invalid', 'network.createSecurityGroupRule');
    if (!this.groups.has(securityGroupId)) throw fakeError('NotFound', 'network.createSecurityGroupRule');
    if (this.rulesOf(securityGroupId).some((rule) => sameRule(rule, spec))) throw fakeError('Conflict', 'network.createSecurityGroupRule');
    const rule = { ...spec, id: `rule-${this.#next++}`, securityGroupId };
    this.rules.set(rule.id, rule);
    return { ...rule };
  }

  async deleteRule(id: string): Promise<void> {
    this.changes.push(`deleteRule ${id}`);
    if (!this.rules.delete(id)) throw fakeError('NotFound', 'network.deleteSecurityGroupRule');
  }

  async portsOfDevice(deviceId: string): Promise<NodeNeutronPort[]> {
    return [...this.ports.values()].filter((port) => port.deviceId === deviceId).map((port) => ({ ...port }));
  }

  async portsWithSecurityGroup(securityGroupId: string): Promise<NodeNeutronPort[]> {
    return [...this.ports.values()].filter((port) => port.securityGroupIds.includes(securityGroupId)).map((port) => ({ ...port }));
  }

  async setPortSecurityGroups(portId: string, securityGroupIds: readonly string[]): Promise<void> {
    this.changes.push(`setPortSecurityGroups ${portId} [${securityGroupIds.join(',')}]`);
    const port = this.ports.get(portId);
    if (port === undefined) throw fakeError('NotFound', 'network.updatePort');
    if (!port.portSecurityEnabled && securityGroupIds.length > 0) throw fakeError('Invalid', 'network.updatePort');
    if (securityGroupIds.some((id) => !this.groups.has(id))) throw fakeError('NotFound', 'network.updatePort');
    this.ports.set(portId, { ...port, securityGroupIds: [...securityGroupIds] });
  }

  async removePortTag(portId: string, tag: string): Promise<void> {
    this.changes.push(`removePortTag ${portId} ${tag}`);
    const port = this.ports.get(portId);
    if (port === undefined || !port.tags.includes(tag)) throw fakeError('NotFound', 'network.deletePortTag');
    this.ports.set(portId, { ...port, tags: port.tags.filter((candidate) => candidate !== tag) });
  }
}
