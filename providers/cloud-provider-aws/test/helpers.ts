/** Builders and a harness wiring the provider to in-memory fakes. */
import { createMetricsRegistry } from '@ccm/core/app';
import type { V1Node, V1Service } from '@ccm/core/kube';
import { silentLogger, type LogFields, type Logger } from '@ccm/core/logging';
import type { CloudInitializeContext } from '@ccm/core/provider';
import { InMemoryInformer } from '@ccm/testing/kube';
import { createAwsCloud, type AwsCloud, type AwsCloudOptions } from '../src/aws-cloud.js';
import { FakeEc2 } from './fakes/fake-ec2.js';
import { CallLog } from './fakes/fake-errors.js';
import { FakeElb } from './fakes/fake-elb.js';
import { FakeElbv2 } from './fakes/fake-elbv2.js';
import { FakeMetadata } from './fakes/fake-metadata.js';

export const CLUSTER_ID = 'c1';
export const CLUSTER_TAG = { [`kubernetes.io/cluster/${CLUSTER_ID}`]: 'owned' };
export const SHARED_CLUSTER_TAG = { [`kubernetes.io/cluster/${CLUSTER_ID}`]: 'shared' };
export const VPC = 'vpc-1';

export function makeNode(name: string, options: { providerId?: string; labels?: Record<string, string> } = {}): V1Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: options.labels ?? {} },
    spec: options.providerId === undefined ? {} : { providerID: options.providerId },
  };
}

export interface ServiceOptions {
  name?: string;
  namespace?: string;
  uid?: string;
  annotations?: Record<string, string>;
  ports?: Array<{ name?: string; port: number; nodePort?: number; protocol?: string }>;
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  sessionAffinity?: string;
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
}

export function makeService(options: ServiceOptions = {}): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: options.name ?? 'web',
      namespace: options.namespace ?? 'default',
      uid: options.uid ?? '11111111-2222-3333-4444-555555555555',
      annotations: options.annotations ?? {},
    },
    spec: {
      type: 'LoadBalancer',
      ports: (options.ports ?? [{ name: 'http', port: 80, nodePort: 30080 }]).map((port) => ({ protocol: 'TCP', ...port })),
      ...(options.externalTrafficPolicy === undefined ? {} : { externalTrafficPolicy: options.externalTrafficPolicy }),
      ...(options.healthCheckNodePort === undefined ? {} : { healthCheckNodePort: options.healthCheckNodePort }),
      ...(options.sessionAffinity === undefined ? {} : { sessionAffinity: options.sessionAffinity }),
      ...(options.loadBalancerIP === undefined ? {} : { loadBalancerIP: options.loadBalancerIP }),
      ...(options.loadBalancerSourceRanges === undefined ? {} : { loadBalancerSourceRanges: options.loadBalancerSourceRanges }),
    },
  };
}

/** A logger that keeps every line, for assertions on warnings. */
export class RecordingLogger implements Logger {
  readonly lines: Array<{ level: string; message: string; fields?: LogFields }> = [];
  error(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'error', message, ...(fields ? { fields } : {}) });
  }
  warn(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'warn', message, ...(fields ? { fields } : {}) });
  }
  info(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'info', message, ...(fields ? { fields } : {}) });
  }
  verbose(level: number, message: string, fields?: LogFields): void {
    this.lines.push({ level: `v${level}`, message, ...(fields ? { fields } : {}) });
  }
  child(): Logger {
    return this;
  }
  warnings(): string[] {
    return this.lines.filter((line) => line.level === 'warn').map((line) => line.message);
  }
}

export const OFF_AWS_CONFIG = `[Global]
Region = us-west-2
VPC = ${VPC}
SubnetID = subnet-a1
KubernetesClusterID = ${CLUSTER_ID}
`;

export interface Harness {
  cloud: AwsCloud;
  ec2: FakeEc2;
  elb: FakeElb;
  elbv2: FakeElbv2;
  metadata: FakeMetadata;
  logger: RecordingLogger;
  /** Every call made to any fake, in order. */
  operations(): string[];
  mutations(): string[];
  clearLogs(): void;
}

/**
 * A cloud over fakes with a typical VPC: two public subnets (a, b) with an IGW route, one
 * private subnet (c), a cluster route table, a node security group and no instances yet.
 */
export async function createHarness(
  configText = OFF_AWS_CONFIG,
  options: AwsCloudOptions & { seed?: boolean; metadata?: FakeMetadata; prepare?: (ec2: FakeEc2) => void } = {},
): Promise<Harness> {
  const log = new CallLog();
  const ec2 = new FakeEc2(log);
  const elb = new FakeElb(log, ec2);
  const elbv2 = new FakeElbv2(log, ec2);
  const metadata = options.metadata ?? new FakeMetadata();
  const logger = new RecordingLogger();
  if (options.seed !== false) seedNetwork(ec2);
  options.prepare?.(ec2);
  const cloud = await createAwsCloud(
    configText,
    { logger, metrics: createMetricsRegistry() },
    {
      ports: { ec2, elb, elbv2, metadata },
      apiBudget: { qps: 1_000_000, burst: 1_000_000, initialBackoffMs: 0, ...options.apiBudget },
      retry: { sleep: async () => {}, ...options.retry },
      securityGroupTiming: { sleep: async () => {}, duplicateRetries: 3, duplicateRetryDelayMs: 0, deleteAttempts: 2, deleteRetryDelayMs: 0, deleteRequeueMs: 5000 },
      createNodeDirectory: options.createNodeDirectory,
      ...(options.environment === undefined ? {} : { environment: options.environment }),
    },
  );
  return {
    cloud,
    ec2,
    elb,
    elbv2,
    metadata,
    logger,
    operations: () => log.operations(),
    mutations: () => log.mutations(),
    clearLogs: () => log.clear(),
  };
}

export function seedNetwork(ec2: FakeEc2): void {
  ec2.addSubnet({ subnetId: 'subnet-a1', vpcId: VPC, availabilityZone: 'us-west-2a', cidrBlock: '10.0.1.0/24', tags: { ...SHARED_CLUSTER_TAG, 'kubernetes.io/role/elb': '1' } });
  ec2.addSubnet({ subnetId: 'subnet-b1', vpcId: VPC, availabilityZone: 'us-west-2b', cidrBlock: '10.0.2.0/24', tags: { ...SHARED_CLUSTER_TAG } });
  ec2.addSubnet({ subnetId: 'subnet-c1', vpcId: VPC, availabilityZone: 'us-west-2c', cidrBlock: '10.0.3.0/24', tags: { ...SHARED_CLUSTER_TAG, 'kubernetes.io/role/internal-elb': '1' } });
  ec2.addRouteTable({
    routeTableId: 'rtb-public',
    vpcId: VPC,
    associations: [{ subnetId: 'subnet-a1', main: false }, { subnetId: 'subnet-b1', main: false }],
    routes: [{ destinationCidrBlock: '10.0.0.0/16', gatewayId: 'local', state: 'active' }, { destinationCidrBlock: '0.0.0.0/0', gatewayId: 'igw-1', state: 'active' }],
  });
  ec2.addRouteTable({
    routeTableId: 'rtb-main',
    vpcId: VPC,
    associations: [{ main: true }],
    routes: [{ destinationCidrBlock: '10.0.0.0/16', gatewayId: 'local', state: 'active' }],
    tags: { ...CLUSTER_TAG },
  });
  ec2.addSecurityGroup({ groupId: 'sg-nodes', groupName: 'nodes', vpcId: VPC, tags: { ...CLUSTER_TAG } });
}

let instanceCounter = 0;

/** Adds a running cluster instance in the node security group and returns its Node. */
export function addNodeInstance(ec2: FakeEc2, options: { zone?: string; privateIp?: string; tags?: Record<string, string>; state?: string; groups?: string[] } = {}): { node: V1Node; instanceId: string } {
  instanceCounter++;
  const instanceId = `i-${instanceCounter.toString(16).padStart(17, '0')}`;
  const privateIp = options.privateIp ?? `10.0.1.${10 + instanceCounter}`;
  const zone = options.zone ?? 'us-west-2a';
  const privateDnsName = `ip-${privateIp.replaceAll('.', '-')}.us-west-2.compute.internal`;
  ec2.addInstance({
    instanceId,
    instanceType: 't3.medium',
    state: options.state ?? 'running',
    availabilityZone: zone,
    privateDnsName,
    privateIpAddress: privateIp,
    vpcId: VPC,
    subnetId: 'subnet-a1',
    securityGroups: (options.groups ?? ['sg-nodes']).map((groupId) => ({ groupId, groupName: groupId })),
    networkInterfaces: [{ networkInterfaceId: `eni-${instanceCounter}`, status: 'in-use', deviceIndex: 0, privateIpAddresses: [privateIp], ipv6Addresses: [] }],
    tags: options.tags ?? { ...CLUSTER_TAG },
  });
  return { node: makeNode(privateDnsName, { providerId: `aws:///${zone}/${instanceId}` }), instanceId };
}

export { silentLogger };

/** Narrows an optional result in tests, failing loudly when it is missing. */
export function defined<T>(value: T | undefined, what = 'value'): T {
  if (value === undefined) throw new Error(`expected a ${what}`);
  return value;
}

/** What the CCM hands `initialize`: a Node informer the test feeds (`nodes.deliverAdd`), no kube client. */
export function initializeContext(nodes = new InMemoryInformer<V1Node>()): CloudInitializeContext & { informers: { nodes: InMemoryInformer<V1Node> } } {
  return {
    clientBuilder: {
      kubeConfig: () => {
        throw new Error('the AWS provider builds no kube client of its own');
      },
    },
    logger: silentLogger,
    signal: new AbortController().signal,
    informers: {
      nodes,
      secrets: () => {
        throw new Error('the AWS provider reads no Secrets');
      },
    },
    eventRecorder: () => {
      throw new Error('the AWS provider records no events of its own');
    },
  };
}
