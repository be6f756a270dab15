/**
 * The SDK adapters against a real moto_server: proves the client wiring, ServiceOverride
 * endpoints, pagination and error mapping end to end (DescribeInstances, CreateRoute, Classic
 * ELB and NLB create/delete). Needs `moto_server`; fails under CI=true without it, skips loudly
 * otherwise.
 */
import { DescribeRouteTablesCommand, DescribeSecurityGroupsCommand, EC2Client, RunInstancesCommand } from '@aws-sdk/client-ec2';
import { DescribeLoadBalancersCommand as DescribeClassicCommand, ElasticLoadBalancingClient } from '@aws-sdk/client-elastic-load-balancing';
import { DescribeListenersCommand, DescribeLoadBalancersCommand, DescribeTargetHealthCommand, DescribeTargetGroupsCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { createMetricsRegistry } from '@ccm/core/app';
import type { V1Node } from '@ccm/core/kube';
import { silentLogger } from '@ccm/core/logging';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAwsCloud, type AwsCloud } from '../../src/aws-cloud.js';
import { createAwsSdkClients } from '../../src/ports/sdk/aws-sdk-clients.js';
import { createSdkEc2Port } from '../../src/ports/sdk/sdk-ec2-port.js';
import { FakeMetadata } from '../fakes/fake-metadata.js';
import { defined, makeService } from '../helpers.js';
import { createMotoNetwork, motoClientConfig, runMotoInstance, type MotoNetwork } from '../support/moto-network.js';
import { motoUnavailableReason, serviceOverrides, startMoto, type RunningMoto } from '../support/moto-server.js';

const REGION = 'us-west-2';
const CLUSTER = 'moto1';
const P = 'service.beta.kubernetes.io/';
const unavailable = motoUnavailableReason();
if (unavailable !== undefined) {
  if (process.env['CI'] === 'true') throw new Error(`CI=true but ${unavailable}`);
  console.warn(`SKIPPING the AWS SDK adapter tests against moto: ${unavailable}`);
}

describe.skipIf(unavailable !== undefined)('SDK adapters against moto_server', () => {
  let moto: RunningMoto;
  let ec2: EC2Client;
  let network: MotoNetwork;
  let cloud: AwsCloud;
  const nodes: V1Node[] = [];
  const savedEnvironment = { ...process.env };

  beforeAll(async () => {
    moto = await startMoto();
    process.env['AWS_ACCESS_KEY_ID'] = 'testing';
    process.env['AWS_SECRET_ACCESS_KEY'] = 'testing';
    delete process.env['AWS_PROFILE'];
    ec2 = new EC2Client(motoClientConfig(moto.endpoint, REGION));
    network = await createMotoNetwork(ec2, REGION, CLUSTER);
    for (const index of [0, 1]) {
      const instance = await runMotoInstance(ec2, network, CLUSTER, index);
      nodes.push({
        metadata: { name: instance.PrivateDnsName ?? '' },
        spec: { providerID: `aws:///${instance.Placement?.AvailabilityZone}/${instance.InstanceId}` },
      });
    }
    const config = `[Global]\nRegion = ${REGION}\nVPC = ${network.vpcId}\nSubnetID = ${network.subnetIds[0]}\nKubernetesClusterID = ${CLUSTER}\n${serviceOverrides(moto.endpoint, REGION)}`;
    cloud = await createAwsCloud(config, { logger: silentLogger, metrics: createMetricsRegistry() });
  }, 90_000);

  afterAll(async () => {
    process.env = savedEnvironment;
    await moto?.stop();
  });

  it('describes instances: metadata, zone ID label, exists and pagination', async () => {
    const node = nodes[0] as V1Node;
    const metadata = defined(await cloud.instancesV2().instanceMetadata(node));
    expect(metadata.providerId).toBe(node.spec?.providerID);
    expect(metadata.instanceType).toBe('t3.medium');
    expect(metadata.zone).toBe(`${REGION}a`);
    expect(metadata.region).toBe(REGION);
    expect(metadata.nodeAddresses.map((address) => address.type)).toEqual(expect.arrayContaining(['InternalIP', 'InternalDNS', 'Hostname']));
    expect(metadata.additionalLabels?.['topology.k8s.aws/zone-id']).toMatch(/^usw2-az\d$/);
    expect(await cloud.instancesV2().instanceExists(node)).toBe(true);
    expect(await cloud.instancesV2().instanceExists({ metadata: { name: 'gone' }, spec: { providerID: `aws:///${REGION}a/i-0000000000000dead` } })).toBe(false);
    const byName = defined(await cloud.instancesV2().instanceMetadata({ metadata: { name: node.metadata?.name ?? '' }, spec: {} }));
    expect(byName.providerId).toBe(node.spec?.providerID);
    const all = await createSdkEc2Port(createAwsSdkClients({ region: REGION, serviceOverrides: [{ name: 'x', service: 'EC2', region: REGION, url: moto.endpoint, signingRegion: REGION, signingName: '', signingMethod: '' }] }).ec2).describeInstances({});
    expect(all.length).toBeGreaterThanOrEqual(2);
  });

  it('tags and untags an instance (CreateTags / DeleteTags: only matching key=value pairs go)', async () => {
    const port = createSdkEc2Port(createAwsSdkClients({ region: REGION, serviceOverrides: [{ name: 'x', service: 'EC2', region: REGION, url: moto.endpoint, signingRegion: REGION, signingName: '', signingMethod: '' }] }).ec2);
    const instanceId = (nodes[1]?.spec?.providerID ?? '').split('/').at(-1) ?? '';
    const tagsOf = async () => (await port.describeInstances({ instanceIds: [instanceId] }))[0]?.tags ?? {};
    await port.createTags({ resourceIds: [instanceId], tags: { team: 'blue', env: 'dev' } });
    expect(await tagsOf()).toMatchObject({ team: 'blue', env: 'dev' });
    await port.deleteTags({ resourceIds: [instanceId], tags: { team: 'blue', env: 'prod' } });
    const after = await tagsOf();
    expect(after['team']).toBeUndefined();
    expect(after['env']).toBe('dev');
    await port.deleteTags({ resourceIds: [instanceId], tags: { env: 'dev' } });
    // moto accepts CreateTags/DeleteTags on unknown instance IDs (EC2 answers InvalidInstanceID.NotFound),
    // so the missing-instance paths are tested on the fake (test/tagging-controller.test.ts).
    await expect(cloud.instanceTags().untag('i-0000000000000dead', { team: 'blue' })).resolves.toBeUndefined();
  });

  it('creates, lists and deletes a route, disabling the source/destination check', async () => {
    const node = nodes[0] as V1Node;
    await cloud.routes().createRoute('kubernetes', 'uid', { name: '', targetNode: node.metadata?.name ?? '', destinationCidr: '10.244.1.0/24' });
    const table = (await ec2.send(new DescribeRouteTablesCommand({ RouteTableIds: [network.routeTableId] }))).RouteTables?.[0];
    expect(table?.Routes?.find((route) => route.DestinationCidrBlock === '10.244.1.0/24')?.InstanceId).toBe(node.spec?.providerID?.split('/').pop());
    expect(await cloud.routes().listRoutes('kubernetes')).toEqual([{ name: 'kubernetes-10.244.1.0/24', destinationCidr: '10.244.1.0/24', targetNode: node.metadata?.name, blackhole: false }]);
    await cloud.routes().deleteRoute('kubernetes', { name: '', targetNode: '', destinationCidr: '10.244.1.0/24' });
    expect(await cloud.routes().listRoutes('kubernetes')).toEqual([]);
  });

  it('creates, re-syncs and deletes a Classic ELB with its security group', async () => {
    const service = makeService({ uid: 'c1a55100-0000-0000-0000-000000000001', annotations: { [`${P}aws-load-balancer-proxy-protocol`]: '*' } });
    const name = cloud.loadBalancer().getLoadBalancerName('kubernetes', service);
    const status = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', service, nodes);
    expect(status.ingress?.[0]?.hostname).toMatch(/elb\.amazonaws\.com$/);
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', service, nodes);
    const elb = new ElasticLoadBalancingClient(motoClientConfig(moto.endpoint, REGION));
    const described = (await elb.send(new DescribeClassicCommand({ LoadBalancerNames: [name] }))).LoadBalancerDescriptions?.[0];
    expect(described?.Instances?.map((instance) => instance.InstanceId).sort()).toEqual(nodes.map((node) => node.spec?.providerID?.split('/').pop()).sort());
    expect(described?.HealthCheck?.Target).toBe('TCP:30080');
    expect(described?.BackendServerDescriptions?.[0]?.PolicyNames).toEqual(['k8s-proxyprotocol-enabled']);
    const groups = await ec2.send(new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'group-name', Values: [`k8s-elb-${name}`] }] }));
    expect(groups.SecurityGroups).toHaveLength(1);
    expect((await cloud.loadBalancer().getLoadBalancer('kubernetes', service)).exists).toBe(true);

    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', service);
    await expect(elb.send(new DescribeClassicCommand({ LoadBalancerNames: [name] }))).rejects.toMatchObject({ Code: 'LoadBalancerNotFound' });
    expect((await ec2.send(new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'group-name', Values: [`k8s-elb-${name}`] }] }))).SecurityGroups).toEqual([]);
  });

  it('without a cluster ID (no KubernetesClusterID, no cluster tag on the instance): creates and deletes a Classic ELB (its security group has no tags) and an NLB', async () => {
    // EC2 and moto refuse a TagSpecification with no tags ("Tag specification must have at least
    // one tag"); an untagged cluster's k8s-elb-<name> group has none, so none may be sent.
    const output = await ec2.send(new RunInstancesCommand({ ImageId: 'ami-12c6146b', InstanceType: 't3.medium', MinCount: 1, MaxCount: 1, SubnetId: network.subnetIds[0] }));
    const selfId = output.Instances?.[0]?.InstanceId ?? '';
    const untagged = await createAwsCloud(`[Global]\nRegion = ${REGION}\n${serviceOverrides(moto.endpoint, REGION)}`, { logger: silentLogger, metrics: createMetricsRegistry() }, {
      ports: { metadata: new FakeMetadata({ region: REGION, instanceId: selfId, availabilityZone: `${REGION}a` }) },
    });
    expect(untagged.hasClusterId()).toBe(false);
    const service = makeService({ uid: 'c1a55100-0000-0000-0000-0000000000aa' });
    const name = untagged.loadBalancer().getLoadBalancerName('kubernetes', service);
    const status = await untagged.loadBalancer().ensureLoadBalancer('kubernetes', service, nodes);
    expect(status.ingress?.[0]?.hostname).toMatch(/elb\.amazonaws\.com$/);
    const groups = (await ec2.send(new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'group-name', Values: [`k8s-elb-${name}`] }] }))).SecurityGroups ?? [];
    expect(groups).toHaveLength(1);
    expect(groups[0]?.Tags ?? []).toEqual([]);
    await untagged.loadBalancer().ensureLoadBalancerDeleted('kubernetes', service);
    expect((await ec2.send(new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'group-name', Values: [`k8s-elb-${name}`] }] }))).SecurityGroups).toEqual([]);

    const nlb = makeService({ uid: 'c1a55100-0000-0000-0000-0000000000bb', annotations: { [`${P}aws-load-balancer-type`]: 'nlb' } });
    const nlbStatus = await untagged.loadBalancer().ensureLoadBalancer('kubernetes', nlb, nodes);
    expect(nlbStatus.ingress?.[0]?.hostname).toBeDefined();
    expect((await untagged.loadBalancer().getLoadBalancer('kubernetes', nlb)).exists).toBe(true);
    await untagged.loadBalancer().ensureLoadBalancerDeleted('kubernetes', nlb);
    expect((await untagged.loadBalancer().getLoadBalancer('kubernetes', nlb)).exists).toBe(false);
  });

  it('creates, re-syncs and deletes an NLB with target groups and listeners', async () => {
    const service = makeService({ uid: 'c1a55100-0000-0000-0000-000000000002', annotations: { [`${P}aws-load-balancer-type`]: 'nlb' } });
    const name = cloud.loadBalancer().getLoadBalancerName('kubernetes', service);
    const status = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', service, nodes);
    expect(status.ingress?.[0]?.hostname).toBeDefined();
    await cloud.loadBalancer().updateLoadBalancer('kubernetes', service, nodes.slice(0, 1));
    const elbv2 = new ElasticLoadBalancingV2Client(motoClientConfig(moto.endpoint, REGION));
    const loadBalancer = (await elbv2.send(new DescribeLoadBalancersCommand({ Names: [name] }))).LoadBalancers?.[0];
    const listeners = (await elbv2.send(new DescribeListenersCommand({ LoadBalancerArn: loadBalancer?.LoadBalancerArn }))).Listeners ?? [];
    expect(listeners.map((listener) => [listener.Port, listener.Protocol])).toEqual([[80, 'TCP']]);
    const groups = (await elbv2.send(new DescribeTargetGroupsCommand({ LoadBalancerArn: loadBalancer?.LoadBalancerArn }))).TargetGroups ?? [];
    expect(groups.map((group) => group.TargetGroupName)).toEqual([expect.stringMatching(/^k8s-default-web-[0-9a-f]{10}$/)]);
    const targets = (await elbv2.send(new DescribeTargetHealthCommand({ TargetGroupArn: groups[0]?.TargetGroupArn }))).TargetHealthDescriptions ?? [];
    expect(targets.map((target) => target.Target?.Id)).toEqual([nodes[0]?.spec?.providerID?.split('/').pop()]);

    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', service);
    await expect(elbv2.send(new DescribeLoadBalancersCommand({ Names: [name] }))).rejects.toMatchObject({ Code: 'LoadBalancerNotFound' });
    expect((await cloud.loadBalancer().getLoadBalancer('kubernetes', service)).exists).toBe(false);
  });
});

describe('ServiceOverride signing', () => {
  it('signs with the override SigningRegion and SigningName against the override URL', async () => {
    const authorizations: string[] = [];
    const server = createServer((request, response) => {
      authorizations.push(request.headers.authorization ?? '');
      response.writeHead(400, { 'content-type': 'text/xml' });
      response.end('<Response><Errors><Error><Code>InvalidParameterValue</Code><Message>stub</Message></Error></Errors></Response>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const clients = createAwsSdkClients({
        region: 'us-west-2',
        credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
        serviceOverrides: [{ name: 'x', service: 'EC2', region: 'us-west-2', url, signingRegion: 'eu-central-9', signingName: 'custom-ec2', signingMethod: '' }],
      });
      await expect(createSdkEc2Port(clients.ec2).describeAvailabilityZones()).rejects.toMatchObject({ kind: 'Invalid', code: 'InvalidParameterValue' });
      expect(authorizations).toHaveLength(1);
      expect(authorizations[0]).toMatch(/Credential=AKIDEXAMPLE\/\d{8}\/eu-central-9\/custom-ec2\/aws4_request/);
    } finally {
      server.close();
    }
  });
});
