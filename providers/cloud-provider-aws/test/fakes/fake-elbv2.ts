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
import { awsError, CallLog } from './fake-errors.js';

export class FakeElbv2 implements Elbv2Port {
  readonly log: CallLog;

  constructor(log: CallLog = new CallLog()) {
    this.log = log;
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
    if ([...this.loadBalancers.values()].some((loadBalancer) => loadBalancer.name === request.name)) throw awsError('elbv2.createLoadBalancer', 'DuplicateLoadBalancerName');
    const created = this.seedLoadBalancer(
      {
        name: request.name,
        scheme: request.internal ? 'internal' : 'internet-facing',
        state: 'provisioning',
        securityGroups: [...(request.securityGroups ?? [])],
        subnetIds: request.subnetMappings.map((mapping) => mapping.subnetId),
      },
      request.tags,
    );
    return structuredClone(created);
  }

  async deleteLoadBalancer(arn: string): Promise<void> {
    this.log.record('elbv2.deleteLoadBalancer', { arn });
    this.#loadBalancer('elbv2.deleteLoadBalancer', arn);
    this.loadBalancers.delete(arn);
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
    this.loadBalancerAttributes.set(arn, { ...this.loadBalancerAttributes.get(arn), ...attributes });
  }

  async describeTags(arns: readonly string[]): Promise<Map<string, Tags>> {
    this.log.record('elbv2.describeTags', { arns });
    return new Map(arns.map((arn) => [arn, { ...this.tags.get(arn) }]));
  }

  async addTags(arns: readonly string[], tags: Tags): Promise<void> {
    this.log.record('elbv2.addTags', { arns, tags });
    for (const arn of arns) this.tags.set(arn, { ...this.tags.get(arn), ...tags });
  }

  async createTargetGroup(request: CreateTargetGroupRequest): Promise<TargetGroup> {
    this.log.record('elbv2.createTargetGroup', request);
    if ([...this.targetGroups.values()].some((group) => group.name === request.name)) throw awsError('elbv2.createTargetGroup', 'DuplicateTargetGroupName');
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
    if ([...this.listeners.values()].some((existing) => existing.loadBalancerArn === loadBalancerArn && existing.port === listener.port)) throw awsError('elbv2.createListener', 'DuplicateListener');
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
