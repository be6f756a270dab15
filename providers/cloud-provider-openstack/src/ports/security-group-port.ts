/**
 * The Neutron calls of `[LoadBalancer] manage-security-groups` (upstream `loadbalancer_sg.go`):
 * the Service's security group and its rules, and the security groups of the nodes' ports, in
 * the provider's own types. Failures are the provider's typed API errors (see `errors.ts`). The
 * adapter is `sdk/sdk-security-group-port.ts`; the fake `test/fakes/fake-security-group.ts`.
 */
import type { CallOptions } from '@ccm/core/cloud';

export interface NeutronSecurityGroup {
  id: string;
  name: string;
  description: string;
}

export type EtherType = 'IPv4' | 'IPv6';

/** What a rule allows: the fields upstream compares (`compareSecurityGroupRuleAndCreateOpts`). */
export interface SecurityGroupRuleSpec {
  direction: 'ingress' | 'egress';
  /** Lower case (`tcp`, `udp`, `sctp`); undefined: any protocol. */
  protocol: string | undefined;
  etherType: EtherType;
  remoteIpPrefix: string | undefined;
  portRangeMin: number | undefined;
  portRangeMax: number | undefined;
}

export interface NeutronSecurityGroupRule extends SecurityGroupRuleSpec {
  id: string;
  securityGroupId: string;
}

/** A port of a node as the security group attachment sees it. */
export interface NodeNeutronPort {
  id: string;
  deviceId: string;
  fixedIps: ReadonlyArray<{ subnetId: string; address: string }>;
  securityGroupIds: readonly string[];
  /** False: Neutron refuses security groups on the port (upstream skips it). */
  portSecurityEnabled: boolean;
  tags: readonly string[];
}

export interface SecurityGroupPort {
  /** Security groups with exactly this name (`GET /security-groups?name=`). */
  findSecurityGroupsByName(name: string, options?: CallOptions): Promise<NeutronSecurityGroup[]>;
  createSecurityGroup(spec: { name: string; description: string }, options?: CallOptions): Promise<NeutronSecurityGroup>;
  deleteSecurityGroup(id: string, options?: CallOptions): Promise<void>;
  listRules(securityGroupId: string, options?: CallOptions): Promise<NeutronSecurityGroupRule[]>;
  createRule(securityGroupId: string, rule: SecurityGroupRuleSpec, options?: CallOptions): Promise<NeutronSecurityGroupRule>;
  deleteRule(id: string, options?: CallOptions): Promise<void>;
  /** The ports of a server (`device_id`). */
  portsOfDevice(deviceId: string, options?: CallOptions): Promise<NodeNeutronPort[]>;
  /** The ports the security group is attached to (`security_groups=<id>`). */
  portsWithSecurityGroup(securityGroupId: string, options?: CallOptions): Promise<NodeNeutronPort[]>;
  /** Replaces the security groups of a port. */
  setPortSecurityGroups(portId: string, securityGroupIds: readonly string[], options?: CallOptions): Promise<void>;
  /** `DELETE /ports/{id}/tags/{tag}` (older upstream releases tagged ports with the group ID). */
  removePortTag(portId: string, tag: string, options?: CallOptions): Promise<void>;
}
