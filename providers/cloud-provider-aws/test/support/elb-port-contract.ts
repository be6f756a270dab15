/**
 * One contract for the ElbPort (Classic ELB), run on FakeElb (test/fakes/fake-elb.ts) and on the
 * SDK adapter against moto (issue 23 point 4): every call the provider makes, what it answers, and
 * what Classic ELB refuses (names, listeners, health check targets, duplicates, unknown load
 * balancers, empty tag lists, unknown policies and listeners).
 */
import { describe, expect, it } from 'vitest';
import type { ClassicHealthCheck, ClassicListener, CreateClassicLoadBalancerRequest, ElbPort } from '../../src/ports/elb-port.js';
import { contractName, expectRefusal, useContractSide, type AwsContractSide, type ContractNetwork } from './aws-contract-target.js';

/** The port and the contract network behind it. */
export interface ElbContractWorld extends ContractNetwork {
  port: ElbPort;
}

const TCP_80: ClassicListener = { protocol: 'tcp', loadBalancerPort: 80, instanceProtocol: 'tcp', instancePort: 30080 };
const HEALTH_CHECK: ClassicHealthCheck = { target: 'TCP:30080', interval: 10, timeout: 5, unhealthyThreshold: 6, healthyThreshold: 2 };
const PROXY_PROTOCOL = { policyName: 'k8s-proxyprotocol-enabled', policyTypeName: 'ProxyProtocolPolicyType', attributes: [{ name: 'ProxyProtocol', value: 'true' }] };

export function describeElbPortContract(side: AwsContractSide<ElbContractWorld>): void {
  describe(`ElbPort contract (${side.target})`, () => {
    const world = useContractSide(side);
    let serial = 0;
    const unique = (length?: number) => contractName('contract', ++serial, length);
    const request = (name: string, overrides: Partial<CreateClassicLoadBalancerRequest> = {}): CreateClassicLoadBalancerRequest => {
      const { subnetIds, securityGroupIds } = world();
      return { name, listeners: [TCP_80], subnets: [subnetIds[0] as string], securityGroups: [securityGroupIds[0] as string], internal: false, tags: { owner: 'contract' }, ...overrides };
    };
    const created = async (overrides: Partial<CreateClassicLoadBalancerRequest> = {}): Promise<string> => {
      const name = unique();
      await world().port.createLoadBalancer(request(name, overrides));
      return name;
    };

    it('creates a load balancer with its listeners, subnet, groups and tags and describes it; an unknown name describes as undefined', async () => {
      const { port, subnetIds, securityGroupIds } = world();
      const name = unique();
      const dnsName = await port.createLoadBalancer(request(name));
      expect(dnsName.startsWith(`${name}`)).toBe(true);
      expect(dnsName).toMatch(/\.elb\.amazonaws\.com$/);
      await expect(port.describeLoadBalancer(name)).resolves.toMatchObject({
        name,
        dnsName,
        scheme: 'internet-facing',
        listeners: [{ listener: { protocol: 'TCP', loadBalancerPort: 80, instanceProtocol: 'TCP', instancePort: 30080 }, policyNames: [] }],
        subnets: [subnetIds[0]],
        securityGroups: [securityGroupIds[0]],
        instanceIds: [],
        backendServers: [],
      });
      await expect(port.describeTags(name)).resolves.toEqual({ owner: 'contract' });
      const internal = await created({ internal: true, tags: {} });
      expect((await port.describeLoadBalancer(internal))?.scheme).toBe('internal');
      await expect(port.describeTags(internal)).resolves.toEqual({});
      await expect(port.describeLoadBalancer('contract-no-such-lb')).resolves.toBeUndefined();
    });

    it('refuses a second load balancer of the same name (DuplicateLoadBalancerName) and one without listeners (ValidationError)', async () => {
      const { port } = world();
      const name = await created();
      await expectRefusal(port.createLoadBalancer(request(name)), 'DuplicateLoadBalancerName', 'Conflict');
      await expectRefusal(port.createLoadBalancer(request(unique(), { listeners: [] })), 'ValidationError', 'Invalid');
    });

    it('known moto gap: names over 32 characters, with characters other than letters, digits and hyphens, or empty (AWS: ValidationError; moto creates them)', async () => {
      const { port } = world();
      for (const name of [unique(33), `contract_${++serial}`, '']) {
        const call = port.createLoadBalancer(request(name));
        if (side.target === 'moto') await expect(call).resolves.toMatch(/elb\.amazonaws\.com$/);
        else await expectRefusal(call, 'ValidationError', 'Invalid');
      }
    });

    it('deletes a load balancer; deleting one that is not there succeeds; its tags are then LoadBalancerNotFound', async () => {
      const { port } = world();
      const name = await created();
      await port.deleteLoadBalancer(name);
      await expect(port.describeLoadBalancer(name)).resolves.toBeUndefined();
      await port.deleteLoadBalancer(name);
      await expectRefusal(port.describeTags(name), 'LoadBalancerNotFound', 'NotFound');
    });

    it('adds tags to a load balancer; refuses tags on an unknown one (LoadBalancerNotFound)', async () => {
      const { port } = world();
      const name = await created();
      await port.addTags(name, { team: 'blue' });
      await expect(port.describeTags(name)).resolves.toEqual({ owner: 'contract', team: 'blue' });
      await expectRefusal(port.addTags('contract-no-such-lb', { team: 'blue' }), 'LoadBalancerNotFound', 'NotFound');
    });

    it('known moto gap: AddTags with an empty tag list (AWS: ValidationError, Tags has at least one member; moto accepts it)', async () => {
      const { port } = world();
      const name = await created();
      const call = port.addTags(name, {});
      if (side.target === 'moto') await expect(call).resolves.toBeUndefined();
      else await expectRefusal(call, 'ValidationError', 'Invalid');
    });

    it('registers and deregisters instances; deregistering one that is not registered succeeds', async () => {
      const { port, instanceIds } = world();
      const name = await created();
      await port.registerInstances(name, instanceIds);
      expect((await port.describeLoadBalancer(name))?.instanceIds.sort()).toEqual([...instanceIds].sort());
      await port.deregisterInstances(name, [instanceIds[0] as string]);
      await port.deregisterInstances(name, [instanceIds[0] as string]);
      expect((await port.describeLoadBalancer(name))?.instanceIds).toEqual([instanceIds[1]]);
    });

    it('creates and deletes listeners: the same listener again is accepted, another on a taken port is DuplicateListener', async () => {
      const { port } = world();
      const name = await created();
      const https: ClassicListener = { protocol: 'tcp', loadBalancerPort: 443, instanceProtocol: 'tcp', instancePort: 30443 };
      await port.createListeners(name, [https]);
      await port.createListeners(name, [TCP_80]);
      await expectRefusal(port.createListeners(name, [{ ...TCP_80, instancePort: 30081 }]), 'DuplicateListener', 'Conflict');
      const ports = async () => (await port.describeLoadBalancer(name))?.listeners.map((entry) => [entry.listener.loadBalancerPort, entry.listener.instancePort]).sort();
      expect(await ports()).toEqual([
        [443, 30443],
        [80, 30080],
      ]);
      await port.deleteListeners(name, [443]);
      expect(await ports()).toEqual([[80, 30080]]);
    });

    it('known moto gap: DeleteLoadBalancerListeners naming two ports without a listener (AWS: nothing to delete; moto keeps each listener once per port named)', async () => {
      const { port } = world();
      const name = await created();
      await port.deleteListeners(name, [8443, 9443]);
      const ports = (await port.describeLoadBalancer(name))?.listeners.map((entry) => entry.listener.loadBalancerPort);
      expect(ports).toEqual(side.target === 'moto' ? [80, 80] : [80]);
    });

    it('attaches and detaches subnets and replaces the security groups; refuses a security group that does not exist (ValidationError)', async () => {
      const { port, subnetIds, securityGroupIds } = world();
      const name = await created();
      await port.attachToSubnets(name, [subnetIds[1] as string]);
      expect((await port.describeLoadBalancer(name))?.subnets.sort()).toEqual([...subnetIds].sort());
      await port.detachFromSubnets(name, [subnetIds[0] as string]);
      expect((await port.describeLoadBalancer(name))?.subnets).toEqual([subnetIds[1]]);
      await port.applySecurityGroups(name, [securityGroupIds[1] as string]);
      expect((await port.describeLoadBalancer(name))?.securityGroups).toEqual([securityGroupIds[1]]);
      await expectRefusal(port.applySecurityGroups(name, ['sg-0123456789abcdef0']), 'ValidationError', 'Invalid');
      expect((await port.describeLoadBalancer(name))?.securityGroups).toEqual([securityGroupIds[1]]);
    });

    it('configures the health check; refuses a target that names no protocol (ValidationError)', async () => {
      const { port } = world();
      const name = await created();
      await port.configureHealthCheck(name, HEALTH_CHECK);
      expect((await port.describeLoadBalancer(name))?.healthCheck).toEqual(HEALTH_CHECK);
      await port.configureHealthCheck(name, { ...HEALTH_CHECK, target: 'HTTP:30081/healthz' });
      expect((await port.describeLoadBalancer(name))?.healthCheck?.target).toBe('HTTP:30081/healthz');
      await expectRefusal(port.configureHealthCheck(name, { ...HEALTH_CHECK, target: 'nonsense' }), 'ValidationError', 'Invalid');
    });

    it('describes and modifies the attributes', async () => {
      const { port } = world();
      const name = await created();
      await expect(port.describeAttributes(name)).resolves.toMatchObject({
        accessLog: { enabled: false },
        connectionDraining: { enabled: false },
        connectionSettings: { idleTimeout: 60 },
        crossZoneLoadBalancing: { enabled: false },
      });
      const modified = { accessLog: { enabled: false }, connectionDraining: { enabled: true, timeout: 120 }, connectionSettings: { idleTimeout: 90 }, crossZoneLoadBalancing: { enabled: true } };
      await port.modifyAttributes(name, modified);
      await expect(port.describeAttributes(name)).resolves.toEqual(modified);
    });

    it('creates a policy and sets it on a backend port and a listener; names only the policies that exist; an unknown load balancer is LoadBalancerNotFound', async () => {
      const { port } = world();
      const name = await created();
      await expect(port.describePolicyNames(name, [PROXY_PROTOCOL.policyName])).resolves.toEqual([]);
      await port.createPolicy(name, PROXY_PROTOCOL);
      await expect(port.describePolicyNames(name, [PROXY_PROTOCOL.policyName, 'contract-absent'])).resolves.toEqual([PROXY_PROTOCOL.policyName]);
      await port.setBackendServerPolicies(name, 30080, [PROXY_PROTOCOL.policyName]);
      await port.setListenerPolicies(name, 80, [PROXY_PROTOCOL.policyName]);
      const described = await port.describeLoadBalancer(name);
      expect(described?.backendServers).toEqual([{ instancePort: 30080, policyNames: [PROXY_PROTOCOL.policyName] }]);
      expect(described?.listeners[0]?.policyNames).toEqual([PROXY_PROTOCOL.policyName]);
      await port.setListenerPolicies(name, 80, []);
      expect((await port.describeLoadBalancer(name))?.listeners[0]?.policyNames).toEqual([]);
      await expectRefusal(port.describePolicyNames('contract-no-such-lb', [PROXY_PROTOCOL.policyName]), 'LoadBalancerNotFound', 'NotFound');
    });

    it('known moto gap: a policy name taken, a policy that does not exist, a listener port that does not exist (AWS: DuplicatePolicyName, PolicyNotFound, ListenerNotFound; moto accepts them)', async () => {
      const { port } = world();
      const name = await created();
      await port.createPolicy(name, PROXY_PROTOCOL);
      const calls = [
        ['DuplicatePolicyName', () => port.createPolicy(name, PROXY_PROTOCOL)],
        ['PolicyNotFound', () => port.setBackendServerPolicies(name, 30080, ['contract-absent'])],
        ['PolicyNotFound', () => port.setListenerPolicies(name, 80, ['contract-absent'])],
        ['ListenerNotFound', () => port.setListenerPolicies(name, 8080, [])],
      ] as const;
      for (const [code, call] of calls) {
        if (side.target === 'moto') await expect(call()).resolves.toBeUndefined();
        else await expectRefusal(call(), code);
      }
    });

    it('known moto gap: calls on an unknown load balancer (AWS: LoadBalancerNotFound; moto fails with an internal error, an HTML page)', async () => {
      const { port, instanceIds } = world();
      const unknown = 'contract-no-such-lb';
      const calls = [
        () => port.registerInstances(unknown, instanceIds),
        () => port.configureHealthCheck(unknown, HEALTH_CHECK),
        () => port.describeAttributes(unknown),
        () => port.createPolicy(unknown, PROXY_PROTOCOL),
      ];
      for (const call of calls) {
        if (side.target === 'moto') await expect(call()).rejects.toMatchObject({ name: 'AwsApiError', kind: 'Unavailable', httpStatus: 500 });
        else await expectRefusal(call(), 'LoadBalancerNotFound', 'NotFound');
      }
    });
  });
}
