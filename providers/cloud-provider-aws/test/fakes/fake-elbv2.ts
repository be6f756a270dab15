/** An in-memory ELBv2 (NLB) port. */
import type {
  CreateNetworkLoadBalancerRequest,
  CreateTargetGroupRequest,
  Elbv2Port,
  ListenerSpec,
  NetworkListener,
  NetworkLoadBalancer,
  Target,
  TargetGroup,
  TargetGroupHealthCheck,
  TargetHealth,
} from '../../src/ports/elbv2-port.js';
import type { Tags } from '../../src/tags.js';
import type { FakeNetwork } from './fake-ec2.js';
import { awsError, CallLog } from './fake-errors.js';

/** Load balancer and target group names: 1-32 letters, digits and hyphens, no hyphen first or last. */
const RESOURCE_NAME = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,30}[a-zA-Z0-9])?$/;

/** The attributes of a network load balancer ELBv2 accepts (others: InvalidConfigurationRequest). */
const NETWORK_LOAD_BALANCER_ATTRIBUTES: ReadonlySet<string> = new Set([
  'access_logs.s3.enabled',
  'access_logs.s3.bucket',
  'access_logs.s3.prefix',
  'deletion_protection.enabled',
  'load_balancing.cross_zone.enabled',
  'dns_record.client_routing_policy',
  'ipv6.deny_all_igw_traffic',
  'zonal_shift.config.enabled',
]);

function checkName(operation: string, what: string, name: string): void {
  if (!RESOURCE_NAME.test(name) || (what === 'Load balancer' && name.startsWith('internal-'))) {
    throw awsError(operation, 'ValidationError', `${what} name '${name}': 1 to 32 letters, digits and hyphens, not starting or ending with a hyphen`);
  }
}

const sameSet = (left: readonly string[], right: readonly string[]): boolean => JSON.stringify([...left].sort()) === JSON.stringify([...right].sort());

export class FakeElbv2 implements Elbv2Port {
  readonly log: CallLog;
  /** EC2 behind the load balancers: subnets and VPCs that do not exist are refused. Without it, every one exists. */
  readonly #network: FakeNetwork | undefined;

  constructor(log: CallLog = new CallLog(), network?: FakeNetwork) {
    this.log = log;
    this.#network = network;
  }
  readonly loadBalancers = new Map<string, NetworkLoadBalancer>();
  readonly targetGroups = new Map<string, TargetGroup>();
  readonly listeners = new Map<string, NetworkListener & { loadBalancerArn: string }>();
  readonly targets = new Map<string, TargetHealth[]>();
  readonly tags = new Map<string, Record<string, string>>();
  readonly loadBalancerAttributes = new Map<string, Record<string, string>>();
  readonly targetGroupAttributes = new Map<string, Record<string, string>>();
  #next = 1;

  #arn(kind: string, name: string): string {
    return `arn:aws:elasticloadbalancing:us-west-2:123456789012:${kind}/${name}/${(this.#next++).toString(16).padStart(16, '0')}`;
  }

  seedLoadBalancer(loadBalancer: Partial<NetworkLoadBalancer> & { name: string }, tags: Tags = {}): NetworkLoadBalancer {
    const arn = this.#arn('loadbalancer/net', loadBalancer.name);
    const full: NetworkLoadBalancer = { arn, type: 'network', state: 'active', dnsName: `${loadBalancer.name}-abc.elb.us-west-2.amazonaws.com`, vpcId: 'vpc-1', securityGroups: [], subnetIds: [], ...loadBalancer };
    this.loadBalancers.set(full.arn, full);
    this.tags.set(full.arn, { ...tags });
    this.loadBalancerAttributes.set(full.arn, { 'load_balancing.cross_zone.enabled': 'false', 'access_logs.s3.enabled': 'false' });
    return full;
  }

  #loadBalancer(operation: string, arn: string): NetworkLoadBalancer {
    const found = this.loadBalancers.get(arn);
    if (!found) throw awsError(operation, 'LoadBalancerNotFound');
    return found;
  }

  #group(operation: string, arn: string): TargetGroup {
    const found = this.targetGroups.get(arn);
    if (!found) throw awsError(operation, 'TargetGroupNotFound');
    return found;
  }

  async describeLoadBalancerByName(name: string): Promise<NetworkLoadBalancer | undefined> {
    this.log.record('elbv2.describeLoadBalancerByName', { name });
    const found = [...this.loadBalancers.values()].find((loadBalancer) => loadBalancer.name === name);
    return found ? structuredClone(found) : undefined;
  }

  async createLoadBalancer(request: CreateNetworkLoadBalancerRequest): Promise<NetworkLoadBalancer> {
    this.log.record('elbv2.createLoadBalancer', request);
    checkName('elbv2.createLoadBalancer', 'Load balancer', request.name);
    if (request.subnetMappings.length === 0) throw awsError('elbv2.createLoadBalancer', 'SubnetNotFound', 'The specified subnet does not exist.');
    const scheme = request.internal ? 'internal' : 'internet-facing';
    const subnetIds = request.subnetMappings.map((mapping) => mapping.subnetId);
    const unknownSubnet = subnetIds.find((subnetId) => this.#network !== undefined && this.#network.vpcOfSubnet(subnetId) === undefined);
    if (unknownSubnet !== undefined) throw awsError('elbv2.createLoadBalancer', 'InvalidSubnetID.NotFound', `The subnet ID '${unknownSubnet}' does not exist`);
    const existing = [...this.loadBalancers.values()].find((loadBalancer) => loadBalancer.name === request.name);
    if (existing !== undefined) {
      // Idempotent: the same settings answer the existing load balancer.
      if (existing.scheme === scheme && sameSet(existing.subnetIds, subnetIds) && sameSet(existing.securityGroups, request.securityGroups ?? [])) return structuredClone(existing);
      throw awsError('elbv2.createLoadBalancer', 'DuplicateLoadBalancerName');
    }
    const created = this.seedLoadBalancer(
      {
        name: request.name,
        scheme,
        state: 'provisioning',
        ...(this.#network === undefined ? {} : { vpcId: this.#network.vpcOfSubnet(subnetIds[0] as string) ?? '' }),
        securityGroups: [...(request.securityGroups ?? [])],
        subnetIds,
      },
      request.tags,
    );
    return structuredClone(created);
  }

  async deleteLoadBalancer(arn: string): Promise<void> {
    this.log.record('elbv2.deleteLoadBalancer', { arn });
    // ELBv2 answers success for a load balancer that is not there.
    if (!this.loadBalancers.delete(arn)) return;
    for (const [listenerArn, listener] of this.listeners) if (listener.loadBalancerArn === arn) this.listeners.delete(listenerArn);
    for (const group of this.targetGroups.values()) group.loadBalancerArns = group.loadBalancerArns.filter((candidate) => candidate !== arn);
  }

  async setSecurityGroups(arn: string, groups: readonly string[]): Promise<void> {
    this.log.record('elbv2.setSecurityGroups', { arn, groups });
    this.#loadBalancer('elbv2.setSecurityGroups', arn).securityGroups = [...groups];
  }

  async describeLoadBalancerAttributes(arn: string): Promise<Record<string, string>> {
    this.log.record('elbv2.describeLoadBalancerAttributes', { arn });
    this.#loadBalancer('elbv2.describeLoadBalancerAttributes', arn);
    return { ...this.loadBalancerAttributes.get(arn) };
  }

  async modifyLoadBalancerAttributes(arn: string, attributes: Readonly<Record<string, string>>): Promise<void> {
    this.log.record('elbv2.modifyLoadBalancerAttributes', { arn, attributes });
    this.#loadBalancer('elbv2.modifyLoadBalancerAttributes', arn);
    const unknown = Object.keys(attributes).find((key) => !NETWORK_LOAD_BALANCER_ATTRIBUTES.has(key));
    if (unknown !== undefined) throw awsError('elbv2.modifyLoadBalancerAttributes', 'InvalidConfigurationRequest', `Key ${unknown} not valid`);
    this.loadBalancerAttributes.set(arn, { ...this.loadBalancerAttributes.get(arn), ...attributes });
  }

  async describeTags(arns: readonly string[]): Promise<Map<string, Tags>> {
    this.log.record('elbv2.describeTags', { arns });
    return new Map(arns.map((arn) => [arn, { ...this.tags.get(arn) }]));
  }

  async addTags(arns: readonly string[], tags: Tags): Promise<void> {
    this.log.record('elbv2.addTags', { arns, tags });
    if (Object.keys(tags).length === 0) throw awsError('elbv2.addTags', 'ValidationError', 'Tags: at least one member is required');
    for (const arn of arns) {
      if (this.loadBalancers.has(arn) || this.targetGroups.has(arn) || this.listeners.has(arn)) continue;
      if (arn.includes(':targetgroup/')) throw awsError('elbv2.addTags', 'TargetGroupNotFound');
      if (arn.includes(':listener/')) throw awsError('elbv2.addTags', 'ListenerNotFound');
      throw awsError('elbv2.addTags', 'LoadBalancerNotFound');
    }
    for (const arn of arns) this.tags.set(arn, { ...this.tags.get(arn), ...tags });
  }

  async createTargetGroup(request: CreateTargetGroupRequest): Promise<TargetGroup> {
    this.log.record('elbv2.createTargetGroup', request);
    checkName('elbv2.createTargetGroup', 'Target group', request.name);
    if (!Number.isInteger(request.port) || request.port < 1 || request.port > 65535) throw awsError('elbv2.createTargetGroup', 'ValidationError', `Port ${request.port}: 1 to 65535`);
    if (this.#network !== undefined && !this.#network.hasVpc(request.vpcId)) throw awsError('elbv2.createTargetGroup', 'ValidationError', `The VPC ID '${request.vpcId}' is not found`);
    const existing = [...this.targetGroups.values()].find((group) => group.name === request.name);
    if (existing !== undefined) {
      // Idempotent: the same settings answer the existing target group.
      const same =
        existing.protocol === request.protocol && existing.port === request.port && existing.vpcId === request.vpcId && JSON.stringify(existing.healthCheck) === JSON.stringify({ ...request.healthCheck });
      if (same) return structuredClone(existing);
      throw awsError('elbv2.createTargetGroup', 'DuplicateTargetGroupName');
    }
    const arn = this.#arn('targetgroup', request.name);
    const group: TargetGroup = {
      arn,
      name: request.name,
      protocol: request.protocol,
      port: request.port,
      vpcId: request.vpcId,
      targetType: 'instance',
      healthCheck: { ...request.healthCheck },
      loadBalancerArns: [],
    };
    this.targetGroups.set(arn, group);
    this.targets.set(arn, []);
    this.tags.set(arn, { ...request.tags });
    this.targetGroupAttributes.set(arn, { 'deregistration_delay.timeout_seconds': '300' });
    return structuredClone(group);
  }

  async describeTargetGroupsOfLoadBalancer(loadBalancerArn: string): Promise<TargetGroup[]> {
    this.log.record('elbv2.describeTargetGroupsOfLoadBalancer', { loadBalancerArn });
    this.#loadBalancer('elbv2.describeTargetGroups', loadBalancerArn);
    return structuredClone([...this.targetGroups.values()].filter((group) => group.loadBalancerArns.includes(loadBalancerArn)));
  }

  async describeAllTargetGroups(): Promise<TargetGroup[]> {
    this.log.record('elbv2.describeAllTargetGroups', {});
    return structuredClone([...this.targetGroups.values()]);
  }

  async describeTargetGroupByName(name: string): Promise<TargetGroup | undefined> {
    this.log.record('elbv2.describeTargetGroupByName', { name });
    const found = [...this.targetGroups.values()].find((group) => group.name === name);
    return found ? structuredClone(found) : undefined;
  }

  async modifyTargetGroupHealthCheck(arn: string, healthCheck: Partial<TargetGroupHealthCheck>): Promise<void> {
    this.log.record('elbv2.modifyTargetGroupHealthCheck', { arn, healthCheck });
    const group = this.#group('elbv2.modifyTargetGroupHealthCheck', arn);
    group.healthCheck = { ...group.healthCheck, ...healthCheck };
  }

  async deleteTargetGroup(arn: string): Promise<void> {
    this.log.record('elbv2.deleteTargetGroup', { arn });
    this.#group('elbv2.deleteTargetGroup', arn);
    if ([...this.listeners.values()].some((listener) => listener.targetGroupArn === arn)) throw awsError('elbv2.deleteTargetGroup', 'ResourceInUse');
    this.targetGroups.delete(arn);
    this.targets.delete(arn);
  }

  async describeTargetHealth(targetGroupArn: string): Promise<TargetHealth[]> {
    this.log.record('elbv2.describeTargetHealth', { targetGroupArn });
    this.#group('elbv2.describeTargetHealth', targetGroupArn);
    return structuredClone(this.targets.get(targetGroupArn) ?? []);
  }

  async registerTargets(targetGroupArn: string, targets: readonly Target[]): Promise<void> {
    this.log.record('elbv2.registerTargets', { targetGroupArn, targets });
    this.#group('elbv2.registerTargets', targetGroupArn);
    const current = this.targets.get(targetGroupArn) ?? [];
    for (const target of targets) if (!current.some((existing) => existing.id === target.id && existing.port === target.port)) current.push({ ...target, state: 'healthy' });
    this.targets.set(targetGroupArn, current);
  }

  async deregisterTargets(targetGroupArn: string, targets: readonly Target[]): Promise<void> {
    this.log.record('elbv2.deregisterTargets', { targetGroupArn, targets });
    this.#group('elbv2.deregisterTargets', targetGroupArn);
    const registered = this.targets.get(targetGroupArn) ?? [];
    const absent = targets.find((target) => !registered.some((existing) => existing.id === target.id && existing.port === target.port));
    if (absent !== undefined) throw awsError('elbv2.deregisterTargets', 'InvalidTarget', `The target ${absent.id}:${absent.port} is not registered`);
    this.targets.set(targetGroupArn, (this.targets.get(targetGroupArn) ?? []).filter((existing) => !targets.some((target) => target.id === existing.id && target.port === existing.port)));
  }

  async describeTargetGroupAttributes(arn: string): Promise<Record<string, string>> {
    this.log.record('elbv2.describeTargetGroupAttributes', { arn });
    this.#group('elbv2.describeTargetGroupAttributes', arn);
    return { ...this.targetGroupAttributes.get(arn) };
  }

  async modifyTargetGroupAttributes(arn: string, attributes: Readonly<Record<string, string>>): Promise<void> {
    this.log.record('elbv2.modifyTargetGroupAttributes', { arn, attributes });
    this.#group('elbv2.modifyTargetGroupAttributes', arn);
    this.targetGroupAttributes.set(arn, { ...this.targetGroupAttributes.get(arn), ...attributes });
  }

  #attach(loadBalancerArn: string, targetGroupArn: string): void {
    const group = this.#group('elbv2.createListener', targetGroupArn);
    if (!group.loadBalancerArns.includes(loadBalancerArn)) group.loadBalancerArns.push(loadBalancerArn);
  }

  async createListener(loadBalancerArn: string, listener: ListenerSpec, tags: Tags): Promise<NetworkListener> {
    this.log.record('elbv2.createListener', { loadBalancerArn, listener, tags });
    this.#loadBalancer('elbv2.createListener', loadBalancerArn);
    const taken = [...this.listeners.values()].find((existing) => existing.loadBalancerArn === loadBalancerArn && existing.port === listener.port);
    if (taken !== undefined) {
      // Idempotent: the same settings answer the existing listener.
      const same =
        taken.protocol === listener.protocol &&
        taken.targetGroupArn === listener.targetGroupArn &&
        taken.sslPolicy === listener.sslPolicy &&
        (taken.certificates[0]?.certificateArn ?? undefined) === listener.certificateArn;
      if (!same) throw awsError('elbv2.createListener', 'DuplicateListener');
      const { loadBalancerArn: _omit, ...result } = taken;
      return structuredClone(result);
    }
    this.#attach(loadBalancerArn, listener.targetGroupArn);
    const arn = this.#arn('listener/net', String(listener.port));
    const created = {
      arn,
      loadBalancerArn,
      port: listener.port,
      protocol: listener.protocol,
      ...(listener.sslPolicy === undefined ? {} : { sslPolicy: listener.sslPolicy }),
      certificates: listener.certificateArn === undefined ? [] : [{ certificateArn: listener.certificateArn }],
      targetGroupArn: listener.targetGroupArn,
    };
    this.listeners.set(arn, created);
    this.tags.set(arn, { ...tags });
    const { loadBalancerArn: _omit, ...result } = created;
    return structuredClone(result);
  }

  async describeListeners(loadBalancerArn: string): Promise<NetworkListener[]> {
    this.log.record('elbv2.describeListeners', { loadBalancerArn });
    this.#loadBalancer('elbv2.describeListeners', loadBalancerArn);
    return structuredClone(
      [...this.listeners.values()].filter((listener) => listener.loadBalancerArn === loadBalancerArn).map(({ loadBalancerArn: _omit, ...listener }) => listener),
    );
  }

  async modifyListener(listenerArn: string, listener: ListenerSpec): Promise<void> {
    this.log.record('elbv2.modifyListener', { listenerArn, listener });
    const existing = this.listeners.get(listenerArn);
    if (!existing) throw awsError('elbv2.modifyListener', 'ListenerNotFound');
    this.#attach(existing.loadBalancerArn, listener.targetGroupArn);
    const previous = existing.targetGroupArn;
    existing.port = listener.port;
    existing.protocol = listener.protocol;
    existing.targetGroupArn = listener.targetGroupArn;
    existing.certificates = listener.certificateArn === undefined ? [] : [{ certificateArn: listener.certificateArn }];
    if (listener.sslPolicy === undefined) delete existing.sslPolicy;
    else existing.sslPolicy = listener.sslPolicy;
    if (previous !== undefined && previous !== listener.targetGroupArn && ![...this.listeners.values()].some((other) => other.targetGroupArn === previous)) {
      const group = this.targetGroups.get(previous);
      if (group) group.loadBalancerArns = group.loadBalancerArns.filter((arn) => arn !== existing.loadBalancerArn);
    }
  }

  async deleteListener(listenerArn: string): Promise<void> {
    this.log.record('elbv2.deleteListener', { listenerArn });
    const existing = this.listeners.get(listenerArn);
    if (!existing) throw awsError('elbv2.deleteListener', 'ListenerNotFound');
    this.listeners.delete(listenerArn);
    const previous = existing.targetGroupArn;
    if (previous !== undefined && ![...this.listeners.values()].some((other) => other.targetGroupArn === previous)) {
      const group = this.targetGroups.get(previous);
      if (group) group.loadBalancerArns = group.loadBalancerArns.filter((arn) => arn !== existing.loadBalancerArn);
    }
  }
}
