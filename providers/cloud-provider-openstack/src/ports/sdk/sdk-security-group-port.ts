/** The security groups of `manage-security-groups` over openstack-client-ts's Neutron client. */
import type { NeutronClient, Port, SecurityGroup, SecurityGroupRule } from 'openstack-client-ts';
import type { CallOptions } from '@ccm/core/cloud';
import type { NeutronSecurityGroup, NeutronSecurityGroupRule, NodeNeutronPort, SecurityGroupPort } from '../security-group-port.js';
import { callOpenStack } from './sdk-errors.js';

const toGroup = (group: SecurityGroup): NeutronSecurityGroup => ({ id: group.id, name: group.name, description: group.description ?? '' });

const toRule = (rule: SecurityGroupRule): NeutronSecurityGroupRule => ({
  id: rule.id,
  securityGroupId: rule.security_group_id,
  direction: rule.direction,
  protocol: rule.protocol ?? undefined,
  etherType: rule.ethertype,
  remoteIpPrefix: rule.remote_ip_prefix ?? undefined,
  portRangeMin: rule.port_range_min ?? undefined,
  portRangeMax: rule.port_range_max ?? undefined,
});

const toNodePort = (port: Port): NodeNeutronPort => ({
  id: port.id,
  deviceId: port.device_id,
  fixedIps: (port.fixed_ips ?? []).map((fixed) => ({ subnetId: fixed.subnet_id, address: fixed.ip_address })),
  securityGroupIds: port.security_groups ?? [],
  // Neutron without the port-security extension has no field: every port takes security groups.
  portSecurityEnabled: port.port_security_enabled ?? true,
  tags: port.tags ?? [],
});

export function createSdkSecurityGroupPort(neutron: NeutronClient): SecurityGroupPort {
  const signalOf = (options: CallOptions | undefined): AbortSignal | undefined => options?.signal;
  const listOptions = (options: CallOptions | undefined): { signal?: AbortSignal } => (options?.signal === undefined ? {} : { signal: options.signal });
  return {
    findSecurityGroupsByName: (name, options) => callOpenStack('network.listSecurityGroups', async () => (await neutron.securityGroups.list({ name }, listOptions(options))).map(toGroup)),
    createSecurityGroup: (spec, options) => callOpenStack('network.createSecurityGroup', async () => toGroup(await neutron.securityGroups.create({ name: spec.name, description: spec.description }, signalOf(options)))),
    deleteSecurityGroup: (id, options) => callOpenStack('network.deleteSecurityGroup', () => neutron.securityGroups.delete(id, signalOf(options))),
    listRules: (securityGroupId, options) =>
      callOpenStack('network.listSecurityGroupRules', async () => (await neutron.securityGroupRules.list({ security_group_id: securityGroupId }, listOptions(options))).map(toRule)),
    createRule: (securityGroupId, rule, options) =>
      callOpenStack('network.createSecurityGroupRule', async () =>
        toRule(
          await neutron.securityGroupRules.create(
            {
              security_group_id: securityGroupId,
              direction: rule.direction,
              ethertype: rule.etherType,
              ...(rule.protocol === undefined ? {} : { protocol: rule.protocol }),
              ...(rule.remoteIpPrefix === undefined ? {} : { remote_ip_prefix: rule.remoteIpPrefix }),
              ...(rule.portRangeMin === undefined ? {} : { port_range_min: rule.portRangeMin }),
              ...(rule.portRangeMax === undefined ? {} : { port_range_max: rule.portRangeMax }),
            },
            signalOf(options),
          ),
        ),
      ),
    deleteRule: (id, options) => callOpenStack('network.deleteSecurityGroupRule', () => neutron.securityGroupRules.delete(id, signalOf(options))),
    portsOfDevice: (deviceId, options) => callOpenStack('network.listPorts', async () => (await neutron.ports.list({ device_id: deviceId }, listOptions(options))).map(toNodePort)),
    portsWithSecurityGroup: (securityGroupId, options) =>
      callOpenStack('network.listPorts', async () => (await neutron.ports.list({ security_groups: [securityGroupId] }, listOptions(options))).map(toNodePort)),
    setPortSecurityGroups: (portId, securityGroupIds, options) =>
      callOpenStack('network.updatePort', async () => void (await neutron.ports.update(portId, { security_groups: [...securityGroupIds] }, signalOf(options)))),
    removePortTag: (portId, tag, options) =>
      callOpenStack('network.deletePortTag', () => neutron.service.delete(`/v2.0/ports/${encodeURIComponent(portId)}/tags/${encodeURIComponent(tag)}`, undefined, signalOf(options))),
  };
}
