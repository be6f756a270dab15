/**
 * One contract for the Elbv2Port (Network Load Balancers), run on FakeElbv2
 * (test/fakes/fake-elbv2.ts) and on the SDK adapter against moto (issue 23 point 4): every call the
 * provider makes, what it answers, and what ELBv2 refuses (names, ports, duplicates, unknown load
 * balancers, target groups and listeners, attributes it does not know, empty tag lists, target
 * groups in use).
 */
import { describe, expect, it } from 'vitest';
import type { CreateNetworkLoadBalancerRequest, CreateTargetGroupRequest, Elbv2Port, TargetGroupHealthCheck } from '../../src/ports/elbv2-port.js';
import { contractName, expectRefusal, useContractSide, type AwsContractSide, type ContractNetwork } from './aws-contract-target.js';

/** The port and the contract network behind it. */
export interface Elbv2ContractWorld extends ContractNetwork {
  port: Elbv2Port;
  /** An ARN of each kind that nothing has (well-formed, in the side's account and region). */
  unknownArns: { loadBalancer: string; targetGroup: string; listener: string };
}

/** Well-formed ARNs of each kind in `region` that nothing has (moto and the fakes use account 123456789012). */
export function unknownElbv2Arns(region: string): Elbv2ContractWorld['unknownArns'] {
  const prefix = `arn:aws:elasticloadbalancing:${region}:123456789012`;
  return {
    loadBalancer: `${prefix}:loadbalancer/net/contract-none/0123456789abcdef`,
    targetGroup: `${prefix}:targetgroup/contract-none/0123456789abcdef`,
    listener: `${prefix}:listener/net/contract-none/0123456789abcdef/0123456789abcdef`,
  };
}

const HEALTH_CHECK: TargetGroupHealthCheck = { protocol: 'TCP', port: 'traffic-port', intervalSeconds: 30, healthyThreshold: 3, unhealthyThreshold: 3 };

export function describeElbv2PortContract(side: AwsContractSide<Elbv2ContractWorld>): void {
  describe(`Elbv2Port contract (${side.target})`, () => {
    const world = useContractSide(side);
    let serial = 0;
    const unique = (length?: number) => contractName('contract', ++serial, length);
    const loadBalancerRequest = (name: string, overrides: Partial<CreateNetworkLoadBalancerRequest> = {}): CreateNetworkLoadBalancerRequest => ({
      name,
      internal: false,
      subnetMappings: world().subnetIds.map((subnetId) => ({ subnetId })),
      tags: { owner: 'contract' },
      ...overrides,
    });
    const groupRequest = (name: string, overrides: Partial<CreateTargetGroupRequest> = {}): CreateTargetGroupRequest => ({
      name,
      protocol: 'TCP',
      port: 30080,
      vpcId: world().vpcId,
      healthCheck: HEALTH_CHECK,
      tags: { owner: 'contract' },
      ...overrides,
    });
    /** A load balancer with one target group behind a TCP:80 listener. */
    const stack = async () => {
      const { port } = world();
      const loadBalancer = await port.createLoadBalancer(loadBalancerRequest(unique()));
      const group = await port.createTargetGroup(groupRequest(unique()));
      const listener = await port.createListener(loadBalancer.arn, { port: 80, protocol: 'TCP', targetGroupArn: group.arn }, { owner: 'contract' });
      return { loadBalancer, group, listener };
    };

    it('creates a network load balancer in the subnets with its tags and describes it by name; an unknown name describes as undefined', async () => {
      const { port, vpcId, subnetIds } = world();
      const name = unique();
      const created = await port.createLoadBalancer(loadBalancerRequest(name));
      expect(created).toMatchObject({ name, type: 'network', scheme: 'internet-facing', vpcId });
      expect(created.subnetIds.sort()).toEqual([...subnetIds].sort());
      expect(created.dnsName?.startsWith(`${name}-`)).toBe(true);
      expect(created.dnsName).toMatch(/\.amazonaws\.com$/);
      expect(['provisioning', 'active']).toContain(created.state);
      const described = await port.describeLoadBalancerByName(name);
      expect(described?.arn).toBe(created.arn);
      expect((await port.describeTags([created.arn])).get(created.arn)).toEqual({ owner: 'contract' });
      const internal = await port.createLoadBalancer(loadBalancerRequest(unique(), { internal: true, tags: {} }));
      expect(internal.scheme).toBe('internal');
      expect((await port.describeTags([internal.arn])).get(internal.arn)).toEqual({});
      await expect(port.describeLoadBalancerByName('contract-no-such-lb')).resolves.toBeUndefined();
    });

    it('known moto gap: the ARN of a network load balancer (AWS: loadbalancer/net/...; moto: loadbalancer/app/...)', async () => {
      const { port } = world();
      const created = await port.createLoadBalancer(loadBalancerRequest(unique()));
      expect(created.arn).toMatch(side.target === 'moto' ? /:loadbalancer\/app\// : /:loadbalancer\/net\//);
    });

    it('refuses a load balancer without subnets (SubnetNotFound, as moto; AWS words it as a ValidationError)', async () => {
      const { port } = world();
      await expectRefusal(port.createLoadBalancer(loadBalancerRequest(unique(), { subnetMappings: [] })), 'SubnetNotFound', 'NotFound');
    });

    it('refuses a load balancer in a subnet that does not exist (InvalidSubnetID.NotFound) and a target group in a VPC that does not exist (ValidationError)', async () => {
      const { port } = world();
      await expectRefusal(port.createLoadBalancer(loadBalancerRequest(unique(), { subnetMappings: [{ subnetId: 'subnet-0123456789abcdef0' }] })), 'InvalidSubnetID.NotFound', 'NotFound');
      await expectRefusal(port.createTargetGroup(groupRequest(unique(), { vpcId: 'vpc-0123456789abcdef0' })), 'ValidationError', 'Invalid');
    });

    it('known moto gap: a second load balancer of the same name (AWS: the same settings answer the existing one, others DuplicateLoadBalancerName; moto creates another)', async () => {
      const { port } = world();
      const name = unique();
      const first = await port.createLoadBalancer(loadBalancerRequest(name));
      const again = await port.createLoadBalancer(loadBalancerRequest(name));
      const other = () => port.createLoadBalancer(loadBalancerRequest(name, { internal: true }));
      if (side.target === 'moto') {
        expect(again.arn).not.toBe(first.arn);
        await expect(other()).resolves.toMatchObject({ name, scheme: 'internal' });
      } else {
        expect(again.arn).toBe(first.arn);
        await expectRefusal(other(), 'DuplicateLoadBalancerName', 'Conflict');
      }
    });

    it('known moto gap: load balancer names over 32 characters, with other characters than letters, digits and hyphens, a hyphen first, `internal-` first, or empty (AWS: ValidationError; moto creates them)', async () => {
      const { port } = world();
      for (const name of [unique(33), `contract_${++serial}`, `-contract-${++serial}`, `internal-${++serial}`, '']) {
        const call = port.createLoadBalancer(loadBalancerRequest(name));
        if (side.target === 'moto') await expect(call).resolves.toMatchObject({ name });
        else await expectRefusal(call, 'ValidationError', 'Invalid');
      }
    });

    it('deletes a load balancer; deleting it again succeeds (ELBv2 answers success for a load balancer that is not there); its attributes are then LoadBalancerNotFound', async () => {
      const { port } = world();
      const created = await port.createLoadBalancer(loadBalancerRequest(unique()));
      await port.deleteLoadBalancer(created.arn);
      await expect(port.describeLoadBalancerByName(created.name)).resolves.toBeUndefined();
      await port.deleteLoadBalancer(created.arn);
      await expectRefusal(port.describeLoadBalancerAttributes(created.arn), 'LoadBalancerNotFound', 'NotFound');
    });

    it('sets security groups; describes and modifies attributes; refuses an attribute ELBv2 does not know (InvalidConfigurationRequest)', async () => {
      const { port, securityGroupIds, unknownArns } = world();
      const securityGroupId = securityGroupIds[0] as string;
      const created = await port.createLoadBalancer(loadBalancerRequest(unique()));
      await port.setSecurityGroups(created.arn, [securityGroupId]);
      expect((await port.describeLoadBalancerByName(created.name))?.securityGroups).toEqual([securityGroupId]);
      await expect(port.describeLoadBalancerAttributes(created.arn)).resolves.toMatchObject({ 'load_balancing.cross_zone.enabled': 'false' });
      await port.modifyLoadBalancerAttributes(created.arn, { 'load_balancing.cross_zone.enabled': 'true' });
      await expect(port.describeLoadBalancerAttributes(created.arn)).resolves.toMatchObject({ 'load_balancing.cross_zone.enabled': 'true' });
      await expectRefusal(port.modifyLoadBalancerAttributes(created.arn, { 'contract.no_such.attribute': 'true' }), 'InvalidConfigurationRequest', 'Invalid');
      await expectRefusal(port.describeLoadBalancerAttributes(unknownArns.loadBalancer), 'LoadBalancerNotFound', 'NotFound');
    });

    it('adds and describes tags of load balancers, target groups and listeners; refuses tags on an unknown load balancer (LoadBalancerNotFound)', async () => {
      const { port, unknownArns } = world();
      const { loadBalancer, group, listener } = await stack();
      await port.addTags([loadBalancer.arn, group.arn], { team: 'blue' });
      const tags = await port.describeTags([loadBalancer.arn, group.arn, listener.arn]);
      expect(tags.get(loadBalancer.arn)).toEqual({ owner: 'contract', team: 'blue' });
      expect(tags.get(group.arn)).toEqual({ owner: 'contract', team: 'blue' });
      expect(tags.get(listener.arn)).toEqual({ owner: 'contract' });
      await expectRefusal(port.addTags([unknownArns.loadBalancer], { team: 'blue' }), 'LoadBalancerNotFound', 'NotFound');
    });

    it('known moto gap: AddTags with an empty tag list (AWS: ValidationError, Tags has at least one member; moto accepts it)', async () => {
      const { port } = world();
      const created = await port.createLoadBalancer(loadBalancerRequest(unique()));
      const call = port.addTags([created.arn], {});
      if (side.target === 'moto') await expect(call).resolves.toBeUndefined();
      else await expectRefusal(call, 'ValidationError', 'Invalid');
    });

    it('creates a target group and describes it by name and among all; refuses another with a taken name (DuplicateTargetGroupName), a name over 32 characters or with other characters (ValidationError)', async () => {
      const { port, vpcId } = world();
      const name = unique();
      const group = await port.createTargetGroup(groupRequest(name));
      expect(group).toMatchObject({ name, protocol: 'TCP', port: 30080, vpcId, targetType: 'instance', loadBalancerArns: [] });
      expect(group.healthCheck).toMatchObject(HEALTH_CHECK);
      await expect(port.describeTargetGroupByName(name)).resolves.toMatchObject({ arn: group.arn, name });
      await expect(port.describeTargetGroupByName('contract-no-such-group')).resolves.toBeUndefined();
      expect((await port.describeAllTargetGroups()).map((entry) => entry.arn)).toContain(group.arn);
      expect((await port.describeTags([group.arn])).get(group.arn)).toEqual({ owner: 'contract' });
      await expectRefusal(port.createTargetGroup(groupRequest(name, { port: 30081 })), 'DuplicateTargetGroupName', 'Conflict');
      await expectRefusal(port.createTargetGroup(groupRequest(unique(33))), 'ValidationError', 'Invalid');
      await expectRefusal(port.createTargetGroup(groupRequest(`contract_${++serial}`)), 'ValidationError', 'Invalid');
      await expect(port.createTargetGroup(groupRequest(unique(), { tags: {} }))).resolves.toMatchObject({ protocol: 'TCP' });
    });

    it('known moto gap: a target group again with the same settings (AWS: answers the existing one; moto: DuplicateTargetGroupName) and a port over 65535 (AWS: ValidationError; moto creates it)', async () => {
      const { port } = world();
      const name = unique();
      const group = await port.createTargetGroup(groupRequest(name));
      const again = port.createTargetGroup(groupRequest(name));
      const badPort = () => port.createTargetGroup(groupRequest(unique(), { port: 70000 }));
      if (side.target === 'moto') {
        await expectRefusal(again, 'DuplicateTargetGroupName', 'Conflict');
        await expect(badPort()).resolves.toMatchObject({ port: 70000 });
      } else {
        await expect(again).resolves.toMatchObject({ arn: group.arn });
        await expectRefusal(badPort(), 'ValidationError', 'Invalid');
      }
    });

    it('modifies the health check and the attributes of a target group; an unknown target group is TargetGroupNotFound', async () => {
      const { port, unknownArns } = world();
      const group = await port.createTargetGroup(groupRequest(unique()));
      await port.modifyTargetGroupHealthCheck(group.arn, { intervalSeconds: 10, healthyThreshold: 2 });
      expect((await port.describeTargetGroupByName(group.name))?.healthCheck).toMatchObject({ ...HEALTH_CHECK, intervalSeconds: 10, healthyThreshold: 2 });
      await expect(port.describeTargetGroupAttributes(group.arn)).resolves.toMatchObject({ 'deregistration_delay.timeout_seconds': '300' });
      await port.modifyTargetGroupAttributes(group.arn, { 'deregistration_delay.timeout_seconds': '30' });
      await expect(port.describeTargetGroupAttributes(group.arn)).resolves.toMatchObject({ 'deregistration_delay.timeout_seconds': '30' });
      await expectRefusal(port.modifyTargetGroupHealthCheck(unknownArns.targetGroup, { intervalSeconds: 10 }), 'TargetGroupNotFound', 'NotFound');
    });

    it('registers and deregisters targets; refuses to deregister one that is not registered (InvalidTarget, as moto); an unknown target group is TargetGroupNotFound', async () => {
      const { port, instanceIds, unknownArns } = world();
      const group = await port.createTargetGroup(groupRequest(unique()));
      await expect(port.describeTargetHealth(group.arn)).resolves.toEqual([]);
      await port.registerTargets(group.arn, instanceIds.map((id) => ({ id, port: 30080 })));
      expect((await port.describeTargetHealth(group.arn)).map((target) => target.id).sort()).toEqual([...instanceIds].sort());
      await port.deregisterTargets(group.arn, [{ id: instanceIds[0] as string, port: 30080 }]);
      await expectRefusal(port.deregisterTargets(group.arn, [{ id: instanceIds[0] as string, port: 30080 }]), 'InvalidTarget', 'Invalid');
      expect((await port.describeTargetHealth(group.arn)).map((target) => [target.id, target.port])).toEqual([[instanceIds[1], 30080]]);
      await expectRefusal(port.describeTargetHealth(unknownArns.targetGroup), 'TargetGroupNotFound', 'NotFound');
    });

    it('creates, describes, modifies and deletes a listener; the target group behind it is in use (ResourceInUse); unknown load balancers, target groups and listeners are refused', async () => {
      const { port, unknownArns } = world();
      const { loadBalancer, group, listener } = await stack();
      expect(listener).toMatchObject({ port: 80, protocol: 'TCP', targetGroupArn: group.arn });
      expect((await port.describeListeners(loadBalancer.arn)).map((entry) => [entry.arn, entry.port, entry.targetGroupArn])).toEqual([[listener.arn, 80, group.arn]]);
      expect((await port.describeTargetGroupsOfLoadBalancer(loadBalancer.arn)).map((entry) => entry.arn)).toEqual([group.arn]);
      expect((await port.describeTargetGroupByName(group.name))?.loadBalancerArns).toContain(loadBalancer.arn);
      await expectRefusal(port.deleteTargetGroup(group.arn), 'ResourceInUse', 'DependencyViolation');
      await port.modifyListener(listener.arn, { port: 8080, protocol: 'TCP', targetGroupArn: group.arn });
      expect((await port.describeListeners(loadBalancer.arn)).map((entry) => entry.port)).toEqual([8080]);
      await expectRefusal(port.createListener(loadBalancer.arn, { port: 81, protocol: 'TCP', targetGroupArn: unknownArns.targetGroup }, {}), 'TargetGroupNotFound', 'NotFound');
      await expectRefusal(port.createListener(unknownArns.loadBalancer, { port: 81, protocol: 'TCP', targetGroupArn: group.arn }, {}), 'LoadBalancerNotFound', 'NotFound');
      await expectRefusal(port.describeListeners(unknownArns.loadBalancer), 'LoadBalancerNotFound', 'NotFound');
      await expectRefusal(port.describeTargetGroupsOfLoadBalancer(unknownArns.loadBalancer), 'LoadBalancerNotFound', 'NotFound');
      await expectRefusal(port.modifyListener(unknownArns.listener, { port: 8080, protocol: 'TCP', targetGroupArn: group.arn }), 'ListenerNotFound', 'NotFound');
      await port.deleteListener(listener.arn);
      await expect(port.describeListeners(loadBalancer.arn)).resolves.toEqual([]);
      await expectRefusal(port.deleteListener(listener.arn), 'ListenerNotFound', 'NotFound');
    });

    it('known moto gap: the target groups of a load balancer without any (AWS: none; moto: TargetGroupNotFound)', async () => {
      const { port } = world();
      const created = await port.createLoadBalancer(loadBalancerRequest(unique()));
      const call = port.describeTargetGroupsOfLoadBalancer(created.arn);
      if (side.target === 'moto') await expectRefusal(call, 'TargetGroupNotFound', 'NotFound');
      else await expect(call).resolves.toEqual([]);
    });

    it('known moto gap: a second listener on a taken port (AWS: the same settings answer the existing one, others DuplicateListener; moto creates another)', async () => {
      const { port } = world();
      const { loadBalancer, group, listener } = await stack();
      const other = await port.createTargetGroup(groupRequest(unique()));
      const again = await port.createListener(loadBalancer.arn, { port: 80, protocol: 'TCP', targetGroupArn: group.arn }, { owner: 'contract' });
      const elsewhere = () => port.createListener(loadBalancer.arn, { port: 80, protocol: 'TCP', targetGroupArn: other.arn }, {});
      if (side.target === 'moto') {
        expect(again.arn).not.toBe(listener.arn);
        await expect(elsewhere()).resolves.toMatchObject({ port: 80, targetGroupArn: other.arn });
      } else {
        expect(again.arn).toBe(listener.arn);
        await expectRefusal(elsewhere(), 'DuplicateListener', 'Conflict');
      }
    });

    it('known moto gap: a target group whose last listener was deleted is free to delete, and lists no load balancer (moto still lists it)', async () => {
      const { port } = world();
      const { loadBalancer, group, listener } = await stack();
      await port.deleteListener(listener.arn);
      const linked = (await port.describeTargetGroupByName(group.name))?.loadBalancerArns;
      expect(linked).toEqual(side.target === 'moto' ? [loadBalancer.arn] : []);
      await port.deleteTargetGroup(group.arn);
      await expect(port.describeTargetGroupByName(group.name)).resolves.toBeUndefined();
      await expectRefusal(port.deleteTargetGroup(group.arn), 'TargetGroupNotFound', 'NotFound');
    });
  });
}
