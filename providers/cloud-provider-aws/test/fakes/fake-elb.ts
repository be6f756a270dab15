/** An in-memory Classic ELB port. */
import type {
  ClassicAttributes,
  ClassicHealthCheck,
  ClassicListener,
  ClassicLoadBalancer,
  ClassicPolicyAttribute,
  CreateClassicLoadBalancerRequest,
  ElbPort,
} from '../../src/ports/elb-port.js';
import type { Tags } from '../../src/tags.js';
import type { FakeNetwork } from './fake-ec2.js';
import { awsError, CallLog } from './fake-errors.js';

interface StoredClassic {
  loadBalancer: ClassicLoadBalancer;
  tags: Record<string, string>;
  attributes: ClassicAttributes;
  policies: Map<string, { policyTypeName: string; attributes: ClassicPolicyAttribute[] }>;
}

/** Classic ELB names: 1-32 letters, digits and hyphens, not starting or ending with a hyphen. */
const LOAD_BALANCER_NAME = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,30}[a-zA-Z0-9])?$/;
/** `PROTOCOL:port` for TCP and SSL, `PROTOCOL:port/path` for HTTP and HTTPS. */
const HEALTH_CHECK_TARGET = /^(?:(?:TCP|SSL):\d+|(?:HTTP|HTTPS):\d+\/.*)$/i;

const sameListener = (left: ClassicListener, right: ClassicListener): boolean =>
  left.loadBalancerPort === right.loadBalancerPort &&
  left.instancePort === right.instancePort &&
  left.protocol.toUpperCase() === right.protocol.toUpperCase() &&
  left.instanceProtocol.toUpperCase() === right.instanceProtocol.toUpperCase() &&
  (left.sslCertificateId ?? '') === (right.sslCertificateId ?? '');

export class FakeElb implements ElbPort {
  readonly log: CallLog;
  /** EC2 behind the load balancers: security groups that do not exist are refused. Without it, every group exists. */
  readonly #network: FakeNetwork | undefined;

  constructor(log: CallLog = new CallLog(), network?: FakeNetwork) {
    this.log = log;
    this.#network = network;
  }
  readonly store = new Map<string, StoredClassic>();
  vpcId = 'vpc-1';

  #get(operation: string, name: string): StoredClassic {
    const stored = this.store.get(name);
    if (!stored) throw awsError(operation, 'LoadBalancerNotFound', `There is no ACTIVE Load Balancer named '${name}'`);
    return stored;
  }

  /** Adds a load balancer directly (for adoption and ownership tests). */
  seed(loadBalancer: Partial<ClassicLoadBalancer> & { name: string }, tags: Tags = {}): StoredClassic {
    const stored: StoredClassic = {
      loadBalancer: { listeners: [], subnets: [], securityGroups: [], instanceIds: [], backendServers: [], dnsName: `${loadBalancer.name}-1.us-west-2.elb.amazonaws.com`, ...loadBalancer },
      tags: { ...tags },
      attributes: { accessLog: { enabled: false }, connectionDraining: { enabled: false, timeout: 300 }, connectionSettings: { idleTimeout: 60 }, crossZoneLoadBalancing: { enabled: false } },
      policies: new Map(),
    };
    this.store.set(loadBalancer.name, stored);
    return stored;
  }

  async describeLoadBalancer(name: string): Promise<ClassicLoadBalancer | undefined> {
    this.log.record('elb.describeLoadBalancer', { name });
    const stored = this.store.get(name);
    return stored ? structuredClone(stored.loadBalancer) : undefined;
  }

  async createLoadBalancer(request: CreateClassicLoadBalancerRequest): Promise<string> {
    this.log.record('elb.createLoadBalancer', request);
    if (!LOAD_BALANCER_NAME.test(request.name)) {
      throw awsError('elb.createLoadBalancer', 'ValidationError', `LoadBalancerName '${request.name}': 1 to 32 letters, digits and hyphens, not starting or ending with a hyphen`);
    }
    if (request.listeners.length === 0) throw awsError('elb.createLoadBalancer', 'ValidationError', 'Listeners cannot be empty');
    if (this.store.has(request.name)) throw awsError('elb.createLoadBalancer', 'DuplicateLoadBalancerName');
    const stored = this.seed(
      {
        name: request.name,
        scheme: request.internal ? 'internal' : 'internet-facing',
        vpcId: (request.subnets[0] === undefined ? undefined : this.#network?.vpcOfSubnet(request.subnets[0])) ?? this.vpcId,
        listeners: request.listeners.map((listener) => ({ listener: { ...listener, protocol: listener.protocol.toUpperCase(), instanceProtocol: listener.instanceProtocol.toUpperCase() }, policyNames: [] })),
        subnets: [...request.subnets],
        securityGroups: [...request.securityGroups],
      },
      request.tags,
    );
    return stored.loadBalancer.dnsName ?? '';
  }

  async deleteLoadBalancer(name: string): Promise<void> {
    this.log.record('elb.deleteLoadBalancer', { name });
    this.store.delete(name);
  }

  async describeTags(name: string): Promise<Tags> {
    this.log.record('elb.describeTags', { name });
    return { ...this.#get('elb.describeTags', name).tags };
  }

  async addTags(name: string, tags: Tags): Promise<void> {
    this.log.record('elb.addTags', { name, tags });
    if (Object.keys(tags).length === 0) throw awsError('elb.addTags', 'ValidationError', 'Tags: at least one member is required');
    Object.assign(this.#get('elb.addTags', name).tags, tags);
  }

  async registerInstances(name: string, instanceIds: readonly string[]): Promise<void> {
    this.log.record('elb.registerInstances', { name, instanceIds });
    const loadBalancer = this.#get('elb.registerInstances', name).loadBalancer;
    for (const id of instanceIds) if (!loadBalancer.instanceIds.includes(id)) loadBalancer.instanceIds.push(id);
  }

  async deregisterInstances(name: string, instanceIds: readonly string[]): Promise<void> {
    this.log.record('elb.deregisterInstances', { name, instanceIds });
    const loadBalancer = this.#get('elb.deregisterInstances', name).loadBalancer;
    loadBalancer.instanceIds = loadBalancer.instanceIds.filter((id) => !instanceIds.includes(id));
  }

  async createListeners(name: string, listeners: readonly ClassicListener[]): Promise<void> {
    this.log.record('elb.createListeners', { name, listeners });
    const loadBalancer = this.#get('elb.createListeners', name).loadBalancer;
    for (const listener of listeners) {
      const existing = loadBalancer.listeners.find((description) => description.listener.loadBalancerPort === listener.loadBalancerPort);
      // The same listener again is accepted; another on a taken port is not.
      if (existing !== undefined && sameListener(existing.listener, listener)) continue;
      if (existing !== undefined) throw awsError('elb.createListeners', 'DuplicateListener');
      loadBalancer.listeners.push({ listener: { ...listener, protocol: listener.protocol.toUpperCase(), instanceProtocol: listener.instanceProtocol.toUpperCase() }, policyNames: [] });
    }
  }

  async deleteListeners(name: string, ports: readonly number[]): Promise<void> {
    this.log.record('elb.deleteListeners', { name, ports });
    const loadBalancer = this.#get('elb.deleteListeners', name).loadBalancer;
    loadBalancer.listeners = loadBalancer.listeners.filter((description) => !ports.includes(description.listener.loadBalancerPort));
  }

  async attachToSubnets(name: string, subnets: readonly string[]): Promise<void> {
    this.log.record('elb.attachToSubnets', { name, subnets });
    const loadBalancer = this.#get('elb.attachToSubnets', name).loadBalancer;
    loadBalancer.subnets = [...new Set([...loadBalancer.subnets, ...subnets])];
  }

  async detachFromSubnets(name: string, subnets: readonly string[]): Promise<void> {
    this.log.record('elb.detachFromSubnets', { name, subnets });
    const loadBalancer = this.#get('elb.detachFromSubnets', name).loadBalancer;
    loadBalancer.subnets = loadBalancer.subnets.filter((subnet) => !subnets.includes(subnet));
  }

  async applySecurityGroups(name: string, groups: readonly string[]): Promise<void> {
    this.log.record('elb.applySecurityGroups', { name, groups });
    if (this.#network !== undefined && groups.some((group) => !this.#network?.hasSecurityGroup(group))) {
      throw awsError('elb.applySecurityGroupsToLoadBalancer', 'ValidationError', 'One or more of the specified security groups do not exist.');
    }
    this.#get('elb.applySecurityGroups', name).loadBalancer.securityGroups = [...groups];
  }

  async configureHealthCheck(name: string, healthCheck: ClassicHealthCheck): Promise<void> {
    this.log.record('elb.configureHealthCheck', { name, healthCheck });
    if (!HEALTH_CHECK_TARGET.test(healthCheck.target)) throw awsError('elb.configureHealthCheck', 'ValidationError', 'HealthCheck Target must begin with one of HTTP, TCP, HTTPS, SSL');
    this.#get('elb.configureHealthCheck', name).loadBalancer.healthCheck = { ...healthCheck };
  }

  async describeAttributes(name: string): Promise<ClassicAttributes> {
    this.log.record('elb.describeAttributes', { name });
    return structuredClone(this.#get('elb.describeAttributes', name).attributes);
  }

  async modifyAttributes(name: string, attributes: ClassicAttributes): Promise<void> {
    this.log.record('elb.modifyAttributes', { name, attributes });
    const stored = this.#get('elb.modifyAttributes', name);
    stored.attributes = {
      accessLog: { ...stored.attributes.accessLog, ...attributes.accessLog },
      connectionDraining: { ...stored.attributes.connectionDraining, ...attributes.connectionDraining },
      connectionSettings: { ...stored.attributes.connectionSettings, ...attributes.connectionSettings },
      crossZoneLoadBalancing: { ...attributes.crossZoneLoadBalancing },
    };
  }

  async describePolicyNames(name: string, policyNames: readonly string[]): Promise<string[]> {
    this.log.record('elb.describePolicyNames', { name, policyNames });
    const stored = this.#get('elb.describePolicyNames', name);
    return policyNames.filter((policyName) => stored.policies.has(policyName));
  }

  async createPolicy(name: string, policy: { policyName: string; policyTypeName: string; attributes: readonly ClassicPolicyAttribute[] }): Promise<void> {
    this.log.record('elb.createPolicy', { name, policy });
    const stored = this.#get('elb.createPolicy', name);
    if (stored.policies.has(policy.policyName)) throw awsError('elb.createPolicy', 'DuplicatePolicyName');
    stored.policies.set(policy.policyName, { policyTypeName: policy.policyTypeName, attributes: [...policy.attributes] });
  }

  async setBackendServerPolicies(name: string, instancePort: number, policyNames: readonly string[]): Promise<void> {
    this.log.record('elb.setBackendServerPolicies', { name, instancePort, policyNames });
    const stored = this.#get('elb.setBackendServerPolicies', name);
    this.#policiesExist('elb.setBackendServerPolicies', stored, policyNames);
    const loadBalancer = stored.loadBalancer;
    loadBalancer.backendServers = loadBalancer.backendServers.filter((backend) => backend.instancePort !== instancePort);
    if (policyNames.length > 0) loadBalancer.backendServers.push({ instancePort, policyNames: [...policyNames] });
  }

  async setListenerPolicies(name: string, loadBalancerPort: number, policyNames: readonly string[]): Promise<void> {
    this.log.record('elb.setListenerPolicies', { name, loadBalancerPort, policyNames });
    const stored = this.#get('elb.setListenerPolicies', name);
    const listener = stored.loadBalancer.listeners.find((description) => description.listener.loadBalancerPort === loadBalancerPort);
    if (!listener) throw awsError('elb.setListenerPolicies', 'ListenerNotFound');
    this.#policiesExist('elb.setListenerPolicies', stored, policyNames);
    listener.policyNames = [...policyNames];
  }

  #policiesExist(operation: string, stored: StoredClassic, policyNames: readonly string[]): void {
    const missing = policyNames.find((policyName) => !stored.policies.has(policyName));
    if (missing !== undefined) throw awsError(operation, 'PolicyNotFound', `There is no policy with name ${missing} for load balancer ${stored.loadBalancer.name}`);
  }
}
