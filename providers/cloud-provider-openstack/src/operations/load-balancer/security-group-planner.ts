/**
 * `[LoadBalancer] manage-security-groups` as pure plans (upstream `loadbalancer_sg.go`): the
 * Service's security group name and description, the rules it should hold, the rule diff, which
 * node ports get the group and what a port keeps when it is detached. Table-tested; the Neutron
 * calls are in `load-balancer-security-group.ts`.
 */
import type { V1Service } from '@kubernetes/client-node';
import type { EtherType, NeutronSecurityGroupRule, NodeNeutronPort, SecurityGroupRuleSpec } from '../../ports/security-group-port.js';
import { cutTo255, type ServiceIdentity } from './load-balancer-names.js';

/** `lb-sg-<uid>-<namespace>-<name>`, cut to 255 (upstream `getSecurityGroupName`). */
export function securityGroupName(service: V1Service): string {
  return cutTo255(`lb-sg-${service.metadata?.uid ?? ''}-${service.metadata?.namespace ?? ''}-${service.metadata?.name ?? ''}`);
}

/** Upstream's description of the group it creates. */
export function securityGroupDescription(clusterName: string, service: ServiceIdentity): string {
  return `Security Group for ${service.namespace}/${service.name} Service LoadBalancer in cluster ${clusterName}`;
}

export interface SecurityGroupRuleInputs {
  /** CIDR of the members' subnet (the VIP subnet unless `member-subnet-id`): where the load balancer connects from. */
  memberSubnetCidr: string;
  /**
   * The OVN provider keeps the clients' source address, so node ports are opened to the Service's
   * source ranges (default every address of the family) instead of the subnet (upstream).
   */
  ovnSourceRanges: readonly string[] | undefined;
}

const etherTypeOf = (cidr: string): EtherType => (cidr.includes(':') ? 'IPv6' : 'IPv4');

const ingress = (protocol: string, etherType: EtherType, remoteIpPrefix: string, port: number): SecurityGroupRuleSpec => ({
  direction: 'ingress',
  protocol,
  etherType,
  remoteIpPrefix,
  portRangeMin: port,
  portRangeMax: port,
});

/**
 * The rules the group should hold (upstream `ensureAndUpdateOctaviaSecurityGroup`): TCP to the
 * `healthCheckNodePort` from the member subnet when the Service has one; each node port (none
 * when it is 0, `allocateLoadBalancerNodePorts: false`) in its protocol from every source. The
 * ether type is the member subnet's.
 */
export function desiredSecurityGroupRules(service: V1Service, inputs: SecurityGroupRuleInputs): SecurityGroupRuleSpec[] {
  const etherType = etherTypeOf(inputs.memberSubnetCidr);
  const sources = inputs.ovnSourceRanges ?? [inputs.memberSubnetCidr];
  const rules: SecurityGroupRuleSpec[] = [];
  const healthCheckNodePort = service.spec?.healthCheckNodePort ?? 0;
  if (healthCheckNodePort !== 0) rules.push(ingress('tcp', etherType, inputs.memberSubnetCidr, healthCheckNodePort));
  for (const port of service.spec?.ports ?? []) {
    const nodePort = port.nodePort ?? 0;
    if (nodePort === 0) continue;
    for (const source of sources) rules.push(ingress((port.protocol ?? 'TCP').toLowerCase(), etherType, source, nodePort));
  }
  return rules;
}

/** Upstream `compareSecurityGroupRuleAndCreateOpts`: direction, protocol (any case), ether type, remote prefix, port range. */
export function sameRule(observed: SecurityGroupRuleSpec, wanted: SecurityGroupRuleSpec): boolean {
  return (
    observed.direction === wanted.direction &&
    (observed.protocol ?? '').toLowerCase() === (wanted.protocol ?? '').toLowerCase() &&
    observed.etherType === wanted.etherType &&
    (observed.remoteIpPrefix ?? '') === (wanted.remoteIpPrefix ?? '') &&
    (observed.portRangeMin ?? 0) === (wanted.portRangeMin ?? 0) &&
    (observed.portRangeMax ?? 0) === (wanted.portRangeMax ?? 0)
  );
}

/**
 * Rules to create and to delete (upstream `getRulesToCreateAndDelete`). Every rule of the group
 * that is not wanted is deleted, Neutron's default egress rules included, as upstream does.
 */
export function planSecurityGroupRules(
  wanted: readonly SecurityGroupRuleSpec[],
  observed: readonly NeutronSecurityGroupRule[],
): { create: SecurityGroupRuleSpec[]; delete: NeutronSecurityGroupRule[] } {
  const create: SecurityGroupRuleSpec[] = [];
  for (const rule of wanted) {
    if (!observed.some((existing) => sameRule(existing, rule)) && !create.some((planned) => sameRule(planned, rule))) create.push(rule);
  }
  return { create, delete: observed.filter((existing) => !wanted.some((rule) => sameRule(existing, rule))) };
}

/**
 * The node's ports that get the group (upstream `applyNodeSecurityGroupIDForLB`): ports with port
 * security that hold the node's member address (on the member subnet, when one is configured)
 * and lack the group.
 */
export function portsToAttach(memberAddress: string, ports: readonly NodeNeutronPort[], securityGroupId: string, memberSubnetId: string | undefined): NodeNeutronPort[] {
  return ports.filter(
    (port) =>
      port.portSecurityEnabled &&
      !port.securityGroupIds.includes(securityGroupId) &&
      port.fixedIps.some((fixed) => fixed.address === memberAddress && (memberSubnetId === undefined || fixed.subnetId === memberSubnetId)),
  );
}

/**
 * What a port keeps when the group is detached (upstream `disassociateSecurityGroupForLB`): the
 * other groups, de-duplicated and sorted (Go's `sets.String.List()`), and whether the group's ID
 * must also go from its tags (older releases tagged the ports).
 */
export function detachment(port: NodeNeutronPort, securityGroupId: string): { securityGroupIds: string[]; removeTag: boolean } {
  const securityGroupIds = [...new Set(port.securityGroupIds.filter((id) => id !== securityGroupId))].sort();
  return { securityGroupIds, removeTag: port.tags.includes(securityGroupId) };
}
