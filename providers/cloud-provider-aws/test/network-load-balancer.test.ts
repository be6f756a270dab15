import { createMetricsRegistry } from '@ccm/core/app';
import { ImplementedElsewhereError } from '@ccm/core/provider';
import { createAwsCloud } from '../src/aws-cloud.js';
import { describe, expect, it } from 'vitest';
import { NotOwnedError, UnresolvedAnnotationError } from '../src/errors.js';
import { awsError } from './fakes/fake-errors.js';
import { ungroupPermissions } from '../src/operations/load-balancer/ingress-rules.js';
import { targetGroupName } from '../src/operations/load-balancer/network/network-names.js';
import { addNodeInstance, CLUSTER_TAG, createHarness, makeService, OFF_AWS_CONFIG, VPC, type ServiceOptions } from './helpers.js';

const P = 'service.beta.kubernetes.io/';
const NAME = 'a1111111122223333444455555555555';
const nlb = (options: ServiceOptions = {}) => makeService({ ...options, annotations: { [`${P}aws-load-balancer-type`]: 'nlb', ...options.annotations } });

async function withNodes(count: number, configText = OFF_AWS_CONFIG) {
  const harness = await createHarness(configText);
  const nodes = Array.from({ length: count }, () => addNodeInstance(harness.ec2));
  return { ...harness, nodes: nodes.map((entry) => entry.node), instanceIds: nodes.map((entry) => entry.instanceId) };
}

function loadBalancerOf(harness: Awaited<ReturnType<typeof withNodes>>) {
  const found = [...harness.elbv2.loadBalancers.values()].find((candidate) => candidate.name === NAME);
  if (!found) throw new Error('no NLB');
  return found;
}

describe('NLB', () => {
  it('creates the NLB, a hashed target group with the nodes, a listener and node rules', async () => {
    const harness = await withNodes(2);
    const { cloud, ec2, elbv2, nodes, instanceIds } = harness;
    const status = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', nlb({ annotations: { [`${P}aws-load-balancer-additional-resource-tags`]: 'team=web' } }), nodes);
    const loadBalancer = loadBalancerOf(harness);
    expect(status).toEqual({ ingress: [{ hostname: `${NAME}-abc.elb.us-west-2.amazonaws.com` }] });
    expect(loadBalancer).toMatchObject({ type: 'network', scheme: 'internet-facing', subnetIds: ['subnet-a1', 'subnet-b1'], securityGroups: [] });
    const tags = { ...CLUSTER_TAG, 'kubernetes.io/service-name': 'default/web', team: 'web' };
    expect(elbv2.tags.get(loadBalancer.arn)).toEqual(tags);
    const [group] = [...elbv2.targetGroups.values()];
    const expectedName = targetGroupName('c1', { namespace: 'default', name: 'web', uid: '' }, {
      frontendPort: 80,
      frontendProtocol: 'TCP',
      trafficPort: 30080,
      trafficProtocol: 'TCP',
      healthCheck: { protocol: 'TCP', port: 'traffic-port', path: '/', interval: 30, timeout: 10, healthyThreshold: 3, unhealthyThreshold: 3 },
    });
    expect(group).toMatchObject({
      name: expectedName,
      protocol: 'TCP',
      port: 30080,
      vpcId: VPC,
      healthCheck: { protocol: 'TCP', port: 'traffic-port', intervalSeconds: 30, healthyThreshold: 3, unhealthyThreshold: 3 },
      loadBalancerArns: [loadBalancer.arn],
    });
    expect(elbv2.tags.get(group?.arn ?? '')).toEqual(tags);
    expect(elbv2.targets.get(group?.arn ?? '')?.map((target) => target.id).sort()).toEqual([...instanceIds].sort());
    const [listener] = [...elbv2.listeners.values()];
    expect(listener).toMatchObject({ port: 80, protocol: 'TCP', targetGroupArn: group?.arn, certificates: [] });
    expect(elbv2.tags.get(listener?.arn ?? '')).toEqual(tags);
    expect(ungroupPermissions(ec2.securityGroups.get('sg-nodes')?.ingress ?? [])).toEqual([
      { protocol: 'tcp', fromPort: 30080, toPort: 30080, source: { kind: 'ipv4', value: '0.0.0.0/0' }, description: `kubernetes.io/rule/nlb/client=${NAME}` },
      { protocol: 'icmp', fromPort: 3, toPort: 4, source: { kind: 'ipv4', value: '0.0.0.0/0' }, description: 'kubernetes.io/rule/nlb/mtu' },
    ]);
  });

  it('changes nothing on a second sync', async () => {
    const { cloud, nodes, mutations, clearLogs } = await withNodes(2);
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb(), nodes);
    clearLogs();
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb(), nodes);
    await cloud.loadBalancer().updateLoadBalancer('k', nlb(), nodes);
    expect(mutations()).toEqual([]);
  });

  it('updates targets on node changes', async () => {
    const harness = await withNodes(2);
    const { cloud, ec2, elbv2, nodes, instanceIds, mutations, clearLogs } = harness;
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb(), nodes);
    const added = addNodeInstance(ec2);
    clearLogs();
    await cloud.loadBalancer().updateLoadBalancer('k', nlb(), [nodes[0]!, added.node]);
    expect(mutations()).toEqual(['elbv2.deregisterTargets', 'elbv2.registerTargets']);
    const [group] = [...elbv2.targetGroups.values()];
    expect(elbv2.targets.get(group?.arn ?? '')?.map((target) => target.id).sort()).toEqual([instanceIds[0], added.instanceId].sort());
  });

  it('replaces the target group when the node port changes and deletes the old one', async () => {
    const { cloud, ec2, elbv2, nodes, mutations, clearLogs } = await withNodes(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb(), nodes);
    const [oldGroup] = [...elbv2.targetGroups.values()];
    clearLogs();
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb({ ports: [{ name: 'http', port: 80, nodePort: 30099 }] }), nodes);
    expect(mutations()).toEqual([
      'elbv2.createTargetGroup',
      'elbv2.registerTargets',
      'elbv2.modifyListener',
      'elbv2.deleteTargetGroup',
      'ec2.revokeSecurityGroupIngress',
      'ec2.authorizeSecurityGroupIngress',
    ]);
    const groups = [...elbv2.targetGroups.values()];
    expect(groups.map((group) => group.port)).toEqual([30099]);
    expect(groups[0]?.arn).not.toBe(oldGroup?.arn);
    expect(ungroupPermissions(ec2.securityGroups.get('sg-nodes')?.ingress ?? []).filter((rule) => rule.protocol === 'tcp').map((rule) => rule.fromPort)).toEqual([30099]);
  });

  it('recreates the target group for a new health-check interval but modifies it for thresholds', async () => {
    const { cloud, elbv2, nodes, mutations, clearLogs } = await withNodes(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb(), nodes);
    clearLogs();
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb({ annotations: { [`${P}aws-load-balancer-healthcheck-healthy-threshold`]: '5', [`${P}aws-load-balancer-healthcheck-unhealthy-threshold`]: '5' } }), nodes);
    expect(mutations()).toEqual(['elbv2.modifyTargetGroupHealthCheck']);
    expect([...elbv2.targetGroups.values()][0]?.healthCheck).toMatchObject({ healthyThreshold: 5, unhealthyThreshold: 5 });
    clearLogs();
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb({ annotations: { [`${P}aws-load-balancer-healthcheck-interval`]: '10' } }), nodes);
    expect(mutations()).toEqual(['elbv2.createTargetGroup', 'elbv2.registerTargets', 'elbv2.modifyListener', 'elbv2.deleteTargetGroup']);
    expect([...elbv2.targetGroups.values()][0]?.healthCheck).toMatchObject({ intervalSeconds: 10, healthyThreshold: 3 });
  });

  it('adds and removes listeners with their target groups', async () => {
    const { cloud, elbv2, nodes } = await withNodes(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb({ ports: [{ name: 'a', port: 80, nodePort: 30080 }, { name: 'b', port: 81, nodePort: 30081 }] }), nodes);
    expect([...elbv2.listeners.values()].map((listener) => listener.port).sort()).toEqual([80, 81]);
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb({ ports: [{ name: 'b', port: 81, nodePort: 30081 }] }), nodes);
    expect([...elbv2.listeners.values()].map((listener) => listener.port)).toEqual([81]);
    expect([...elbv2.targetGroups.values()].map((group) => group.port)).toEqual([30081]);
  });

  it('makes TLS listeners, and switches a port from TCP to TLS in place', async () => {
    const { cloud, elbv2, nodes } = await withNodes(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb({ ports: [{ name: 'https', port: 443, nodePort: 30443 }] }), nodes);
    const tls = nlb({
      ports: [{ name: 'https', port: 443, nodePort: 30443 }],
      annotations: { [`${P}aws-load-balancer-ssl-cert`]: 'arn:aws:acm:us-west-2:123456789012:certificate/x', [`${P}aws-load-balancer-ssl-negotiation-policy`]: 'ELBSecurityPolicy-TLS13-1-2-2021-06' },
    });
    await cloud.loadBalancer().ensureLoadBalancer('k', tls, nodes);
    expect([...elbv2.listeners.values()]).toEqual([
      expect.objectContaining({ port: 443, protocol: 'TLS', sslPolicy: 'ELBSecurityPolicy-TLS13-1-2-2021-06', certificates: [{ certificateArn: 'arn:aws:acm:us-west-2:123456789012:certificate/x' }] }),
    ]);
  });

  it('applies load balancer and target group attributes', async () => {
    const harness = await withNodes(1);
    const service = nlb({
      annotations: {
        [`${P}aws-load-balancer-cross-zone-load-balancing-enabled`]: 'true',
        [`${P}aws-load-balancer-access-log-enabled`]: 'true',
        [`${P}aws-load-balancer-access-log-s3-bucket-name`]: 'logs',
        [`${P}aws-load-balancer-target-group-attributes`]: 'preserve_client_ip.enabled=false,proxy_protocol_v2.enabled=true',
      },
    });
    await harness.cloud.loadBalancer().ensureLoadBalancer('k', service, harness.nodes);
    const loadBalancer = loadBalancerOf(harness);
    expect(harness.elbv2.loadBalancerAttributes.get(loadBalancer.arn)).toEqual({
      'load_balancing.cross_zone.enabled': 'true',
      'access_logs.s3.enabled': 'true',
      'access_logs.s3.bucket': 'logs',
      'access_logs.s3.prefix': '',
    });
    const [group] = [...harness.elbv2.targetGroups.values()];
    expect(harness.elbv2.targetGroupAttributes.get(group?.arn ?? '')).toMatchObject({ 'preserve_client_ip.enabled': 'false', 'proxy_protocol_v2.enabled': 'true' });
  });

  it('uses annotated EIPs and private addresses at creation, and rejects a count mismatch before any change', async () => {
    const harness = await withNodes(1);
    await harness.cloud.loadBalancer().ensureLoadBalancer('k', nlb({ annotations: { [`${P}aws-load-balancer-eip-allocations`]: 'eipalloc-1,eipalloc-2' } }), harness.nodes);
    expect(harness.elbv2.log.inputs('elbv2.createLoadBalancer')[0]).toMatchObject({ subnetMappings: [{ subnetId: 'subnet-a1', allocationId: 'eipalloc-1' }, { subnetId: 'subnet-b1', allocationId: 'eipalloc-2' }] });

    const other = await withNodes(1);
    const error = await other.cloud.loadBalancer().ensureLoadBalancer('k', nlb({ annotations: { [`${P}aws-load-balancer-eip-allocations`]: 'eipalloc-1' } }), other.nodes).catch((caught: unknown) => caught);
    // The count is compared with the subnets found in the cloud, which can change: retried (kind InvalidInput).
    expect(error).toBeInstanceOf(UnresolvedAnnotationError);
    expect(error).toMatchObject({ kind: 'InvalidInput', annotation: `${P}aws-load-balancer-eip-allocations` });
    expect(other.mutations()).toEqual([]);
  });

  it('health rules come from the NLB subnets when clients are restricted', async () => {
    const { cloud, ec2, nodes } = await withNodes(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb({ loadBalancerSourceRanges: ['192.168.0.0/16'] }), nodes);
    expect(ungroupPermissions(ec2.securityGroups.get('sg-nodes')?.ingress ?? []).map((rule) => `${rule.protocol}:${rule.fromPort}:${rule.source.value}:${rule.description}`)).toEqual([
      `tcp:30080:10.0.1.0/24:kubernetes.io/rule/nlb/health=${NAME}`,
      `tcp:30080:10.0.2.0/24:kubernetes.io/rule/nlb/health=${NAME}`,
      `tcp:30080:192.168.0.0/16:kubernetes.io/rule/nlb/client=${NAME}`,
      'icmp:3:192.168.0.0/16:kubernetes.io/rule/nlb/mtu',
    ]);
  });

  it('deletes the NLB, target groups and only its own node rules', async () => {
    const harness = await withNodes(1);
    const { cloud, ec2, elbv2, nodes } = harness;
    ec2.securityGroups.get('sg-nodes')!.ingress.push({ protocol: 'tcp', fromPort: 22, toPort: 22, ipv4Ranges: [{ cidr: '10.0.0.0/8', description: 'ssh' }], ipv6Ranges: [], groupPairs: [] });
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb(), nodes);
    expect((await cloud.loadBalancer().getLoadBalancer('k', nlb())).exists).toBe(true);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('k', nlb());
    expect(elbv2.loadBalancers.size).toBe(0);
    expect(elbv2.targetGroups.size).toBe(0);
    expect(ungroupPermissions(ec2.securityGroups.get('sg-nodes')?.ingress ?? []).map((rule) => rule.description)).toEqual(['ssh']);
    expect(await cloud.loadBalancer().getLoadBalancer('k', nlb())).toEqual({ status: undefined, exists: false });
  });

  it('refuses to touch an NLB of another cluster', async () => {
    const { cloud, elbv2, nodes, mutations } = await withNodes(1);
    elbv2.seedLoadBalancer({ name: NAME }, { 'kubernetes.io/cluster/other': 'owned' });
    await expect(cloud.loadBalancer().ensureLoadBalancer('k', nlb(), nodes)).rejects.toBeInstanceOf(NotOwnedError);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('k', nlb());
    expect(elbv2.loadBalancers.size).toBe(1);
    expect(mutations()).toEqual([]);
  });

  it('adopts an owned target group left by an interrupted sync instead of failing on the name', async () => {
    const { cloud, elbv2, nodes } = await withNodes(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb(), nodes);
    const [listener] = [...elbv2.listeners.values()];
    await elbv2.deleteListener(listener?.arn ?? '');
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb(), nodes);
    expect(elbv2.targetGroups.size).toBe(1);
    expect(elbv2.listeners.size).toBe(1);
  });

  it('fails updateLoadBalancer when the NLB does not exist', async () => {
    const { cloud, nodes } = await withNodes(1);
    await expect(cloud.loadBalancer().updateLoadBalancer('k', nlb(), nodes)).rejects.toThrow('Load balancer not found');
  });

  describe('NLBSecurityGroupMode = Managed', () => {
    const managed = `${OFF_AWS_CONFIG}NLBSecurityGroupMode = Managed\n`;

    it('creates, attaches and fills a managed security group, and deletes it with the NLB', async () => {
      const harness = await withNodes(1, managed);
      await harness.cloud.loadBalancer().ensureLoadBalancer('kubernetes', nlb(), harness.nodes);
      const group = [...harness.ec2.securityGroups.values()].find((candidate) => candidate.description === '[k8s] Managed SecurityGroup for LoadBalancer');
      expect(group?.groupName).toMatch(/^k8s-default-web-[0-9a-f]{10}$/);
      expect(group?.tags).toEqual(CLUSTER_TAG);
      expect(loadBalancerOf(harness).securityGroups).toEqual([group?.groupId]);
      expect(ungroupPermissions(group?.ingress ?? [])).toEqual([
        { protocol: 'tcp', fromPort: 80, toPort: 80, source: { kind: 'ipv4', value: '0.0.0.0/0' } },
        { protocol: 'icmp', fromPort: 3, toPort: 4, source: { kind: 'ipv4', value: '0.0.0.0/0' } },
      ]);
      await harness.cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', nlb());
      expect(harness.ec2.securityGroups.has(group?.groupId ?? '')).toBe(false);
    });

    it('switches to bring-your-own groups and deletes the managed one', async () => {
      const harness = await withNodes(1, managed);
      harness.ec2.addSecurityGroup({ groupId: 'sg-byo', groupName: 'byo', vpcId: VPC });
      await harness.cloud.loadBalancer().ensureLoadBalancer('kubernetes', nlb(), harness.nodes);
      const [managedGroup] = loadBalancerOf(harness).securityGroups;
      await harness.cloud.loadBalancer().ensureLoadBalancer('kubernetes', nlb({ annotations: { [`${P}aws-load-balancer-security-groups`]: 'sg-byo' } }), harness.nodes);
      expect(loadBalancerOf(harness).securityGroups).toEqual(['sg-byo']);
      expect(harness.ec2.securityGroups.has(managedGroup ?? '')).toBe(false);
      expect(harness.ec2.securityGroups.get('sg-byo')?.ingress).toEqual([]);
      await harness.cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', nlb({ annotations: { [`${P}aws-load-balancer-security-groups`]: 'sg-byo' } }));
      expect(harness.ec2.securityGroups.has('sg-byo')).toBe(true);
    });

    it('leaves an NLB created without groups alone (AWS cannot add them later)', async () => {
      const harness = await withNodes(1);
      await harness.cloud.loadBalancer().ensureLoadBalancer('kubernetes', nlb(), harness.nodes);
      const managedCloud = await createAwsCloud(managed, { logger: harness.logger, metrics: createMetricsRegistry() }, { ports: { ec2: harness.ec2, elb: harness.elb, elbv2: harness.elbv2 } });
      harness.clearLogs();
      await managedCloud.loadBalancer().ensureLoadBalancer('kubernetes', nlb(), harness.nodes);
      expect(harness.mutations()).toEqual([]);
      expect(loadBalancerOf(harness).securityGroups).toEqual([]);
      expect(harness.logger.warnings()).toContain('NLB was created without security groups; AWS cannot add them later, so none are managed');
    });
  });
});

describe('load balancer type changes and other controllers', () => {
  it('moves a Service from Classic to NLB and back, deleting the previous load balancer', async () => {
    const { cloud, ec2, elb, elbv2, nodes } = await withNodes(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', makeService(), nodes);
    const classicGroup = elb.store.get(NAME)?.loadBalancer.securityGroups[0] ?? '';
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb(), nodes);
    expect(elb.store.has(NAME)).toBe(false);
    expect(ec2.securityGroups.has(classicGroup)).toBe(false);
    expect(elbv2.loadBalancers.size).toBe(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', makeService(), nodes);
    expect(elbv2.loadBalancers.size).toBe(0);
    expect(elbv2.targetGroups.size).toBe(0);
    expect(elb.store.has(NAME)).toBe(true);
  });

  it('deletes what we own whatever the annotation says now (no leak on type change + delete)', async () => {
    const { cloud, elbv2, nodes } = await withNodes(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb(), nodes);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('k', makeService());
    expect(elbv2.loadBalancers.size).toBe(0);
  });

  it('finishes a deletion cut short after the NLB went: the target group left keeps the Service until it is deleted', async () => {
    const { cloud, elbv2, nodes } = await withNodes(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb(), nodes);
    elbv2.log.failNext('elbv2.deleteTargetGroup', awsError('elbv2.deleteTargetGroup', 'AccessDenied', 'injected', 403));
    await expect(cloud.loadBalancer().ensureLoadBalancerDeleted('k', nlb())).rejects.toThrow(/injected/);
    expect(elbv2.loadBalancers.size).toBe(0);
    expect(elbv2.targetGroups.size).toBe(1);
    expect(await cloud.loadBalancer().getLoadBalancer('k', nlb())).toEqual({ status: undefined, exists: true });
    await cloud.loadBalancer().ensureLoadBalancerDeleted('k', nlb());
    expect(elbv2.targetGroups.size).toBe(0);
    expect(await cloud.loadBalancer().getLoadBalancer('k', nlb())).toEqual({ status: undefined, exists: false });
  });

  it('deletes a target group a failed listener creation left once the ports change, and never another Service\'s', async () => {
    const { cloud, elbv2, nodes } = await withNodes(1);
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb(), nodes);
    const [first] = [...elbv2.targetGroups.values()];
    elbv2.log.failNext('elbv2.createListener', awsError('elbv2.createListener', 'AccessDenied', 'injected', 403));
    await expect(cloud.loadBalancer().ensureLoadBalancer('k', nlb({ ports: [{ name: 'http', port: 80, nodePort: 30080 }, { name: 'https', port: 443, nodePort: 30443 }] }), nodes)).rejects.toThrow(/injected/);
    const orphan = [...elbv2.targetGroups.values()].find((group) => group.port === 30443);
    expect(orphan?.loadBalancerArns).toEqual([]);
    // Another Service's unused target group under the same name prefix (names are cut to 8 characters).
    const foreign = await elbv2.createTargetGroup({ name: `${orphan?.name.slice(0, -10)}ffffffffff`, protocol: 'TCP', port: 30999, vpcId: VPC, healthCheck: { protocol: 'TCP', port: 'traffic-port', intervalSeconds: 30, healthyThreshold: 3, unhealthyThreshold: 3 }, tags: { ...CLUSTER_TAG, 'kubernetes.io/service-name': 'default/web-other' } });
    await cloud.loadBalancer().ensureLoadBalancer('k', nlb({ ports: [{ name: 'http', port: 80, nodePort: 30080 }, { name: 'dns', port: 53, nodePort: 30053 }] }), nodes);
    const ports = [...elbv2.targetGroups.values()].map((group) => group.port).sort();
    expect(ports).toEqual([30053, 30080, 30999]);
    expect(elbv2.targetGroups.has(first?.arn ?? '')).toBe(true);
    expect(elbv2.targetGroups.has(foreign.arn)).toBe(true);
  });

  it('leaves nlb-ip and external to the AWS Load Balancer Controller', async () => {
    const { cloud, nodes, operations } = await withNodes(1);
    for (const type of ['nlb-ip', 'external']) {
      const service = makeService({ annotations: { [`${P}aws-load-balancer-type`]: type } });
      await expect(cloud.loadBalancer().ensureLoadBalancer('k', service, nodes)).rejects.toBeInstanceOf(ImplementedElsewhereError);
      await expect(cloud.loadBalancer().updateLoadBalancer('k', service, nodes)).rejects.toBeInstanceOf(ImplementedElsewhereError);
      expect(await cloud.loadBalancer().getLoadBalancer('k', service)).toEqual({ status: undefined, exists: false });
    }
    expect(operations()).toEqual([]);
  });

  it('names load balancers a + UID', async () => {
    const { cloud } = await createHarness();
    expect(cloud.loadBalancer().getLoadBalancerName('k', makeService({ uid: 'abcdef01-2345-6789-abcd-ef0123456789' }))).toBe('aabcdef0123456789abcdef0123456789'.slice(0, 32));
  });
});
