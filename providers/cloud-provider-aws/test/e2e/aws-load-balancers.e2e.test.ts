/**
 * AWS-specific end-to-end checks: the aws-cloud-controller-manager binary against
 * @ccm/kube-emulator and moto_server, with the cloud side checked through the AWS SDK — an NLB
 * (listeners, target groups, targets, health checks, node security-group rules), a Classic ELB
 * with annotations (listeners, instances, attributes, its `k8s-elb-*` group and the node rule), an
 * invalid annotation (Warning event, nothing created), a classic -> nlb type change, routes, and
 * that deleting the Services leaves nothing of ours behind.
 *
 * moto quirks kept out of the assertions (they differ from AWS): NLB ARNs contain
 * `loadbalancer/app/`, target health is always `healthy`, load balancer states change on the
 * next describe. Needs `moto_server` and the built CCM; fails under CI=true without them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KubeService, ServicePort } from '../../../../e2e/src/harness/kube-objects.js';
import { isInitialized, registerNode } from '../../../../e2e/src/harness/node-registration.js';
import { TestCluster } from '../../../../e2e/src/harness/test-cluster.js';
import { AwsCloudReader, flattenRules, type FlatRule, type NetworkView } from './aws-cloud-reader.js';
import { AwsDriver, loadBalancerName } from '../conformance/aws-driver.js';

const P = 'service.beta.kubernetes.io/';
const CLIENT_RANGE = '203.0.113.0/24';

const driver = new AwsDriver(`e2e-lb-${process.pid}`);
const unavailable = await driver.unavailableReason();
if (unavailable !== undefined && process.env['CI'] === 'true') {
  describe('AWS load balancer e2e checks (moto)', () => {
    it('has moto_server and the built CCM', () => {
      throw new Error(`CI=true but ${unavailable}. To install: ${driver.installHint}`);
    });
  });
} else if (unavailable !== undefined) {
  const bar = '!'.repeat(78);
  console.warn(`${bar}\nSKIPPING the AWS load balancer e2e checks: ${unavailable}\nTo run them: ${driver.installHint}\n(Under CI=true this is a failure.)\n${bar}`);
}

interface TestNode {
  name: string;
  instanceId: string;
  podCidr: string;
}

const sortRules = (rules: FlatRule[]): FlatRule[] => [...rules].sort((left, right) => JSON.stringify(left).localeCompare(JSON.stringify(right)));

describe.skipIf(unavailable !== undefined)('AWS load balancers, routes and cleanup: CCM binary against moto', { timeout: 60_000 }, () => {
  let cluster: TestCluster | undefined;
  let reader: AwsCloudReader | undefined;
  const nodes: TestNode[] = [];
  let initialNodeRules: FlatRule[] = [];
  let nextNodePort = 30_100;

  const kube = () => {
    if (cluster === undefined) throw new Error('the cluster did not start');
    return cluster;
  };
  const cloud = () => {
    if (reader === undefined) throw new Error('moto did not start');
    return reader;
  };
  const network = () => driver.cloudSide().network;
  const instanceIds = () => nodes.map((node) => node.instanceId).sort();
  const nodeRules = async () => flattenRules((await cloud().securityGroup(network().nodeSecurityGroupId))?.IpPermissions);

  function port(name: string, number: number): ServicePort {
    return { name, protocol: 'TCP', port: number, targetPort: 8080, nodePort: nextNodePort++ };
  }

  async function createService(name: string, annotations: Record<string, string>, ports: ServicePort[], spec: Partial<NonNullable<KubeService['spec']>> = {}): Promise<KubeService> {
    return kube().client.createService({
      metadata: { name, namespace: 'default', annotations },
      spec: { type: 'LoadBalancer', selector: { app: name }, ports, ...spec },
    });
  }

  function waitForHostname(name: string, hostname?: () => Promise<string | undefined>): Promise<KubeService> {
    return kube().waitFor(`service ${name} to publish ${hostname ? 'the expected' : 'a'} load balancer hostname`, async (observe) => {
      const service = await kube().client.getService('default', name);
      const published = service.status?.loadBalancer?.ingress?.[0]?.hostname;
      const expected = hostname ? await hostname() : undefined;
      observe({ published, expected });
      return published !== undefined && (expected === undefined || published === expected) ? service : undefined;
    });
  }

  async function deleteService(name: string): Promise<void> {
    await kube().client.deleteService('default', name);
    await kube().waitFor(`service ${name} to be finalized and gone`, async () => (await kube().client.findService('default', name)) === undefined);
  }

  beforeAll(async () => {
    await driver.start();
    const side = driver.cloudSide();
    reader = new AwsCloudReader(side.endpoint, side.region);
    cluster = await TestCluster.start({ manifestsOverlay: 'aws' });
    await cluster.startCcm(driver.ccmProcess(), { label: 'aws-ccm' });
    for (const index of [1, 2]) {
      const instance = await driver.createInstance(`aws-e2e-${index}`);
      const podCidr = `10.244.${index}.0/24`;
      await registerNode(cluster.client, { name: instance.nodeName, podCidrs: [podCidr] });
      nodes.push({ name: instance.nodeName, instanceId: instance.expectedProviderId.split('/').at(-1) ?? '', podCidr });
    }
    for (const node of nodes) {
      await cluster.waitFor(`node ${node.name} to be initialized`, async () => isInitialized(await kube().client.getNode(node.name)));
    }
    initialNodeRules = await nodeRules();
  });

  afterAll(async () => {
    try {
      await cluster?.close();
    } finally {
      reader?.destroy();
      await driver.stop();
    }
  });

  beforeEach((context) => {
    context.onTestFailed(() => {
      if (cluster !== undefined) console.error(`CCM output for failed test "${context.task.name}":\n${cluster.report(300)}`);
    });
  });

  it('(a) NLB: owned NLB, a listener and a target group per port with the nodes as targets, annotated health checks, node rules', async () => {
    const ports = [port('http', 80), port('https', 443)];
    const created = await createService(
      'nlb',
      {
        [`${P}aws-load-balancer-type`]: 'nlb',
        [`${P}aws-load-balancer-healthcheck-protocol`]: 'http',
        [`${P}aws-load-balancer-healthcheck-path`]: '/healthz',
        [`${P}aws-load-balancer-healthcheck-interval`]: '10',
        [`${P}aws-load-balancer-healthcheck-healthy-threshold`]: '2',
        [`${P}aws-load-balancer-healthcheck-unhealthy-threshold`]: '4',
      },
      ports,
      { loadBalancerSourceRanges: [CLIENT_RANGE] },
    );
    const name = loadBalancerName(created.metadata.uid ?? '');
    const service = await waitForHostname('nlb');
    const view = (await cloud().network(name)) as NetworkView;
    expect(view).toBeDefined();
    expect(view.loadBalancer).toMatchObject({ Type: 'network', Scheme: 'internet-facing', DNSName: service.status?.loadBalancer?.ingress?.[0]?.hostname });
    expect(view.tags).toMatchObject({ [`kubernetes.io/cluster/${driver.clusterId}`]: 'owned', 'kubernetes.io/service-name': 'default/nlb' });

    const listeners = [...view.listeners].sort((left, right) => (left.Port ?? 0) - (right.Port ?? 0));
    expect(listeners.map((listener) => [listener.Port, listener.Protocol])).toEqual([
      [80, 'TCP'],
      [443, 'TCP'],
    ]);
    expect(view.targetGroups).toHaveLength(2);
    for (const [index, listener] of listeners.entries()) {
      const nodePort = ports[index]?.nodePort;
      const [action] = listener.DefaultActions ?? [];
      expect(action?.Type).toBe('forward');
      const target = view.targetGroups.find((candidate) => candidate.group.TargetGroupArn === action?.TargetGroupArn);
      expect(target, `target group of listener ${listener.Port}`).toBeDefined();
      expect(target?.group).toMatchObject({
        Protocol: 'TCP',
        Port: nodePort,
        TargetType: 'instance',
        VpcId: network().vpcId,
        HealthCheckProtocol: 'HTTP',
        HealthCheckPort: 'traffic-port',
        HealthCheckPath: '/healthz',
        HealthCheckIntervalSeconds: 10,
        HealthyThresholdCount: 2,
        UnhealthyThresholdCount: 4,
      });
      expect(target?.tags).toMatchObject({ [`kubernetes.io/cluster/${driver.clusterId}`]: 'owned', 'kubernetes.io/service-name': 'default/nlb' });
      expect(target?.targets).toEqual(instanceIds().map((id) => `${id}:${nodePort}`).sort());
    }

    const subnetIds = (view.loadBalancer.AvailabilityZones ?? []).map((zone) => zone.SubnetId ?? '');
    const subnetCidrs = await cloud().subnetCidrs(subnetIds);
    expect(subnetCidrs).toEqual(['10.0.1.0/24', '10.0.2.0/24']);
    const rules = await nodeRules();
    const ours = (kind: string) => sortRules(rules.filter((rule) => rule.description === `kubernetes.io/rule/nlb/${kind}=${name}`));
    const nodePorts = ports.map((entry) => entry.nodePort ?? 0);
    expect(ours('client')).toEqual(sortRules(nodePorts.map((nodePort) => ({ protocol: 'tcp', fromPort: nodePort, toPort: nodePort, source: CLIENT_RANGE, description: `kubernetes.io/rule/nlb/client=${name}` }))));
    expect(ours('health')).toEqual(
      sortRules(nodePorts.flatMap((nodePort) => subnetCidrs.map((cidr) => ({ protocol: 'tcp', fromPort: nodePort, toPort: nodePort, source: cidr, description: `kubernetes.io/rule/nlb/health=${name}` })))),
    );
    expect(rules.filter((rule) => rule.description === 'kubernetes.io/rule/nlb/mtu')).toEqual([
      { protocol: 'icmp', fromPort: 3, toPort: 4, source: CLIENT_RANGE, description: 'kubernetes.io/rule/nlb/mtu' },
    ]);
  });

  it('(b) Classic ELB with annotations: scheme, listeners, instances, health check, attributes, its security group and the node rule', async () => {
    const ports = [port('http', 80), port('alt', 8080)];
    const created = await createService(
      'classic',
      {
        [`${P}aws-load-balancer-internal`]: 'true',
        [`${P}aws-load-balancer-healthcheck-interval`]: '15',
        [`${P}aws-load-balancer-cross-zone-load-balancing-enabled`]: 'true',
        [`${P}aws-load-balancer-connection-idle-timeout`]: '120',
      },
      ports,
    );
    const name = loadBalancerName(created.metadata.uid ?? '');
    const service = await waitForHostname('classic');
    const view = await cloud().classic(name);
    expect(view).toBeDefined();
    const description = view?.description;
    expect(description?.Scheme).toBe('internal');
    expect(description?.DNSName).toBe(service.status?.loadBalancer?.ingress?.[0]?.hostname);
    expect(view?.tags).toMatchObject({ [`kubernetes.io/cluster/${driver.clusterId}`]: 'owned', 'kubernetes.io/service-name': 'default/classic' });
    const listeners = (description?.ListenerDescriptions ?? []).map((entry) => entry.Listener).sort((left, right) => (left?.LoadBalancerPort ?? 0) - (right?.LoadBalancerPort ?? 0));
    expect(listeners.map((listener) => [listener?.Protocol, listener?.LoadBalancerPort, listener?.InstanceProtocol, listener?.InstancePort])).toEqual([
      ['TCP', 80, 'TCP', ports[0]?.nodePort],
      ['TCP', 8080, 'TCP', ports[1]?.nodePort],
    ]);
    expect((description?.Instances ?? []).map((instance) => instance.InstanceId).sort()).toEqual(instanceIds());
    expect(description?.HealthCheck).toMatchObject({ Target: `TCP:${ports[0]?.nodePort}`, Interval: 15, HealthyThreshold: 2, UnhealthyThreshold: 6, Timeout: 5 });
    expect(view?.attributes?.CrossZoneLoadBalancing?.Enabled).toBe(true);
    expect(view?.attributes?.ConnectionSettings?.IdleTimeout).toBe(120);

    const group = await cloud().securityGroupByName(network().vpcId, `k8s-elb-${name}`);
    expect(group?.GroupId).toBeDefined();
    expect(description?.SecurityGroups).toEqual([group?.GroupId]);
    expect(Object.fromEntries((group?.Tags ?? []).map((tag) => [tag.Key, tag.Value]))).toMatchObject({ [`kubernetes.io/cluster/${driver.clusterId}`]: 'owned' });
    expect(sortRules(flattenRules(group?.IpPermissions).map((rule) => ({ ...rule, description: undefined })))).toEqual(
      sortRules([
        { protocol: 'tcp', fromPort: 80, toPort: 80, source: '0.0.0.0/0', description: undefined },
        { protocol: 'tcp', fromPort: 8080, toPort: 8080, source: '0.0.0.0/0', description: undefined },
        { protocol: 'icmp', fromPort: 3, toPort: 4, source: '0.0.0.0/0', description: undefined },
      ]),
    );
    expect((await nodeRules()).filter((rule) => rule.source === group?.GroupId).map((rule) => rule.protocol)).toEqual(['-1']);
  });

  it('(c) an invalid annotation value: a Warning event naming it, no load balancer, and the controller carries on', async () => {
    const key = `${P}aws-load-balancer-healthcheck-interval`;
    const bad = await createService('bad-interval', { [key]: 'abc' }, [port('http', 80)]);
    const warning = await kube().waitFor('a SyncLoadBalancerFailed warning on default/bad-interval', async (observe) => {
      const events = await kube().client.eventsFor('Service', 'bad-interval', 'default');
      observe(events.map((event) => `${event.type} ${event.reason}: ${event.message}`));
      return events.find((event) => event.type === 'Warning' && event.reason === 'SyncLoadBalancerFailed');
    });
    expect(warning.message).toContain(key);
    expect(warning.message).toContain('"abc"');

    await createService('after-bad', {}, [port('http', 80)]);
    await waitForHostname('after-bad');
    const name = loadBalancerName(bad.metadata.uid ?? '');
    expect(await cloud().classic(name)).toBeUndefined();
    expect(await cloud().network(name)).toBeUndefined();
    expect(await cloud().securityGroupByName(network().vpcId, `k8s-elb-${name}`)).toBeUndefined();
    expect((await kube().client.getService('default', 'bad-interval')).status?.loadBalancer?.ingress ?? []).toEqual([]);
    expect(kube().unexpectedExit()).toBeUndefined();
  });

  it('(d) changing the type from classic to nlb replaces the Classic ELB and removes its security group and node rule', async () => {
    const created = await createService('switch', {}, [port('http', 80)]);
    const name = loadBalancerName(created.metadata.uid ?? '');
    await waitForHostname('switch');
    const classic = await cloud().classic(name);
    const group = await cloud().securityGroupByName(network().vpcId, `k8s-elb-${name}`);
    expect(classic?.description.SecurityGroups).toEqual([group?.GroupId]);
    expect((await nodeRules()).some((rule) => rule.source === group?.GroupId)).toBe(true);

    await kube().client.patchService('default', 'switch', { metadata: { annotations: { [`${P}aws-load-balancer-type`]: 'nlb' } } });
    await waitForHostname('switch', async () => (await cloud().network(name))?.loadBalancer.DNSName);
    await kube().waitFor(`the Classic ELB ${name}, its security group and the node rule to be gone`, async (observe) => {
      const state = {
        classic: (await cloud().classic(name)) !== undefined,
        group: (await cloud().securityGroupByName(network().vpcId, `k8s-elb-${name}`)) !== undefined,
        nodeRule: (await nodeRules()).some((rule) => rule.source === group?.GroupId),
      };
      observe(state);
      return !state.classic && !state.group && !state.nodeRule;
    });
    const nlb = await cloud().network(name);
    expect(nlb?.listeners.map((listener) => listener.Port)).toEqual([80]);
    expect(nlb?.targetGroups.map((target) => target.targets.length)).toEqual([nodes.length]);
  });

  it('(f) routes: one route per pod CIDR in the cluster route table to the instance, source/destination check off', async () => {
    const table = network().routeTableId;
    await kube().waitFor('a route per pod CIDR in the cluster route table', async (observe) => {
      const routes = (await cloud().routes(table)).map((route) => `${route.DestinationCidrBlock} -> ${route.InstanceId}`);
      observe(routes);
      return nodes.every((node) => routes.includes(`${node.podCidr} -> ${node.instanceId}`));
    });
    const instanceRoutes = (await cloud().routes(table)).filter((route) => route.InstanceId !== undefined);
    expect(instanceRoutes.map((route) => [route.DestinationCidrBlock, route.InstanceId]).sort()).toEqual(nodes.map((node) => [node.podCidr, node.instanceId]).sort());
    for (const node of nodes) expect(await cloud().sourceDestCheck(node.instanceId), node.instanceId).toBe(false);
  });

  it('(e) deleting the Services and nodes leaves nothing of ours: no load balancers, target groups, security groups, rules or routes', async () => {
    const services = (await kube().client.listServices('default')).filter((service) => service.spec?.type === 'LoadBalancer');
    expect(services.map((service) => service.metadata.name).sort()).toEqual(['after-bad', 'bad-interval', 'classic', 'nlb', 'switch']);
    for (const service of services) await deleteService(service.metadata.name ?? '');
    for (const service of services) {
      const name = loadBalancerName(service.metadata.uid ?? '');
      expect(await cloud().classic(name), `classic ${name}`).toBeUndefined();
      expect(await cloud().network(name), `nlb ${name}`).toBeUndefined();
    }
    expect(await cloud().allTargetGroups()).toEqual([]);
    expect(sortRules(await nodeRules())).toEqual(sortRules(initialNodeRules));
    expect((await driver.leakedResources()).filter((leak) => !leak.startsWith('route '))).toEqual([]);

    for (const node of nodes) await kube().client.deleteNode(node.name);
    await kube().waitFor('every resource of ours to be gone (routes of deleted nodes included)', async (observe) => {
      const leaked = await driver.leakedResources();
      observe(leaked);
      return leaked.length === 0;
    });
  });
});
