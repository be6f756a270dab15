/** An in-memory Ec2Port with EC2's filter, rule and error semantics for the calls we make. */
import type {
  DescribeInstancesRequest,
  Ec2AvailabilityZone,
  Ec2Filter,
  Ec2Instance,
  Ec2InstanceTopology,
  Ec2IpPermission,
  Ec2Port,
  Ec2RouteTable,
  Ec2SecurityGroup,
  Ec2Subnet,
} from '../../src/ports/ec2-port.js';
import { ruleKey, ungroupPermissions } from '../../src/operations/load-balancer/ingress-rules.js';
import type { Tags } from '../../src/tags.js';
import { isIPv4 } from 'node:net';
import { awsError, CallLog } from './fake-errors.js';

type WithTags = { tags: Tags };

/** `a.b.c.d/n` as EC2 accepts it for a route destination. */
function isIpv4Cidr(value: string): boolean {
  const [address, prefix, ...rest] = value.split('/');
  return rest.length === 0 && address !== undefined && isIPv4(address) && prefix !== undefined && /^\d{1,2}$/.test(prefix) && Number(prefix) <= 32;
}

function tagFilterMatches(tags: Tags, filter: Ec2Filter): boolean | undefined {
  if (filter.name === 'tag-key') return filter.values.some((value) => Object.prototype.hasOwnProperty.call(tags, value));
  if (filter.name.startsWith('tag:')) {
    const key = filter.name.slice(4);
    return Object.prototype.hasOwnProperty.call(tags, key) && filter.values.includes(tags[key] as string);
  }
  return undefined;
}

/** EC2's error code for a resource ID nothing has, by the ID's prefix. */
function unknownResourceCode(id: string): string {
  if (id.startsWith('i-')) return 'InvalidInstanceID.NotFound';
  if (id.startsWith('sg-')) return 'InvalidGroup.NotFound';
  if (id.startsWith('subnet-')) return 'InvalidSubnetID.NotFound';
  if (id.startsWith('rtb-')) return 'InvalidRouteTableID.NotFound';
  return 'InvalidID';
}

/** What the ELB fakes ask EC2 (FakeEc2 answers): whether a subnet, security group or VPC exists. */
export interface FakeNetwork {
  /** The VPC of a subnet; undefined when there is no such subnet. */
  vpcOfSubnet(subnetId: string): string | undefined;
  hasSecurityGroup(groupId: string): boolean;
  hasVpc(vpcId: string): boolean;
}

export class FakeEc2 implements Ec2Port, FakeNetwork {
  readonly log: CallLog;

  constructor(log: CallLog = new CallLog()) {
    this.log = log;
  }
  readonly instances = new Map<string, Ec2Instance>();
  readonly subnets = new Map<string, Ec2Subnet>();
  readonly routeTables = new Map<string, Ec2RouteTable>();
  readonly securityGroups = new Map<string, Ec2SecurityGroup>();
  zones: Ec2AvailabilityZone[] = [
    { zoneName: 'us-west-2a', zoneId: 'usw2-az2', zoneType: 'availability-zone' },
    { zoneName: 'us-west-2b', zoneId: 'usw2-az1', zoneType: 'availability-zone' },
    { zoneName: 'us-west-2c', zoneId: 'usw2-az3', zoneType: 'availability-zone' },
    { zoneName: 'us-west-2-lax-1a', zoneId: 'usw2-lax1-az1', zoneType: 'local-zone' },
  ];
  #nextId = 1;

  newId(prefix: string): string {
    return `${prefix}-${(this.#nextId++).toString(16).padStart(17, '0')}`;
  }

  addInstance(instance: Partial<Ec2Instance> & { instanceId: string }): Ec2Instance {
    const full: Ec2Instance = { securityGroups: [], networkInterfaces: [], tags: {}, state: 'running', ...instance };
    this.instances.set(full.instanceId, full);
    return full;
  }

  addSubnet(subnet: Partial<Ec2Subnet> & { subnetId: string }): Ec2Subnet {
    const full: Ec2Subnet = { ipv6CidrBlocks: [], tags: {}, ...subnet };
    this.subnets.set(full.subnetId, full);
    return full;
  }

  addRouteTable(table: Partial<Ec2RouteTable> & { routeTableId: string }): Ec2RouteTable {
    const full: Ec2RouteTable = { associations: [], routes: [], tags: {}, ...table };
    this.routeTables.set(full.routeTableId, full);
    return full;
  }

  addSecurityGroup(group: Partial<Ec2SecurityGroup> & { groupId: string }): Ec2SecurityGroup {
    const full: Ec2SecurityGroup = { groupName: group.groupId, ingress: [], tags: {}, ...group };
    this.securityGroups.set(full.groupId, full);
    return full;
  }

  vpcOfSubnet(subnetId: string): string | undefined {
    const subnet = this.subnets.get(subnetId);
    return subnet === undefined ? undefined : (subnet.vpcId ?? '');
  }

  hasSecurityGroup(groupId: string): boolean {
    return this.securityGroups.has(groupId);
  }

  /** A VPC exists when a subnet, route table or security group of the fake is in it. */
  hasVpc(vpcId: string): boolean {
    return [...this.subnets.values(), ...this.routeTables.values(), ...this.securityGroups.values()].some((resource) => resource.vpcId === vpcId);
  }

  async describeInstances(request: DescribeInstancesRequest): Promise<Ec2Instance[]> {
    this.log.record('ec2.describeInstances', request);
    let result = [...this.instances.values()];
    if (request.instanceIds && request.instanceIds.length > 0) {
      const missing = request.instanceIds.filter((id) => !this.instances.has(id));
      if (missing.length > 0) throw awsError('ec2.describeInstances', 'InvalidInstanceID.NotFound', `The instance IDs '${missing.join(', ')}' do not exist`);
      result = result.filter((instance) => request.instanceIds?.includes(instance.instanceId));
    }
    return structuredClone(this.#filter(result, request.filters, (instance, filter) => {
      switch (filter.name) {
        case 'private-dns-name':
          return filter.values.includes(instance.privateDnsName ?? '');
        case 'instance-state-name':
          return filter.values.includes(instance.state ?? '');
        case 'instance-id':
          return filter.values.includes(instance.instanceId);
        case 'vpc-id':
          return filter.values.includes(instance.vpcId ?? '');
        default:
          return undefined;
      }
    }));
  }

  async describeAvailabilityZones(): Promise<Ec2AvailabilityZone[]> {
    this.log.record('ec2.describeAvailabilityZones', {});
    return structuredClone(this.zones);
  }

  async describeSubnets(request: { subnetIds?: readonly string[]; filters?: readonly Ec2Filter[] }): Promise<Ec2Subnet[]> {
    this.log.record('ec2.describeSubnets', request);
    let result = [...this.subnets.values()];
    if (request.subnetIds && request.subnetIds.length > 0) {
      const missing = request.subnetIds.filter((id) => !this.subnets.has(id));
      if (missing.length > 0) throw awsError('ec2.describeSubnets', 'InvalidSubnetID.NotFound', `The subnet ID '${missing[0]}' does not exist`);
      result = result.filter((subnet) => request.subnetIds?.includes(subnet.subnetId));
    }
    return structuredClone(this.#filter(result, request.filters, (subnet, filter) => {
      if (filter.name === 'vpc-id') return filter.values.includes(subnet.vpcId ?? '');
      if (filter.name === 'subnet-id') return filter.values.includes(subnet.subnetId);
      return undefined;
    }));
  }

  async describeRouteTables(request: { filters?: readonly Ec2Filter[] }): Promise<Ec2RouteTable[]> {
    this.log.record('ec2.describeRouteTables', request);
    return structuredClone(this.#filter([...this.routeTables.values()], request.filters, (table, filter) => {
      if (filter.name === 'vpc-id') return filter.values.includes(table.vpcId ?? '');
      if (filter.name === 'route-table-id') return filter.values.includes(table.routeTableId);
      return undefined;
    }));
  }

  #table(operation: string, routeTableId: string): Ec2RouteTable {
    const table = this.routeTables.get(routeTableId);
    if (!table) throw awsError(operation, 'InvalidRouteTableID.NotFound');
    return table;
  }

  async createRoute(request: { routeTableId: string; destinationCidrBlock: string; instanceId: string }): Promise<void> {
    this.log.record('ec2.createRoute', request);
    if (!isIpv4Cidr(request.destinationCidrBlock)) {
      throw awsError('ec2.createRoute', 'InvalidParameterValue', `Value (${request.destinationCidrBlock}) for parameter destinationCidrBlock is invalid. This is not a valid CIDR block.`);
    }
    const table = this.#table('ec2.createRoute', request.routeTableId);
    if (table.routes.some((route) => route.destinationCidrBlock === request.destinationCidrBlock)) throw awsError('ec2.createRoute', 'RouteAlreadyExists');
    if (!this.instances.has(request.instanceId)) throw awsError('ec2.createRoute', 'InvalidInstanceID.NotFound');
    table.routes.push({ destinationCidrBlock: request.destinationCidrBlock, instanceId: request.instanceId, state: 'active', origin: 'CreateRoute' });
  }

  async replaceRoute(request: { routeTableId: string; destinationCidrBlock: string; instanceId: string }): Promise<void> {
    this.log.record('ec2.replaceRoute', request);
    const table = this.#table('ec2.replaceRoute', request.routeTableId);
    const index = table.routes.findIndex((route) => route.destinationCidrBlock === request.destinationCidrBlock);
    if (index < 0) throw awsError('ec2.replaceRoute', 'InvalidParameterValue', 'There is no route defined for the destination; use CreateRoute instead');
    table.routes[index] = { destinationCidrBlock: request.destinationCidrBlock, instanceId: request.instanceId, state: 'active', origin: 'CreateRoute' };
  }

  async deleteRoute(request: { routeTableId: string; destinationCidrBlock: string }): Promise<void> {
    this.log.record('ec2.deleteRoute', request);
    const table = this.#table('ec2.deleteRoute', request.routeTableId);
    const index = table.routes.findIndex((route) => route.destinationCidrBlock === request.destinationCidrBlock);
    if (index < 0) throw awsError('ec2.deleteRoute', 'InvalidRoute.NotFound');
    table.routes.splice(index, 1);
  }

  async modifyInstanceSourceDestCheck(request: { instanceId: string; enabled: boolean }): Promise<void> {
    this.log.record('ec2.modifyInstanceSourceDestCheck', request);
    const instance = this.instances.get(request.instanceId);
    if (!instance) throw awsError('ec2.modifyInstanceAttribute', 'InvalidInstanceID.NotFound');
    instance.sourceDestCheck = request.enabled;
  }

  async describeSecurityGroups(request: { groupIds?: readonly string[]; filters?: readonly Ec2Filter[] }): Promise<Ec2SecurityGroup[]> {
    this.log.record('ec2.describeSecurityGroups', request);
    let result = [...this.securityGroups.values()];
    if (request.groupIds && request.groupIds.length > 0) {
      const missing = request.groupIds.filter((id) => !this.securityGroups.has(id));
      if (missing.length > 0) throw awsError('ec2.describeSecurityGroups', 'InvalidGroup.NotFound', `The security group '${missing[0]}' does not exist`);
      result = result.filter((group) => request.groupIds?.includes(group.groupId));
    }
    return structuredClone(this.#filter(result, request.filters, (group, filter) => {
      switch (filter.name) {
        case 'group-name':
          return filter.values.includes(group.groupName);
        case 'group-id':
          return filter.values.includes(group.groupId);
        case 'vpc-id':
          return filter.values.includes(group.vpcId ?? '');
        case 'ip-permission.group-id':
          return group.ingress.some((permission) => permission.groupPairs.some((pair) => filter.values.includes(pair.groupId)));
        default:
          return undefined;
      }
    }));
  }

  async createSecurityGroup(request: { groupName: string; description: string; vpcId: string; tags: Tags }): Promise<string> {
    this.log.record('ec2.createSecurityGroup', request);
    if (request.groupName === '') throw awsError('ec2.createSecurityGroup', 'MissingParameter', 'The request must contain the parameter GroupName');
    if (request.description === '') throw awsError('ec2.createSecurityGroup', 'MissingParameter', 'The request must contain the parameter GroupDescription');
    if (request.groupName.length > 255) throw awsError('ec2.createSecurityGroup', 'InvalidParameterValue', `Invalid value '${request.groupName}' for GroupName: longer than 255 characters`);
    if ([...this.securityGroups.values()].some((group) => group.groupName === request.groupName && group.vpcId === request.vpcId)) {
      throw awsError('ec2.createSecurityGroup', 'InvalidGroup.Duplicate');
    }
    const groupId = this.newId('sg');
    this.addSecurityGroup({ groupId, groupName: request.groupName, description: request.description, vpcId: request.vpcId, tags: { ...request.tags } });
    return groupId;
  }

  #group(operation: string, groupId: string): Ec2SecurityGroup {
    const group = this.securityGroups.get(groupId);
    if (!group) throw awsError(operation, 'InvalidGroup.NotFound');
    return group;
  }

  async authorizeSecurityGroupIngress(request: { groupId: string; permissions: readonly Ec2IpPermission[] }): Promise<void> {
    this.log.record('ec2.authorizeSecurityGroupIngress', request);
    const group = this.#group('ec2.authorizeSecurityGroupIngress', request.groupId);
    const existing = new Set(ungroupPermissions(group.ingress).map(ruleKey));
    for (const rule of ungroupPermissions(request.permissions)) {
      if (existing.has(ruleKey(rule))) throw awsError('ec2.authorizeSecurityGroupIngress', 'InvalidPermission.Duplicate');
    }
    group.ingress.push(...structuredClone(request.permissions as Ec2IpPermission[]));
  }

  async revokeSecurityGroupIngress(request: { groupId: string; permissions: readonly Ec2IpPermission[] }): Promise<void> {
    this.log.record('ec2.revokeSecurityGroupIngress', request);
    const group = this.#group('ec2.revokeSecurityGroupIngress', request.groupId);
    const revoke = new Set(ungroupPermissions(request.permissions).map(ruleKey));
    const current = ungroupPermissions(group.ingress);
    const currentKeys = new Set(current.map(ruleKey));
    for (const key of revoke) if (!currentKeys.has(key)) throw awsError('ec2.revokeSecurityGroupIngress', 'InvalidPermission.NotFound');
    const remaining = current.filter((rule) => !revoke.has(ruleKey(rule)));
    group.ingress = remaining.map((rule) => ({
      protocol: rule.protocol,
      ...(rule.fromPort === undefined ? {} : { fromPort: rule.fromPort }),
      ...(rule.toPort === undefined ? {} : { toPort: rule.toPort }),
      ipv4Ranges: rule.source.kind === 'ipv4' ? [{ cidr: rule.source.value, ...(rule.description ? { description: rule.description } : {}) }] : [],
      ipv6Ranges: rule.source.kind === 'ipv6' ? [{ cidr: rule.source.value, ...(rule.description ? { description: rule.description } : {}) }] : [],
      groupPairs: rule.source.kind === 'group' ? [{ groupId: rule.source.value, ...(rule.description ? { description: rule.description } : {}) }] : [],
    }));
  }

  /** Groups referenced by a load balancer cannot be deleted while this returns true. */
  inUse: (groupId: string) => boolean = () => false;

  async deleteSecurityGroup(request: { groupId: string }): Promise<void> {
    this.log.record('ec2.deleteSecurityGroup', request);
    this.#group('ec2.deleteSecurityGroup', request.groupId);
    const referenced = [...this.securityGroups.values()].some(
      (other) => other.groupId !== request.groupId && other.ingress.some((permission) => permission.groupPairs.some((pair) => pair.groupId === request.groupId)),
    );
    if (referenced || this.inUse(request.groupId)) throw awsError('ec2.deleteSecurityGroup', 'DependencyViolation');
    this.securityGroups.delete(request.groupId);
  }

  async createTags(request: { resourceIds: readonly string[]; tags: Tags }): Promise<void> {
    this.log.record('ec2.createTags', request);
    if (Object.keys(request.tags).length === 0) throw awsError('ec2.createTags', 'MissingParameter', 'The request must contain the parameter Tags');
    for (const id of request.resourceIds) {
      const target: WithTags | undefined = this.instances.get(id) ?? this.securityGroups.get(id) ?? this.subnets.get(id) ?? this.routeTables.get(id);
      if (!target) throw awsError('ec2.createTags', unknownResourceCode(id), `The ID '${id}' does not exist`);
      target.tags = { ...target.tags, ...request.tags };
    }
  }

  async deleteTags(request: { resourceIds: readonly string[]; tags: Tags }): Promise<void> {
    this.log.record('ec2.deleteTags', request);
    for (const id of request.resourceIds) {
      const target: WithTags | undefined = this.instances.get(id) ?? this.securityGroups.get(id) ?? this.subnets.get(id) ?? this.routeTables.get(id);
      if (!target) throw awsError('ec2.deleteTags', unknownResourceCode(id), `The ID '${id}' does not exist`);
      // Without tags, EC2 deletes every tag of the resource.
      if (Object.keys(request.tags).length === 0) {
        target.tags = {};
        continue;
      }
      // EC2 deletes a tag given with a value only when the value matches.
      target.tags = Object.fromEntries(Object.entries(target.tags).filter(([key, value]) => !(Object.hasOwn(request.tags, key) && request.tags[key] === value)));
    }
  }

  /** Instance ID -> network nodes; instances without an entry have no topology. */
  readonly topologies = new Map<string, string[]>();

  async describeInstanceTopology(request: { instanceIds: readonly string[] }): Promise<Ec2InstanceTopology[]> {
    this.log.record('ec2.describeInstanceTopology', request);
    return request.instanceIds.flatMap((instanceId) => {
      const networkNodes = this.topologies.get(instanceId);
      return networkNodes === undefined ? [] : [{ instanceId, networkNodes: [...networkNodes] }];
    });
  }

  #filter<T extends WithTags>(items: T[], filters: readonly Ec2Filter[] | undefined, match: (item: T, filter: Ec2Filter) => boolean | undefined): T[] {
    return items.filter((item) =>
      (filters ?? []).every((filter) => {
        const tagMatch = tagFilterMatches(item.tags, filter);
        if (tagMatch !== undefined) return tagMatch;
        const result = match(item, filter);
        if (result === undefined) throw new Error(`FakeEc2: filter ${filter.name} is not implemented`);
        return result;
      }),
    );
  }
}
