/**
 * `[LoadBalancer] manage-security-groups` over the in-memory Neutron security groups (the fake
 * refuses what Neutron refuses: duplicate rules, groups on ports without port security, deleting
 * a group still in use). The same flows run against the real Neutron in
 * `load-balancer-sdk.integration.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { CLUSTER, createHarness, makeNode, makeService, NODE_SUBNET } from './support/load-balancer-harness.js';

const GROUP = 'lb-sg-uid-1-default-web';

const groupNamed = (harness: ReturnType<typeof createHarness>, name: string) => [...harness.securityGroups.groups.values()].find((group) => group.name === name);
const groupsOfPort = (harness: ReturnType<typeof createHarness>, portId: string) => harness.securityGroups.ports.get(portId)!.securityGroupIds;
const ingressRules = (harness: ReturnType<typeof createHarness>, groupId: string) =>
  harness.securityGroups
    .rulesOf(groupId)
    .map((rule) => `${rule.direction} ${rule.etherType} ${rule.protocol ?? 'any'} ${rule.portRangeMin ?? ''} from ${rule.remoteIpPrefix ?? 'any'}`)
    .sort();

describe('OpenStack load balancer: manage-security-groups', () => {
  it('creates lb-sg-<uid>-<namespace>-<name> with a rule per node port from the member subnet, attached to the member ports; a second sync changes nothing', async () => {
    const harness = createHarness({ manageSecurityGroups: true });
    const service = makeService({ ports: [{ port: 80, nodePort: 30080 }, { port: 53, nodePort: 30053, protocol: 'UDP' }], externalTrafficPolicy: 'Local', healthCheckNodePort: 32100 });
    await harness.loadBalancers.ensureLoadBalancer(CLUSTER, service, harness.nodes);
    const group = groupNamed(harness, GROUP);
    expect(group).toMatchObject({ description: 'Security Group for default/web Service LoadBalancer in cluster kubernetes' });
    // Neutron's default egress rules are deleted, as upstream does.
    expect(ingressRules(harness, group!.id)).toEqual([`ingress IPv4 tcp 30080 from ${NODE_SUBNET.cidr}`, `ingress IPv4 tcp 32100 from ${NODE_SUBNET.cidr}`, `ingress IPv4 udp 30053 from ${NODE_SUBNET.cidr}`]);
    const defaultGroup = groupNamed(harness, 'default')!.id;
    expect(groupsOfPort(harness, 'node-port-1')).toEqual([defaultGroup, group!.id]);
    expect(groupsOfPort(harness, 'node-port-2')).toEqual([defaultGroup, group!.id]);

    harness.securityGroups.changes.length = 0;
    await harness.loadBalancers.ensureLoadBalancer(CLUSTER, service, harness.nodes);
    expect(harness.securityGroups.changes).toEqual([]);
  });

  it('a new node gets the group on update; a changed node port changes the rules; a removed node keeps it until the Service goes (upstream)', async () => {
    const harness = createHarness({ manageSecurityGroups: true });
    await harness.loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), harness.nodes.slice(0, 1));
    const group = groupNamed(harness, GROUP)!;
    expect(groupsOfPort(harness, 'node-port-2')).not.toContain(group.id);
    await harness.loadBalancers.updateLoadBalancer(CLUSTER, makeService(), harness.nodes);
    expect(groupsOfPort(harness, 'node-port-2')).toContain(group.id);

    harness.securityGroups.changes.length = 0;
    await harness.loadBalancers.updateLoadBalancer(CLUSTER, makeService(), harness.nodes.slice(1));
    expect(harness.securityGroups.changes).toEqual([]);
    expect(groupsOfPort(harness, 'node-port-1')).toContain(group.id);

    await harness.loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ ports: [{ port: 80, nodePort: 30081 }] }), harness.nodes);
    expect(ingressRules(harness, group.id)).toEqual([`ingress IPv4 tcp 30081 from ${NODE_SUBNET.cidr}`]);
  });

  it('skips ports without port security and ports whose address is on another subnet', async () => {
    const harness = createHarness({ manageSecurityGroups: true });
    harness.securityGroups.ports.get('node-port-1')!.portSecurityEnabled = false;
    harness.securityGroups.addPort({ id: 'node-1-storage', deviceId: 'server-node-2', fixedIps: [{ subnetId: 'subnet-storage', address: '10.0.0.12' }], securityGroupIds: [] });
    await harness.loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), harness.nodes);
    const group = groupNamed(harness, GROUP)!;
    expect(groupsOfPort(harness, 'node-port-1')).not.toContain(group.id);
    expect(groupsOfPort(harness, 'node-port-2')).toContain(group.id);
    expect(groupsOfPort(harness, 'node-1-storage')).toEqual([]);
  });

  it('delete detaches the group (keeping the ports\' other groups and removing an older release\'s tag) and deletes it; other groups are never touched', async () => {
    const harness = createHarness({ manageSecurityGroups: true });
    const foreign = harness.securityGroups.addGroup('lb-sg-uid-2-default-other');
    const lookalike = harness.securityGroups.addGroup(`${GROUP}-x`);
    const port2 = harness.securityGroups.ports.get('node-port-2')!;
    port2.securityGroupIds = [...port2.securityGroupIds, foreign.id, lookalike.id];
    const rulesBefore = [...harness.securityGroups.rulesOf(foreign.id), ...harness.securityGroups.rulesOf(lookalike.id)];
    await harness.loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), harness.nodes);
    const group = groupNamed(harness, GROUP)!;
    const port1 = harness.securityGroups.ports.get('node-port-1')!;
    port1.tags = [group.id];

    await harness.loadBalancers.ensureLoadBalancerDeleted(CLUSTER, makeService());
    expect(groupNamed(harness, GROUP)).toBeUndefined();
    const defaultGroup = groupNamed(harness, 'default')!.id;
    expect(groupsOfPort(harness, 'node-port-1')).toEqual([defaultGroup]);
    expect(harness.securityGroups.ports.get('node-port-1')!.tags).toEqual([]);
    expect([...groupsOfPort(harness, 'node-port-2')].sort()).toEqual([defaultGroup, foreign.id, lookalike.id].sort());
    expect([...harness.securityGroups.rulesOf(foreign.id), ...harness.securityGroups.rulesOf(lookalike.id)]).toEqual(rulesBefore);
    expect(harness.securityGroups.changes.filter((change) => change.includes(foreign.id) && change.startsWith('delete'))).toEqual([]);
    // Gone is gone: a second delete changes nothing.
    harness.securityGroups.changes.length = 0;
    await harness.loadBalancers.ensureLoadBalancerDeleted(CLUSTER, makeService());
    expect(harness.securityGroups.changes).toEqual([]);
  });

  it('with the setting off, a group made while it was on is detached and deleted at the next ensure (upstream); nothing is created', async () => {
    const on = createHarness({ manageSecurityGroups: true });
    await on.loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), on.nodes);
    expect(groupNamed(on, GROUP)).toBeDefined();
    const off = createHarness();
    // The same Neutron: the groups and ports of the first harness.
    Object.assign(off.securityGroups, { groups: on.securityGroups.groups, rules: on.securityGroups.rules, ports: on.securityGroups.ports });
    await off.loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), off.nodes);
    expect(groupNamed(off, GROUP)).toBeUndefined();
    expect(groupsOfPort(off, 'node-port-1')).toEqual([groupNamed(off, 'default')!.id]);

    const never = createHarness();
    await never.loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), never.nodes);
    expect(never.securityGroups.changes).toEqual([]);
  });

  it('the OVN provider opens the node ports to the source ranges (default every IPv4 address)', async () => {
    const harness = createHarness({ manageSecurityGroups: true, provider: 'ovn' });
    await harness.loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), [makeNode('node-1', '10.0.0.11')]);
    expect(ingressRules(harness, groupNamed(harness, GROUP)!.id)).toEqual(['ingress IPv4 tcp 30080 from 0.0.0.0/0']);
    await harness.loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ loadBalancerSourceRanges: ['192.0.2.0/24', '198.51.100.0/24'] }), [makeNode('node-1', '10.0.0.11')]);
    expect(ingressRules(harness, groupNamed(harness, GROUP)!.id)).toEqual(['ingress IPv4 tcp 30080 from 192.0.2.0/24', 'ingress IPv4 tcp 30080 from 198.51.100.0/24']);
  });
});
