/**
 * A cluster without a cluster ID (`--allow-untagged-cloud`, no KubernetesClusterTag/ID in the
 * config, none on the instance). Upstream finds load balancers by name and never checks
 * ownership tags then (`hasClusterTag` accepts everything): the load balancer named for the
 * Service, its `k8s-elb-<name>` security group and its target groups are the cluster's. So a
 * second sync updates what the first created, and deleting the Service removes all of it.
 */
import { describe, expect, it } from 'vitest';
import { FakeMetadata } from './fakes/fake-metadata.js';
import { addNodeInstance, createHarness, makeService, VPC, type ServiceOptions } from './helpers.js';

const P = 'service.beta.kubernetes.io/';
const NAME = 'a1111111122223333444455555555555';
const UNTAGGED_CONFIG = '[Global]\nRegion = us-west-2\n';
const nlb = (options: ServiceOptions = {}) => makeService({ ...options, annotations: { [`${P}aws-load-balancer-type`]: 'nlb', ...options.annotations } });

async function untaggedCluster() {
  const harness = await createHarness(UNTAGGED_CONFIG, {
    metadata: new FakeMetadata({ instanceId: 'i-self' }),
    prepare: (ec2) => ec2.addInstance({ instanceId: 'i-self', vpcId: VPC, subnetId: 'subnet-a1' }),
  });
  const nodes = [addNodeInstance(harness.ec2, { tags: {} }), addNodeInstance(harness.ec2, { tags: {} })];
  return { ...harness, nodes: nodes.map((entry) => entry.node) };
}

describe('AWS without a cluster ID (upstream: found by name, no ownership check)', () => {
  it('runs without a cluster ID and says once how load balancers are treated', async () => {
    const { cloud, logger } = await untaggedCluster();
    expect(cloud.hasClusterId()).toBe(false);
    expect(logger.warnings().filter((message) => message.includes('found by name and treated as this cluster'))).toHaveLength(1);
  });

  it('Classic ELB: a second sync updates the load balancer it created, and deletion removes it and its security group', async () => {
    const { cloud, ec2, elb, nodes } = await untaggedCluster();
    const first = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    expect(first.ingress?.[0]?.hostname).toContain(NAME);
    const group = [...ec2.securityGroups.values()].find((candidate) => candidate.groupName === `k8s-elb-${NAME}`);
    expect(group?.tags).toEqual({});

    const second = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService({ ports: [{ name: 'http', port: 80, nodePort: 30080 }, { name: 'https', port: 443, nodePort: 30443 }] }), nodes);
    expect(second).toEqual(first);
    expect(elb.store.get(NAME)?.loadBalancer.listeners.map((entry) => entry.listener.loadBalancerPort).sort()).toEqual([443, 80]);
    await cloud.loadBalancer().updateLoadBalancer('kubernetes', makeService(), nodes.slice(0, 1));
    expect(elb.store.get(NAME)?.loadBalancer.instanceIds).toHaveLength(1);
    expect(await cloud.loadBalancer().getLoadBalancer('kubernetes', makeService())).toEqual({ status: first, exists: true });

    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', makeService());
    expect(elb.store.has(NAME)).toBe(false);
    expect(ec2.securityGroups.has(group?.groupId ?? '')).toBe(false);
    expect(await cloud.loadBalancer().getLoadBalancer('kubernetes', makeService())).toEqual({ status: undefined, exists: false });
  });

  it('NLB: a second sync updates the load balancer and its target groups, and deletion removes them', async () => {
    const { cloud, elbv2, nodes } = await untaggedCluster();
    const first = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', nlb(), nodes);
    expect(first.ingress?.[0]?.hostname).toBeDefined();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', nlb({ ports: [{ name: 'http', port: 80, nodePort: 30080 }, { name: 'dns', port: 53, nodePort: 30053 }] }), nodes);
    expect(elbv2.targetGroups.size).toBe(2);
    expect(await cloud.loadBalancer().getLoadBalancer('kubernetes', nlb())).toMatchObject({ exists: true });

    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', nlb());
    expect(elbv2.loadBalancers.size).toBe(0);
    expect(elbv2.targetGroups.size).toBe(0);
  });
});
