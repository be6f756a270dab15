import { RetryError } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import { InvalidAnnotationError } from '@ccm/core/service-input';
import { NotOwnedError } from '../src/errors.js';
import { ungroupPermissions } from '../src/operations/load-balancer/ingress-rules.js';
import { addNodeInstance, CLUSTER_TAG, createHarness, makeNode, makeService, OFF_AWS_CONFIG, VPC } from './helpers.js';

const P = 'service.beta.kubernetes.io/';
const NAME = 'a1111111122223333444455555555555';

async function withNodes(count: number, configText = OFF_AWS_CONFIG) {
  const harness = await createHarness(configText);
  const nodes = Array.from({ length: count }, () => addNodeInstance(harness.ec2));
  return { ...harness, nodes: nodes.map((entry) => entry.node), instanceIds: nodes.map((entry) => entry.instanceId) };
}

function rulesOf(harness: { ec2: { securityGroups: Map<string, { ingress: never[] }> } }, groupId: string) {
  return ungroupPermissions(harness.ec2.securityGroups.get(groupId)?.ingress ?? []);
}

describe('Classic ELB', () => {
  it('creates the load balancer, its security group, node rule, health check and targets', async () => {
    const harness = await withNodes(2);
    const { cloud, ec2, elb, nodes, instanceIds } = harness;
    const status = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService({ annotations: { [`${P}aws-load-balancer-additional-resource-tags`]: 'team=web' } }), nodes);
    expect(status).toEqual({ ingress: [{ hostname: `${NAME}-1.us-west-2.elb.amazonaws.com` }] });

    const stored = elb.store.get(NAME);
    const group = [...ec2.securityGroups.values()].find((candidate) => candidate.groupName === `k8s-elb-${NAME}`);
    expect(group).toMatchObject({ vpcId: VPC, description: `Security group for Kubernetes ELB ${NAME} (default/web)`, tags: { ...CLUSTER_TAG, team: 'web' } });
    expect(stored?.loadBalancer).toMatchObject({
      scheme: 'internet-facing',
      subnets: ['subnet-a1', 'subnet-b1'],
      securityGroups: [group?.groupId],
      listeners: [{ listener: { protocol: 'TCP', loadBalancerPort: 80, instanceProtocol: 'TCP', instancePort: 30080 }, policyNames: [] }],
      instanceIds: [...instanceIds].sort(),
      healthCheck: { target: 'TCP:30080', interval: 10, timeout: 5, healthyThreshold: 2, unhealthyThreshold: 6 },
    });
    expect(stored?.tags).toEqual({ ...CLUSTER_TAG, 'kubernetes.io/service-name': 'default/web', team: 'web' });
    expect(rulesOf(harness as never, group?.groupId ?? '')).toEqual([
      { protocol: 'tcp', fromPort: 80, toPort: 80, source: { kind: 'ipv4', value: '0.0.0.0/0' } },
      { protocol: 'icmp', fromPort: 3, toPort: 4, source: { kind: 'ipv4', value: '0.0.0.0/0' } },
    ]);
    expect(rulesOf(harness as never, 'sg-nodes')).toEqual([{ protocol: '-1', source: { kind: 'group', value: group?.groupId } }]);
  });

  it('changes nothing on a second sync', async () => {
    const { cloud, nodes, mutations, clearLogs } = await withNodes(2);
    const service = makeService({ annotations: { [`${P}aws-load-balancer-additional-resource-tags`]: 'team=web' } });
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', service, nodes);
    clearLogs();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', service, nodes);
    expect(mutations()).toEqual([]);
  });

  it('updates targets when nodes change, leaving everything else alone', async () => {
    const { cloud, ec2, elb, nodes, instanceIds, mutations, clearLogs } = await withNodes(2);
    const service = makeService();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', service, nodes);
    const added = addNodeInstance(ec2);
    clearLogs();
    await cloud.loadBalancer().updateLoadBalancer('kubernetes', service, [nodes[1] ?? makeNode('x'), added.node]);
    expect(mutations()).toEqual(['elb.registerInstances', 'elb.deregisterInstances']);
    expect(elb.store.get(NAME)?.loadBalancer.instanceIds.sort()).toEqual([instanceIds[1], added.instanceId].sort());
  });

  it('only targets nodes with the target labels and instances tagged for the cluster', async () => {
    const { cloud, ec2, elb } = await createHarness();
    const edge = addNodeInstance(ec2);
    const other = addNodeInstance(ec2);
    const untagged = addNodeInstance(ec2, { tags: {} });
    edge.node.metadata = { ...edge.node.metadata, labels: { role: 'edge' } };
    untagged.node.metadata = { ...untagged.node.metadata, labels: { role: 'edge' } };
    await cloud.loadBalancer().ensureLoadBalancer('k', makeService({ annotations: { [`${P}aws-load-balancer-target-node-labels`]: 'role=edge' } }), [edge.node, other.node, untagged.node, makeNode('no-provider-id')]);
    expect(elb.store.get(NAME)?.loadBalancer.instanceIds).toEqual([edge.instanceId]);
  });

  it('syncs listeners, subnets and attributes on an existing load balancer', async () => {
    const { cloud, elb, nodes, mutations, clearLogs } = await withNodes(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', makeService(), nodes);
    clearLogs();
    const changed = makeService({
      ports: [{ name: 'http', port: 80, nodePort: 30081 }, { name: 'https', port: 443, nodePort: 30443 }],
      annotations: { [`${P}aws-load-balancer-subnets`]: 'subnet-a1', [`${P}aws-load-balancer-connection-idle-timeout`]: '300' },
    });
    await cloud.loadBalancer().ensureLoadBalancer('k', changed, nodes);
    expect(mutations()).toEqual([
      'elb.detachFromSubnets',
      'elb.deleteListeners',
      'elb.createListeners',
      'elb.modifyAttributes',
      'elb.configureHealthCheck',
      'ec2.authorizeSecurityGroupIngress',
    ]);
    const stored = elb.store.get(NAME);
    expect(stored?.loadBalancer.subnets).toEqual(['subnet-a1']);
    expect(stored?.loadBalancer.listeners.map((entry) => [entry.listener.loadBalancerPort, entry.listener.instancePort])).toEqual([[80, 30081], [443, 30443]]);
    expect(stored?.attributes.connectionSettings.idleTimeout).toBe(300);
    expect(stored?.loadBalancer.healthCheck?.target).toBe('TCP:30081');
  });

  it('enables and disables proxy protocol on backends', async () => {
    const { cloud, elb, nodes } = await withNodes(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', makeService({ annotations: { [`${P}aws-load-balancer-proxy-protocol`]: '*' } }), nodes);
    const stored = elb.store.get(NAME);
    expect(stored?.policies.get('k8s-proxyprotocol-enabled')).toEqual({ policyTypeName: 'ProxyProtocolPolicyType', attributes: [{ name: 'ProxyProtocol', value: 'true' }] });
    expect(stored?.loadBalancer.backendServers).toEqual([{ instancePort: 30080, policyNames: ['k8s-proxyprotocol-enabled'] }]);
    await cloud.loadBalancer().ensureLoadBalancer('k', makeService(), nodes);
    expect(elb.store.get(NAME)?.loadBalancer.backendServers).toEqual([]);
  });

  it('creates and sets the SSL negotiation policy on SSL/HTTPS listeners', async () => {
    const { cloud, elb, nodes, mutations, clearLogs } = await withNodes(1);
    const service = makeService({
      ports: [{ name: 'http', port: 80, nodePort: 30080 }, { name: 'https', port: 443, nodePort: 30443 }],
      annotations: {
        [`${P}aws-load-balancer-ssl-cert`]: 'arn:aws:acm:us-west-2:123456789012:certificate/x',
        [`${P}aws-load-balancer-ssl-ports`]: '443',
        [`${P}aws-load-balancer-backend-protocol`]: 'http',
        [`${P}aws-load-balancer-ssl-negotiation-policy`]: 'ELBSecurityPolicy-TLS-1-2-2017-01',
      },
    });
    await cloud.loadBalancer().ensureLoadBalancer('k', service, nodes);
    const stored = elb.store.get(NAME);
    expect(stored?.policies.get('k8s-SSLNegotiationPolicy-ELBSecurityPolicy-TLS-1-2-2017-01')).toEqual({
      policyTypeName: 'SSLNegotiationPolicyType',
      attributes: [{ name: 'Reference-Security-Policy', value: 'ELBSecurityPolicy-TLS-1-2-2017-01' }],
    });
    expect(stored?.loadBalancer.listeners.map((entry) => [entry.listener.protocol, entry.policyNames])).toEqual([
      ['HTTP', []],
      ['HTTPS', ['k8s-SSLNegotiationPolicy-ELBSecurityPolicy-TLS-1-2-2017-01']],
    ]);
    expect(stored?.loadBalancer.healthCheck?.target).toBe('TCP:30080');
    clearLogs();
    await cloud.loadBalancer().updateLoadBalancer('k', service, nodes);
    expect(mutations()).toEqual([]);
  });

  it('uses annotated security groups (never changing them) and switches away from the managed group', async () => {
    const { cloud, ec2, elb, nodes } = await withNodes(1);
    ec2.addSecurityGroup({ groupId: 'sg-byo', groupName: 'byo', vpcId: VPC });
    ec2.addSecurityGroup({ groupId: 'sg-extra', groupName: 'extra', vpcId: VPC });
    await cloud.loadBalancer().ensureLoadBalancer('k', makeService(), nodes);
    const managed = elb.store.get(NAME)?.loadBalancer.securityGroups[0] ?? '';
    const annotated = makeService({ annotations: { [`${P}aws-load-balancer-security-groups`]: 'sg-byo', [`${P}aws-load-balancer-extra-security-groups`]: 'sg-extra' } });
    await cloud.loadBalancer().ensureLoadBalancer('k', annotated, nodes);
    expect(elb.store.get(NAME)?.loadBalancer.securityGroups).toEqual(['sg-byo', 'sg-extra']);
    expect(ec2.securityGroups.has(managed)).toBe(false);
    expect(ec2.securityGroups.get('sg-byo')?.ingress).toEqual([]);
    expect(ec2.securityGroups.get('sg-extra')?.ingress).toEqual([]);
    expect(ungroupPermissions(ec2.securityGroups.get('sg-nodes')?.ingress ?? []).map((rule) => rule.source.value)).toEqual(['sg-byo']);

    await cloud.loadBalancer().ensureLoadBalancerDeleted('k', annotated);
    expect(ec2.securityGroups.has('sg-byo')).toBe(true);
    expect(ec2.securityGroups.has('sg-extra')).toBe(true);
    expect(elb.store.has(NAME)).toBe(false);
  });

  it('uses the shared ElbSecurityGroup without changing or deleting it', async () => {
    const { cloud, ec2, elb, nodes } = await withNodes(1, `${OFF_AWS_CONFIG}ElbSecurityGroup = sg-shared\n`);
    ec2.addSecurityGroup({ groupId: 'sg-shared', groupName: 'shared', vpcId: VPC, tags: { ...CLUSTER_TAG } });
    await cloud.loadBalancer().ensureLoadBalancer('k', makeService(), nodes);
    expect(elb.store.get(NAME)?.loadBalancer.securityGroups).toEqual(['sg-shared']);
    expect(ec2.log.count('ec2.createSecurityGroup')).toBe(0);
    expect(ec2.securityGroups.get('sg-shared')?.ingress).toEqual([]);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('k', makeService());
    expect(ec2.securityGroups.has('sg-shared')).toBe(true);
    expect(ungroupPermissions(ec2.securityGroups.get('sg-nodes')?.ingress ?? []).map((rule) => rule.source.value)).toEqual(['sg-shared']);
  });

  it('leaves node security groups alone with DisableSecurityGroupIngress', async () => {
    const { cloud, ec2, nodes } = await withNodes(1, `${OFF_AWS_CONFIG}DisableSecurityGroupIngress = true\n`);
    await cloud.loadBalancer().ensureLoadBalancer('k', makeService(), nodes);
    expect(ec2.securityGroups.get('sg-nodes')?.ingress).toEqual([]);
  });

  it('builds internal load balancers in any subnet, preferring the internal-elb role', async () => {
    const { cloud, elb, nodes } = await withNodes(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', makeService({ annotations: { [`${P}aws-load-balancer-internal`]: 'true' } }), nodes);
    expect(elb.store.get(NAME)?.loadBalancer).toMatchObject({ scheme: 'internal', subnets: ['subnet-a1', 'subnet-b1', 'subnet-c1'] });
  });

  it('resolves annotated subnets by ID and Name tag, and rejects unknown ones before any change', async () => {
    const { cloud, ec2, elb, nodes } = await withNodes(1);
    ec2.subnets.get('subnet-b1')!.tags = { ...ec2.subnets.get('subnet-b1')!.tags, Name: 'public-b' };
    await cloud.loadBalancer().ensureLoadBalancer('k', makeService({ annotations: { [`${P}aws-load-balancer-subnets`]: 'subnet-a1,public-b' } }), nodes);
    expect(elb.store.get(NAME)?.loadBalancer.subnets).toEqual(['subnet-a1', 'subnet-b1']);

    const fresh = await withNodes(1);
    const unknownName = fresh.cloud.loadBalancer().ensureLoadBalancer('k', makeService({ annotations: { [`${P}aws-load-balancer-subnets`]: 'subnet-a1,nope' } }), fresh.nodes);
    await expect(unknownName).rejects.toThrow(/expected to find 2, but found 1 subnets/);
    // Cloud state, not the annotation itself, decides these: retried with backoff (kind InvalidInput), as upstream.
    await expect(unknownName).rejects.toMatchObject({ kind: 'InvalidInput', annotation: `${P}aws-load-balancer-subnets` });
    await expect(fresh.cloud.loadBalancer().ensureLoadBalancer('k', makeService({ annotations: { [`${P}aws-load-balancer-subnets`]: 'subnet-zz' } }), fresh.nodes)).rejects.toMatchObject({
      name: 'UnresolvedAnnotationError',
      kind: 'InvalidInput',
    });
    expect(fresh.mutations()).toEqual([]);
  });

  it('rejects a bad annotation before calling the cloud at all', async () => {
    const { cloud, nodes, operations } = await withNodes(1);
    const error = await cloud
      .loadBalancer()
      .ensureLoadBalancer('k', makeService({ annotations: { [`${P}aws-load-balancer-healthcheck-interval`]: 'soon' } }), nodes)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidAnnotationError);
    expect((error as InvalidAnnotationError).annotation).toBe(`${P}aws-load-balancer-healthcheck-interval`);
    expect((error as InvalidAnnotationError).kind).toBe('PermanentInvalidInput');
    expect(operations()).toEqual([]);
  });

  it('refuses to modify or delete a load balancer of another cluster', async () => {
    const { cloud, elb, nodes, mutations } = await withNodes(1);
    elb.seed({ name: NAME }, { 'kubernetes.io/cluster/other': 'owned' });
    await expect(cloud.loadBalancer().ensureLoadBalancer('k', makeService(), nodes)).rejects.toBeInstanceOf(NotOwnedError);
    await expect(cloud.loadBalancer().updateLoadBalancer('k', makeService(), nodes)).rejects.toBeInstanceOf(NotOwnedError);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('k', makeService());
    expect(elb.store.has(NAME)).toBe(true);
    expect(mutations()).toEqual([]);
    expect(await cloud.loadBalancer().getLoadBalancer('k', makeService())).toEqual({ status: undefined, exists: false });
  });

  it('deletes the load balancer, its security group and the node rule; a second delete is a no-op', async () => {
    const harness = await withNodes(1);
    const { cloud, ec2, elb, nodes, mutations, clearLogs } = harness;
    await cloud.loadBalancer().ensureLoadBalancer('k', makeService(), nodes);
    const managed = elb.store.get(NAME)?.loadBalancer.securityGroups[0] ?? '';
    expect(await cloud.loadBalancer().getLoadBalancer('k', makeService())).toEqual({ exists: true, status: { ingress: [{ hostname: `${NAME}-1.us-west-2.elb.amazonaws.com` }] } });
    await cloud.loadBalancer().ensureLoadBalancerDeleted('k', makeService());
    expect(elb.store.has(NAME)).toBe(false);
    expect(ec2.securityGroups.has(managed)).toBe(false);
    expect(ec2.securityGroups.get('sg-nodes')?.ingress).toEqual([]);
    clearLogs();
    await cloud.loadBalancer().ensureLoadBalancerDeleted('k', makeService());
    expect(mutations()).toEqual([]);
    expect(await cloud.loadBalancer().getLoadBalancer('k', makeService())).toEqual({ status: undefined, exists: false });
  });

  it('asks for a retry while the security group is still in use, and finishes once the load balancer is gone', async () => {
    const { cloud, ec2, elb, nodes } = await withNodes(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', makeService(), nodes);
    const managed = elb.store.get(NAME)?.loadBalancer.securityGroups[0] ?? '';
    ec2.inUse = (groupId) => groupId === managed;
    const error = await cloud.loadBalancer().ensureLoadBalancerDeleted('k', makeService()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RetryError);
    expect((error as RetryError).retryAfterMs).toBe(5000);
    expect(elb.store.has(NAME)).toBe(false);
    ec2.inUse = () => false;
    await cloud.loadBalancer().ensureLoadBalancerDeleted('k', makeService());
    expect(ec2.securityGroups.has(managed)).toBe(false);
  });

  it('still reports the load balancer while its security group outlived it, so the finalizer stays until the group is gone', async () => {
    const { cloud, ec2, elb, nodes } = await withNodes(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', makeService(), nodes);
    const managed = elb.store.get(NAME)?.loadBalancer.securityGroups[0] ?? '';
    ec2.inUse = (groupId) => groupId === managed;
    await expect(cloud.loadBalancer().ensureLoadBalancerDeleted('k', makeService())).rejects.toBeInstanceOf(RetryError);
    expect(elb.store.has(NAME)).toBe(false);
    // The service controller asks getLoadBalancer before deleting: a load balancer gone with its group left must still count.
    expect(await cloud.loadBalancer().getLoadBalancer('k', makeService())).toEqual({ status: undefined, exists: true });
    ec2.inUse = () => false;
    await cloud.loadBalancer().ensureLoadBalancerDeleted('k', makeService());
    expect(ec2.securityGroups.has(managed)).toBe(false);
    expect(await cloud.loadBalancer().getLoadBalancer('k', makeService())).toEqual({ status: undefined, exists: false });
  });

  it('does not count a same-named security group of another cluster as a remnant', async () => {
    const { cloud, ec2 } = await createHarness();
    ec2.addSecurityGroup({ groupId: 'sg-foreign', groupName: `k8s-elb-${NAME}`, vpcId: VPC, tags: { 'kubernetes.io/cluster/other': 'owned' } });
    expect(await cloud.loadBalancer().getLoadBalancer('k', makeService())).toEqual({ status: undefined, exists: false });
  });

  it('never deletes a same-named security group that is not owned by the cluster', async () => {
    const { cloud, ec2 } = await createHarness();
    ec2.addSecurityGroup({ groupId: 'sg-foreign', groupName: `k8s-elb-${NAME}`, vpcId: VPC, tags: { 'kubernetes.io/cluster/c1': 'shared' } });
    await cloud.loadBalancer().ensureLoadBalancerDeleted('k', makeService());
    expect(ec2.securityGroups.has('sg-foreign')).toBe(true);
  });

  it('adopts an untagged security group of the expected name by tagging it, and refuses a shared one', async () => {
    const { cloud, ec2, nodes } = await withNodes(1);
    ec2.addSecurityGroup({ groupId: 'sg-precreated', groupName: `k8s-elb-${NAME}`, vpcId: VPC });
    await cloud.loadBalancer().ensureLoadBalancer('k', makeService(), nodes);
    expect(ec2.securityGroups.get('sg-precreated')?.tags).toEqual(CLUSTER_TAG);

    const other = await withNodes(1);
    other.ec2.addSecurityGroup({ groupId: 'sg-shared', groupName: `k8s-elb-${NAME}`, vpcId: VPC, tags: { 'kubernetes.io/cluster/c1': 'shared' } });
    await expect(other.cloud.loadBalancer().ensureLoadBalancer('k', makeService(), other.nodes)).rejects.toThrow(/refusing to adopt/);
  });
});
