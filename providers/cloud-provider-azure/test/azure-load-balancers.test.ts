import type { V1Node, V1Service } from '@kubernetes/client-node';
import { ImplementedElsewhereError, PermanentInvalidServiceConfigurationError, type LoadBalancer } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import type { AzureSecurityRule } from '../src/ports/network-port.js';
import { armError } from './fakes/fake-errors.js';
import { addScaleSetVirtualMachine, addVirtualMachine, CONFIG, createHarness, node, RESOURCE_GROUP, SUBSCRIPTION, type Harness } from './helpers.js';

const CLUSTER = 'kubernetes';
const UID = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const BASE = 'a1b4e28ba2fa111d2883f0016d3cca42';
const OTHER_UID = '6fa459ea-ee8a-3ca4-894e-db77e160355e';
const OTHER_BASE = 'a6fa459eaee8a3ca4894edb77e160355';
const NSG = 'cluster-nsg';
const A = 'service.beta.kubernetes.io/';

interface ServiceShape {
  name?: string;
  uid?: string;
  annotations?: Record<string, string>;
  ports?: Array<{ name?: string; port: number; nodePort?: number; protocol?: string; appProtocol?: string }>;
  externalTrafficPolicy?: 'Local' | 'Cluster';
  healthCheckNodePort?: number;
  loadBalancerSourceRanges?: string[];
  loadBalancerIP?: string;
  loadBalancerClass?: string;
  sessionAffinity?: string;
}

function service(shape: ServiceShape = {}): V1Service {
  return {
    metadata: { name: shape.name ?? 'web', namespace: 'default', uid: shape.uid ?? UID, ...(shape.annotations === undefined ? {} : { annotations: shape.annotations }) },
    spec: {
      type: 'LoadBalancer',
      ports: shape.ports ?? [{ name: 'http', port: 80, nodePort: 30080, protocol: 'TCP' }],
      ...(shape.externalTrafficPolicy === undefined ? {} : { externalTrafficPolicy: shape.externalTrafficPolicy }),
      ...(shape.healthCheckNodePort === undefined ? {} : { healthCheckNodePort: shape.healthCheckNodePort }),
      ...(shape.loadBalancerSourceRanges === undefined ? {} : { loadBalancerSourceRanges: shape.loadBalancerSourceRanges }),
      ...(shape.loadBalancerIP === undefined ? {} : { loadBalancerIP: shape.loadBalancerIP }),
      ...(shape.loadBalancerClass === undefined ? {} : { loadBalancerClass: shape.loadBalancerClass }),
      ...(shape.sessionAffinity === undefined ? {} : { sessionAffinity: shape.sessionAffinity }),
    },
  };
}

const poolId = (name = CLUSTER) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.Network/loadBalancers/${name}/backendAddressPools/${CLUSTER}`;

async function cluster(config: Record<string, unknown> = CONFIG): Promise<{ harness: Harness; lb: LoadBalancer; nodes: V1Node[] }> {
  const harness = await createHarness(config);
  harness.network.addSecurityGroup(RESOURCE_GROUP, NSG, [
    { name: 'user-ssh', priority: 500, direction: 'Inbound', access: 'Allow', protocol: 'Tcp', sourcePortRange: '*', sourceAddressPrefixes: ['10.0.0.0/8'], destinationAddressPrefixes: ['*'], destinationPortRanges: ['22'] },
  ]);
  addVirtualMachine(harness, 'node-a', '10.0.0.4');
  addScaleSetVirtualMachine(harness, 'pool', '0', 'pool000000', '10.0.0.5');
  const lb = harness.cloud.loadBalancer();
  return { harness, lb, nodes: [node('node-a'), node('pool000000')] };
}

const managedRules = (harness: Harness): AzureSecurityRule[] => harness.network.securityGroup(RESOURCE_GROUP, NSG)?.securityRules.filter((rule) => rule.name.startsWith('k8s-azure-lb_')) ?? [];

const writes = (harness: Harness): number =>
  ['network.putLoadBalancer', 'network.putPublicIp', 'network.putSecurityGroup', 'network.setNetworkInterfaceBackendPools', 'network.deleteLoadBalancer', 'network.deletePublicIp'].reduce(
    (sum, operation) => sum + harness.network.log.count(operation),
    harness.compute.log.count('compute.setScaleSetBackendPools') + harness.compute.log.count('compute.setScaleSetVirtualMachineBackendPools'),
  );

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('LoadBalancer: external Services', () => {
  it('creates the public IP, the shared load balancer (frontend, rule, probe, pool), fills the pool with a VM NIC and a scale-set VM, opens the security group', async () => {
    const { harness, lb, nodes } = await cluster();
    const status = await lb.ensureLoadBalancer(CLUSTER, service(), nodes);

    const publicIp = harness.network.publicIp(RESOURCE_GROUP, `${CLUSTER}-${BASE}`);
    expect(publicIp?.tags).toEqual({ team: 'platform', 'k8s-azure-service': 'default/web', 'k8s-azure-cluster-name': CLUSTER });
    expect(status).toEqual({ ingress: [{ ip: publicIp?.ipAddress }] });

    const balancer = harness.network.loadBalancer(RESOURCE_GROUP, CLUSTER);
    expect(balancer?.sku).toBe('Standard');
    expect(balancer?.tags).toEqual({ team: 'platform' });
    expect(balancer?.frontendIpConfigurations.map((frontend) => [frontend.name, frontend.publicIpAddressId])).toEqual([[BASE, publicIp?.id]]);
    expect(balancer?.backendAddressPools.map((pool) => pool.name)).toEqual([CLUSTER]);
    expect(balancer?.loadBalancingRules).toEqual([
      {
        name: `${BASE}-TCP-80`,
        frontendIpConfigurationName: BASE,
        backendAddressPoolName: CLUSTER,
        probeName: `${BASE}-TCP-80`,
        protocol: 'Tcp',
        frontendPort: 80,
        backendPort: 80,
        enableFloatingIp: true,
        idleTimeoutInMinutes: 4,
        enableTcpReset: true,
        loadDistribution: 'Default',
        disableOutboundSnat: false,
      },
    ]);
    expect(balancer?.probes).toEqual([{ name: `${BASE}-TCP-80`, protocol: 'Tcp', port: 30080, intervalInSeconds: 5, probeThreshold: 2 }]);

    const nic = harness.network.networkInterfaces.get(`/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.Network/networkInterfaces/node-a-nic`.toLowerCase());
    expect(nic?.ipConfigurations[0]?.loadBalancerBackendAddressPoolIds).toEqual([poolId()]);
    expect(harness.compute.scaleSetNetworks.get(`${RESOURCE_GROUP}/pool`.toLowerCase())?.ipConfigurations[0]?.loadBalancerBackendAddressPoolIds).toEqual([poolId()]);
    expect(harness.compute.instanceNetworks.get(`${RESOURCE_GROUP}/pool/0`.toLowerCase())?.ipConfigurations[0]?.loadBalancerBackendAddressPoolIds).toEqual([poolId()]);
    expect((await harness.network.getLoadBalancer(RESOURCE_GROUP, CLUSTER)).backendAddressPools[0]?.backendIpConfigurationIds).toHaveLength(2);

    const rules = managedRules(harness);
    expect(rules).toEqual([
      {
        name: expect.stringMatching(/^k8s-azure-lb_allow_IPv4_[0-9a-f]{32}$/),
        priority: 501,
        direction: 'Inbound',
        access: 'Allow',
        protocol: 'Tcp',
        sourcePortRange: '*',
        sourceAddressPrefixes: ['Internet'],
        destinationAddressPrefixes: [publicIp?.ipAddress],
        destinationPortRanges: ['80'],
      },
    ]);
    expect(harness.network.securityGroup(RESOURCE_GROUP, NSG)?.securityRules.find((rule) => rule.name === 'user-ssh')).toBeDefined();
    expect(await lb.getLoadBalancer(CLUSTER, service())).toEqual({ exists: true, status });
    expect(lb.getLoadBalancerName(CLUSTER, service())).toBe(CLUSTER);
  });

  it('a second ensure with nothing changed writes nothing (updates are diffs)', async () => {
    const { harness, lb, nodes } = await cluster();
    await lb.ensureLoadBalancer(CLUSTER, service(), nodes);
    harness.network.log.reset();
    harness.compute.log.reset();
    await lb.ensureLoadBalancer(CLUSTER, service(), nodes);
    expect(writes(harness)).toBe(0);
  });

  it('two Services share the load balancer and the pool; deleting one keeps the other; deleting the last removes the load balancer, its public IPs and its security rules', async () => {
    const { harness, lb, nodes } = await cluster();
    const first = await lb.ensureLoadBalancer(CLUSTER, service(), nodes);
    const second = await lb.ensureLoadBalancer(CLUSTER, service({ name: 'api', uid: OTHER_UID, ports: [{ port: 443, nodePort: 30443, protocol: 'TCP' }] }), nodes);
    expect(first.ingress?.[0]?.ip).not.toBe(second.ingress?.[0]?.ip);
    expect(harness.network.loadBalancer(RESOURCE_GROUP, CLUSTER)?.frontendIpConfigurations.map((frontend) => frontend.name).sort()).toEqual([BASE, OTHER_BASE].sort());
    expect(managedRules(harness)).toHaveLength(2);

    await lb.ensureLoadBalancerDeleted(CLUSTER, service());
    const balancer = harness.network.loadBalancer(RESOURCE_GROUP, CLUSTER);
    expect(balancer?.frontendIpConfigurations.map((frontend) => frontend.name)).toEqual([OTHER_BASE]);
    expect(balancer?.loadBalancingRules.map((rule) => rule.name)).toEqual([`${OTHER_BASE}-TCP-443`]);
    expect(harness.network.publicIp(RESOURCE_GROUP, `${CLUSTER}-${BASE}`)).toBeUndefined();
    expect(managedRules(harness).map((rule) => rule.destinationAddressPrefixes)).toEqual([[second.ingress?.[0]?.ip]]);
    expect(await lb.getLoadBalancer(CLUSTER, service())).toEqual({ exists: false, status: undefined });

    await lb.ensureLoadBalancerDeleted(CLUSTER, service({ name: 'api', uid: OTHER_UID }));
    expect(harness.network.loadBalancer(RESOURCE_GROUP, CLUSTER)).toBeUndefined();
    expect(harness.network.publicIpResources.size).toBe(0);
    expect(managedRules(harness)).toEqual([]);
    expect(harness.compute.scaleSetNetworks.get(`${RESOURCE_GROUP}/pool`.toLowerCase())?.ipConfigurations[0]?.loadBalancerBackendAddressPoolIds).toEqual([]);
    // Deleting again is no error.
    await lb.ensureLoadBalancerDeleted(CLUSTER, service({ name: 'api', uid: OTHER_UID }));
  });

  it('a node sync\'s update beside the Service\'s delete runs after it (upstream serviceReconcileLock): no public IP, frontend or load balancer is left', async () => {
    const { harness, lb, nodes } = await cluster();
    await lb.ensureLoadBalancer(CLUSTER, service(), nodes);
    // The node sync holds the Service as it was before its deletion began (no deletionTimestamp).
    await Promise.all([lb.ensureLoadBalancerDeleted(CLUSTER, service()), lb.updateLoadBalancer(CLUSTER, service(), nodes.slice(0, 1))]);
    expect(harness.network.publicIpResources.size).toBe(0);
    expect(harness.network.loadBalancer(RESOURCE_GROUP, CLUSTER)).toBeUndefined();
    expect(managedRules(harness)).toEqual([]);
  });

  it('node changes: control-plane and unmanaged nodes stay out, nodes gone leave the pool (VM NIC and scale-set VM)', async () => {
    const { harness, lb, nodes } = await cluster();
    addVirtualMachine(harness, 'master-0', '10.0.0.9');
    addVirtualMachine(harness, 'node-x', '10.0.0.10');
    await lb.ensureLoadBalancer(CLUSTER, service(), [
      ...nodes,
      node('master-0', { labels: { 'node-role.kubernetes.io/control-plane': '' } }),
      node('node-x', { labels: { 'kubernetes.azure.com/managed': 'false' } }),
    ]);
    const members = async () =>
      (await harness.network.getLoadBalancer(RESOURCE_GROUP, CLUSTER)).backendAddressPools[0]?.backendIpConfigurationIds?.map((id) => {
        const segments = id.split('/');
        return id.includes('/virtualMachineScaleSets/') ? `${segments[8]}/${segments[10]}` : segments[8];
      });
    expect((await members())?.sort()).toEqual(['node-a-nic', 'pool/0']);
    await lb.updateLoadBalancer(CLUSTER, service(), [node('node-a')]);
    expect(await members()).toEqual(['node-a-nic']);
    expect(harness.compute.instanceNetworks.get(`${RESOURCE_GROUP}/pool/0`.toLowerCase())?.ipConfigurations[0]?.loadBalancerBackendAddressPoolIds).toEqual([]);
    expect(harness.compute.scaleSetNetworks.get(`${RESOURCE_GROUP}/pool`.toLowerCase())?.ipConfigurations[0]?.loadBalancerBackendAddressPoolIds).toEqual([]);
  });

  it('node changes run the whole ensure (upstream UpdateLoadBalancer -> EnsureLoadBalancer): a rule and a probe removed by hand are put back; a Service being deleted or no longer of type LoadBalancer is left alone', async () => {
    const { harness, lb, nodes } = await cluster();
    await lb.ensureLoadBalancer(CLUSTER, service(), nodes);
    const key = `${RESOURCE_GROUP}/${CLUSTER}`.toLowerCase();
    const before = structuredClone(harness.network.loadBalancers.get(key));
    const drifted = harness.network.loadBalancers.get(key);
    if (drifted === undefined || before === undefined) throw new Error('no load balancer');
    drifted.loadBalancingRules = [];
    drifted.probes = [];
    await lb.updateLoadBalancer(CLUSTER, { ...service(), metadata: { ...service().metadata, deletionTimestamp: new Date() } }, nodes);
    await lb.updateLoadBalancer(CLUSTER, { ...service(), spec: { ...service().spec, type: 'ClusterIP' } }, nodes);
    expect(harness.network.loadBalancers.get(key)?.loadBalancingRules).toEqual([]);
    await lb.updateLoadBalancer(CLUSTER, service(), nodes);
    const repaired = harness.network.loadBalancers.get(key);
    expect(repaired?.loadBalancingRules.map((rule) => rule.name)).toEqual(before.loadBalancingRules.map((rule) => rule.name));
    expect(repaired?.probes.map((probe) => probe.name)).toEqual(before.probes.map((probe) => probe.name));
  });

  it('excludeMasterFromStandardLB false lets control-plane nodes into the pool', async () => {
    const { harness, lb } = await cluster({ ...CONFIG, excludeMasterFromStandardLB: false });
    addVirtualMachine(harness, 'master-0', '10.0.0.9');
    await lb.ensureLoadBalancer(CLUSTER, service(), [node('master-0', { labels: { 'node-role.kubernetes.io/control-plane': '' } })]);
    expect((await harness.network.getLoadBalancer(RESOURCE_GROUP, CLUSTER)).backendAddressPools[0]?.backendIpConfigurationIds?.map((id) => id.split('/')[8])).toEqual(['master-0-nic']);
  });

  it('a stale etag (412) is read again and the write retried', async () => {
    const { harness, lb, nodes } = await cluster();
    harness.network.log.failNext('network.putLoadBalancer', armError('network.putLoadBalancer', 'PreconditionFailed', 'PreconditionFailed', { httpStatus: 412 }));
    await lb.ensureLoadBalancer(CLUSTER, service(), nodes);
    expect(harness.network.log.count('network.putLoadBalancer')).toBe(2);
    expect(harness.network.log.count('network.getLoadBalancer')).toBeGreaterThanOrEqual(2);
    // The write carries the etag read (If-Match).
    await lb.ensureLoadBalancer(CLUSTER, service({ ports: [{ port: 8080, nodePort: 30081, protocol: 'TCP' }] }), nodes);
    const last = harness.network.log.calls.filter((call) => call.operation === 'network.putLoadBalancer').pop();
    expect(last?.args[2]).toEqual({ ifMatch: expect.stringMatching(/^W\/"\d+"$/) });
  });

  it('honours loadBalancerName, disableOutboundSNAT and maximumLoadBalancerRuleCount (nothing written past it)', async () => {
    const { harness, lb, nodes } = await cluster({ ...CONFIG, loadBalancerName: 'shared', disableOutboundSNAT: true, maximumLoadBalancerRuleCount: 2 });
    await lb.ensureLoadBalancer(CLUSTER, service(), nodes);
    expect(harness.network.loadBalancer(RESOURCE_GROUP, 'shared')?.loadBalancingRules[0]?.disableOutboundSnat).toBe(true);
    expect(lb.getLoadBalancerName(CLUSTER, service({ annotations: { [`${A}azure-load-balancer-internal`]: 'true' } }))).toBe('shared-internal');
    harness.network.log.reset();
    const many = service({ name: 'many', uid: OTHER_UID, ports: [80, 81].map((port) => ({ port, nodePort: 30000 + port, protocol: 'TCP' })) });
    const error = await rejection(lb.ensureLoadBalancer(CLUSTER, many, nodes));
    expect(String(error)).toContain('maximumLoadBalancerRuleCount (2)');
    expect(harness.network.log.count('network.putLoadBalancer')).toBe(0);
  });

  it('leaves Services of another loadBalancerClass alone', async () => {
    const { harness, lb, nodes } = await cluster();
    await expect(lb.ensureLoadBalancer(CLUSTER, service({ loadBalancerClass: 'example.com/other' }), nodes)).rejects.toBeInstanceOf(ImplementedElsewhereError);
    await lb.ensureLoadBalancerDeleted(CLUSTER, service({ loadBalancerClass: 'example.com/other' }));
    expect(harness.network.log.calls).toEqual([]);
  });
});

describe('LoadBalancer: internal Services and switching kinds', () => {
  const internal = { [`${A}azure-load-balancer-internal`]: 'true' };

  it('puts an internal Service on <cluster>-internal with a private frontend in the cluster subnet; a subnet annotation changes the names', async () => {
    const { harness, lb, nodes } = await cluster();
    const status = await lb.ensureLoadBalancer(CLUSTER, service({ annotations: internal }), nodes);
    const balancer = harness.network.loadBalancer(RESOURCE_GROUP, `${CLUSTER}-internal`);
    const frontend = balancer?.frontendIpConfigurations[0];
    expect(frontend?.name).toBe(BASE);
    expect(frontend?.subnetId).toBe(`/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.Network/virtualNetworks/cluster-vnet/subnets/nodes`);
    expect(status).toEqual({ ingress: [{ ip: frontend?.privateIpAddress }] });
    expect(harness.network.publicIpResources.size).toBe(0);
    expect(managedRules(harness)[0]?.sourceAddressPrefixes).toEqual(['*']);

    await lb.ensureLoadBalancer(CLUSTER, service({ annotations: { ...internal, [`${A}azure-load-balancer-internal-subnet`]: 'ilb', [`${A}azure-load-balancer-ipv4`]: '10.1.0.7' } }), nodes);
    const moved = harness.network.loadBalancer(RESOURCE_GROUP, `${CLUSTER}-internal`);
    expect(moved?.frontendIpConfigurations.map((item) => [item.name, item.subnetId?.split('/').pop(), item.privateIpAllocationMethod, item.privateIpAddress])).toEqual([[`${BASE}-ilb`, 'ilb', 'Static', '10.1.0.7']]);
    expect(moved?.loadBalancingRules.map((rule) => rule.name)).toEqual([`${BASE}-ilb-TCP-80`]);
    expect(managedRules(harness).map((rule) => rule.destinationAddressPrefixes)).toEqual([['10.1.0.7']]);
  });

  it('switching external -> internal removes the external frontend (and the load balancer it was alone on) and the public IP', async () => {
    const { harness, lb, nodes } = await cluster();
    await lb.ensureLoadBalancer(CLUSTER, service(), nodes);
    await lb.ensureLoadBalancer(CLUSTER, service({ annotations: internal }), nodes);
    expect(harness.network.loadBalancer(RESOURCE_GROUP, CLUSTER)).toBeUndefined();
    expect(harness.network.loadBalancer(RESOURCE_GROUP, `${CLUSTER}-internal`)?.frontendIpConfigurations).toHaveLength(1);
    expect(harness.network.publicIpResources.size).toBe(0);
    expect(managedRules(harness)).toHaveLength(1);
  });

  it('externalTrafficPolicy Local probes HTTP /healthz on the health check NodePort: one probe named as a TCP rule of that port, shared by every rule (upstream getExpectedLBRules)', async () => {
    const { harness, lb, nodes } = await cluster();
    const ports = [
      { name: 'http', port: 80, nodePort: 30080, protocol: 'TCP' },
      { name: 'https', port: 443, nodePort: 30443, protocol: 'TCP' },
    ];
    await lb.ensureLoadBalancer(CLUSTER, service({ externalTrafficPolicy: 'Local', healthCheckNodePort: 32000, annotations: internal, ports }), nodes);
    const balancer = harness.network.loadBalancer(RESOURCE_GROUP, `${CLUSTER}-internal`);
    expect(balancer?.probes).toEqual([{ name: `${BASE}-TCP-32000`, protocol: 'Http', port: 32000, requestPath: '/healthz', intervalInSeconds: 5, probeThreshold: 2 }]);
    expect(balancer?.loadBalancingRules.map((rule) => [rule.name, rule.probeName])).toEqual([
      [`${BASE}-TCP-80`, `${BASE}-TCP-32000`],
      [`${BASE}-TCP-443`, `${BASE}-TCP-32000`],
    ]);
  });
});

describe('LoadBalancer: annotations', () => {
  const rule = (harness: Harness, name = CLUSTER) => harness.network.loadBalancer(RESOURCE_GROUP, name)?.loadBalancingRules[0];
  const probes = (harness: Harness, name = CLUSTER) => harness.network.loadBalancer(RESOURCE_GROUP, name)?.probes;

  it.each([
    ['azure-load-balancer-tcp-idle-timeout', '30', (harness: Harness) => expect(rule(harness)?.idleTimeoutInMinutes).toBe(30)],
    ['azure-load-balancer-disable-tcp-reset', 'true', (harness: Harness) => expect(rule(harness)?.enableTcpReset).toBe(false)],
    [
      'azure-disable-load-balancer-floating-ip',
      'true',
      (harness: Harness) => {
        expect(rule(harness)).toMatchObject({ enableFloatingIp: false, backendPort: 30080, frontendPort: 80 });
        expect(managedRules(harness)[0]?.destinationPortRanges).toEqual(['30080']);
      },
    ],
    ['azure-load-balancer-health-probe-protocol', 'http', (harness: Harness) => expect(probes(harness)?.[0]).toMatchObject({ protocol: 'Http', requestPath: '/', port: 30080 })],
    ['azure-load-balancer-health-probe-interval', '10', (harness: Harness) => expect(probes(harness)?.[0]).toMatchObject({ intervalInSeconds: 10, probeThreshold: 2 })],
    ['azure-load-balancer-health-probe-num-of-probe', '4', (harness: Harness) => expect(probes(harness)?.[0]).toMatchObject({ probeThreshold: 4 })],
    ['port_80_no_probe_rule', 'true', (harness: Harness) => expect([probes(harness), rule(harness)?.probeName]).toEqual([[], undefined])],
    ['port_80_health-probe_protocol', 'Https', (harness: Harness) => expect(probes(harness)?.[0]).toMatchObject({ protocol: 'Https', requestPath: '/' })],
    ['port_80_health-probe_port', 'admin', (harness: Harness) => expect(probes(harness)?.[0]?.port).toBe(30999)],
    ['port_80_health-probe_interval', '6', (harness: Harness) => expect(probes(harness)?.[0]?.intervalInSeconds).toBe(6)],
    ['port_80_health-probe_num-of-probe', '3', (harness: Harness) => expect(probes(harness)?.[0]?.probeThreshold).toBe(3)],
    [
      'port_80_health-probe_request-path',
      '/ready',
      (harness: Harness) => expect(probes(harness)?.[0]?.requestPath).toBe(undefined), // Tcp probes have no path
    ],
    ['port_80_no_lb_rule', 'true', (harness: Harness) => expect(harness.network.loadBalancer(RESOURCE_GROUP, CLUSTER)?.loadBalancingRules.map((item) => item.frontendPort)).toEqual([9000])],
    ['azure-allowed-ip-ranges', '10.1.0.0/16, 192.168.0.0/24', (harness: Harness) => expect(managedRules(harness).map((item) => item.sourceAddressPrefixes)).toEqual([['10.1.0.0/16', '192.168.0.0/24']])],
    ['azure-allowed-service-tags', 'AzureFrontDoor.Backend,AzureCloud', (harness: Harness) => expect(managedRules(harness).map((item) => item.sourceAddressPrefixes).sort()).toEqual([['AzureCloud'], ['AzureFrontDoor.Backend']])],
    [
      'azure-deny-all-except-load-balancer-source-ranges',
      'true',
      (harness: Harness) => expect(managedRules(harness).find((item) => item.name === 'k8s-azure-lb_deny-all_IPv4')).toMatchObject({ access: 'Deny', priority: 4096, sourceAddressPrefixes: ['*'] }),
    ],
    ['azure-disable-load-balancer-nsg-rule', 'true', (harness: Harness) => expect(managedRules(harness)).toEqual([])],
    ['azure-pip-tags', 'owner=team-a, cost=42', (harness: Harness) => expect(harness.network.publicIp(RESOURCE_GROUP, `${CLUSTER}-${BASE}`)?.tags).toMatchObject({ owner: 'team-a', cost: '42' })],
    ['azure-pip-ip-tags', 'RoutingPreference=Internet', (harness: Harness) => expect(harness.network.publicIp(RESOURCE_GROUP, `${CLUSTER}-${BASE}`)?.ipTags).toEqual([{ ipTagType: 'RoutingPreference', tag: 'Internet' }])],
    [
      'azure-dns-label-name',
      'my-web',
      (harness: Harness) => expect(harness.network.publicIp(RESOURCE_GROUP, `${CLUSTER}-${BASE}`)).toMatchObject({ domainNameLabel: 'my-web', tags: expect.objectContaining({ 'k8s-azure-dns-label-service': 'default/web' }) }),
    ],
    ['azure-pip-name', 'web-ip', (harness: Harness) => expect(harness.network.publicIp(RESOURCE_GROUP, 'web-ip')?.tags['k8s-azure-service']).toBe('default/web')],
    ['azure-load-balancer-mode', '__auto__', (harness: Harness) => expect(rule(harness)?.name).toBe(`${BASE}-TCP-80`)],
    ['azure-pls-create', 'true', (harness: Harness) => expect(rule(harness)?.name).toBe(`${BASE}-TCP-80`)],
  ])('%s=%s', async (name, value, check) => {
    const { harness, lb, nodes } = await cluster();
    const ports = [
      { name: 'http', port: 80, nodePort: 30080, protocol: 'TCP' },
      ...(name === 'port_80_no_lb_rule' ? [{ name: 'metrics', port: 9000, nodePort: 30900, protocol: 'TCP' }] : []),
      ...(name === 'port_80_health-probe_port' ? [{ name: 'admin', port: 9999, nodePort: 30999, protocol: 'TCP' }] : []),
    ];
    const annotated = service({ annotations: { [`${A}${name}`]: value }, ports });
    const status = await lb.ensureLoadBalancer(CLUSTER, annotated, nodes);
    expect(status.ingress?.[0]?.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    check(harness);
  });

  it('refuses another Service\'s public IP named by azure-pip-name, and a DNS label another Service set, writing nothing (a Warning; upstream serviceOwnsPublicIP)', async () => {
    const { harness, lb, nodes } = await cluster();
    const owner = service({ uid: OTHER_UID, name: 'owner', annotations: { [`${A}azure-dns-label-name`]: 'owner' } });
    const ownerStatus = await lb.ensureLoadBalancer(CLUSTER, owner, nodes);
    const ownerIp = harness.network.publicIp(RESOURCE_GROUP, `${CLUSTER}-${OTHER_BASE}`);
    const before = writes(harness);
    const taker = service({ annotations: { [`${A}azure-pip-name`]: `${CLUSTER}-${OTHER_BASE}` } });
    await expect(lb.ensureLoadBalancer(CLUSTER, taker, nodes)).rejects.toSatisfy(
      (error: unknown) => error instanceof PermanentInvalidServiceConfigurationError && error.message.includes('azure-pip-name') && error.message.includes('is used by default/owner'),
    );
    const takerDns = service({ annotations: { [`${A}azure-pip-name`]: `${CLUSTER}-${OTHER_BASE}`, [`${A}azure-dns-label-name`]: 'taken' } });
    await expect(lb.ensureLoadBalancer(CLUSTER, takerDns, nodes)).rejects.toBeInstanceOf(PermanentInvalidServiceConfigurationError);
    expect(writes(harness)).toBe(before);
    expect(harness.network.publicIp(RESOURCE_GROUP, `${CLUSTER}-${OTHER_BASE}`)).toEqual(ownerIp);
    await lb.ensureLoadBalancerDeleted(CLUSTER, owner);
    expect(harness.network.publicIp(RESOURCE_GROUP, `${CLUSTER}-${OTHER_BASE}`)).toBeUndefined();
    expect(ownerStatus.ingress?.[0]?.ip).toBe(ownerIp?.ipAddress);
  });

  it('session affinity ClientIP distributes by source IP; UDP ports get no probe and no TCP reset; HA ports make one All rule on an internal Service', async () => {
    const { harness, lb, nodes } = await cluster();
    await lb.ensureLoadBalancer(CLUSTER, service({ sessionAffinity: 'ClientIP', ports: [{ port: 53, nodePort: 30053, protocol: 'UDP' }] }), nodes);
    expect(rule(harness)).toMatchObject({ name: `${BASE}-UDP-53`, protocol: 'Udp', loadDistribution: 'SourceIP', enableTcpReset: false });
    expect(rule(harness)?.probeName).toBeUndefined();
    await lb.ensureLoadBalancer(CLUSTER, service({ name: 'ha', uid: OTHER_UID, annotations: { [`${A}azure-load-balancer-internal`]: 'true', [`${A}azure-load-balancer-enable-high-availability-ports`]: 'true' } }), nodes);
    expect(rule(harness, `${CLUSTER}-internal`)).toMatchObject({ name: `${OTHER_BASE}-TCP-80`, protocol: 'All', frontendPort: 0, backendPort: 0 });
  });

  it('spec.loadBalancerSourceRanges win over azure-allowed-ip-ranges; a requested external IP uses the existing public IP, which deletion leaves', async () => {
    const { harness, lb, nodes } = await cluster();
    const userIp = harness.network.addPublicIp(RESOURCE_GROUP, 'user-ip', '52.1.2.3');
    const status = await lb.ensureLoadBalancer(
      CLUSTER,
      service({ loadBalancerSourceRanges: ['1.2.3.0/24'], annotations: { [`${A}azure-allowed-ip-ranges`]: '9.9.9.0/24', [`${A}azure-load-balancer-ipv4`]: '52.1.2.3' } }),
      nodes,
    );
    expect(status).toEqual({ ingress: [{ ip: '52.1.2.3' }] });
    expect(harness.network.loadBalancer(RESOURCE_GROUP, CLUSTER)?.frontendIpConfigurations[0]?.publicIpAddressId).toBe(userIp.id);
    expect(managedRules(harness)[0]?.sourceAddressPrefixes).toEqual(['1.2.3.0/24']);
    await lb.ensureLoadBalancerDeleted(CLUSTER, service());
    expect(harness.network.publicIp(RESOURCE_GROUP, 'user-ip')).toBeDefined();
  });

  it('azure-load-balancer-resource-group: the public IP is created in (and deleted from) that resource group', async () => {
    const { harness, lb, nodes } = await cluster();
    await lb.ensureLoadBalancer(CLUSTER, service({ annotations: { [`${A}azure-load-balancer-resource-group`]: 'ip-rg' } }), nodes);
    expect(harness.network.publicIp('ip-rg', `${CLUSTER}-${BASE}`)).toBeDefined();
    await lb.ensureLoadBalancerDeleted(CLUSTER, service({ annotations: { [`${A}azure-load-balancer-resource-group`]: 'ip-rg' } }));
    expect(harness.network.publicIp('ip-rg', `${CLUSTER}-${BASE}`)).toBeUndefined();
  });

  it.each([
    ['azure-load-balancer-tcp-idle-timeout', '3'],
    ['azure-load-balancer-tcp-idle-timeout', 'long'],
    ['azure-load-balancer-disable-tcp-reset', 'yes'],
    ['azure-disable-load-balancer-floating-ip', 'maybe'],
    ['azure-load-balancer-health-probe-protocol', 'udp'],
    ['azure-load-balancer-health-probe-request-path', 'healthz'],
    ['azure-load-balancer-health-probe-interval', '2'],
    ['azure-load-balancer-health-probe-num-of-probe', '0'],
    ['azure-load-balancer-health-probe-num-of-probe', '40'],
    ['port_80_health-probe_port', 'nope'],
    ['port_80_health-probe_port', '70000'],
    ['port_80_no_lb_rule', 'sure'],
    ['azure-allowed-ip-ranges', '10.0.0.0/33'],
    ['azure-allowed-service-tags', 'not a tag'],
    ['azure-pip-tags', 'novalue'],
    ['azure-pip-ip-tags', '=x'],
    ['azure-dns-label-name', 'Bad_Label'],
    ['azure-load-balancer-ipv4', '300.1.1.1'],
    ['azure-pip-name', 'bad name!'],
    ['azure-load-balancer-enable-high-availability-ports', 'true'],
    ['azure-deny-all-except-load-balancer-source-ranges', 'nah'],
    ['azure-disable-load-balancer-nsg-rule', '1'],
  ])('rejects %s=%s before any cloud call, naming the annotation and the value', async (name, value) => {
    const { harness, lb, nodes } = await cluster();
    harness.network.log.reset();
    harness.compute.log.reset();
    const annotations = name === 'azure-load-balancer-health-probe-num-of-probe' && value === '40' ? { [`${A}${name}`]: value, [`${A}azure-load-balancer-health-probe-interval`]: '5' } : { [`${A}${name}`]: value };
    const error = await rejection(lb.ensureLoadBalancer(CLUSTER, service({ annotations }), nodes));
    expect(error).toBeInstanceOf(PermanentInvalidServiceConfigurationError);
    expect((error as PermanentInvalidServiceConfigurationError).annotation).toMatch(new RegExp(`${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    expect((error as PermanentInvalidServiceConfigurationError).value).toBe(value);
    expect(harness.network.log.calls).toEqual([]);
    expect(harness.compute.log.calls).toEqual([]);
  });

  it('rejects an SCTP port and a bad spec.loadBalancerIP before any cloud call', async () => {
    const { harness, lb, nodes } = await cluster();
    harness.network.log.reset();
    await expect(lb.ensureLoadBalancer(CLUSTER, service({ ports: [{ port: 80, nodePort: 30080, protocol: 'SCTP' }] }), nodes)).rejects.toBeInstanceOf(PermanentInvalidServiceConfigurationError);
    await expect(lb.ensureLoadBalancer(CLUSTER, service({ loadBalancerIP: 'fe80::1' }), nodes)).rejects.toBeInstanceOf(PermanentInvalidServiceConfigurationError);
    expect(harness.network.log.calls).toEqual([]);
  });
});
