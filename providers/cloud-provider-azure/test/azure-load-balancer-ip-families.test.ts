/**
 * IPv6 and dual-stack Services and `nodeIP` backend pools over the fakes: upstream's names per
 * family (`getResourceByIPFamily`, `getBackendPoolName`), one frontend and public IP per family,
 * ingress in the Service's family order, security rules per family, deletion of both halves; pools
 * of node addresses (`backendPoolTypeNodeIP`), their migration from NIC pools and back.
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { PermanentInvalidServiceConfigurationError } from '@ccm/core/provider';
import { CloudConfigError } from '@ccm/core/config';
import { describe, expect, it } from 'vitest';
import type { LoadBalancer } from '@ccm/core/provider';
import { createMetricsRegistry } from '@ccm/core/app';
import { createAzureCloud } from '../src/azure-cloud.js';
import { addVirtualMachine, CONFIG, createHarness, RecordingLogger, RESOURCE_GROUP, SUBSCRIPTION, type Harness } from './helpers.js';

const CLUSTER = 'kubernetes';
const UID = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const BASE = 'a1b4e28ba2fa111d2883f0016d3cca42';
const NSG = 'cluster-nsg';
const VNET_ID = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.Network/virtualNetworks/cluster-vnet`;

function service(families: Array<'IPv4' | 'IPv6'>, annotations: Record<string, string> = {}, extra: Partial<V1Service['spec']> = {}): V1Service {
  return {
    metadata: { name: 'web', namespace: 'default', uid: UID, annotations },
    spec: { type: 'LoadBalancer', ipFamilies: families, ipFamilyPolicy: families.length === 2 ? 'RequireDualStack' : 'SingleStack', ports: [{ name: 'http', port: 80, nodePort: 30080, protocol: 'TCP' }], ...extra },
  };
}

function nodeWithAddresses(name: string, ...internal: string[]): V1Node {
  return { metadata: { name }, spec: {}, status: { addresses: [{ type: 'Hostname', address: name }, ...internal.map((address) => ({ type: 'InternalIP', address }))] } };
}

async function cluster(config: Record<string, unknown> = CONFIG): Promise<Harness> {
  const harness = await createHarness(config);
  harness.network.addSecurityGroup(RESOURCE_GROUP, NSG, []);
  addVirtualMachine(harness, 'node-a', '10.0.0.4', { ipv6: 'fd00::4' });
  addVirtualMachine(harness, 'node-b', '10.0.0.5', { ipv6: 'fd00::5' });
  return harness;
}

/** Another provider (another config) over the same fake cloud. */
async function providerOver(harness: Harness, config: Record<string, unknown>): Promise<LoadBalancer> {
  const cloud = await createAzureCloud(JSON.stringify(config), { logger: new RecordingLogger(), metrics: createMetricsRegistry(), configPath: 'azure.json' }, {
    ports: { compute: harness.compute, network: harness.network },
    apiBudget: { qps: 1_000_000, burst: 1_000_000, initialBackoffMs: 0 },
    retry: { sleep: async () => {} },
  });
  return cloud.loadBalancer();
}

const NODES = [nodeWithAddresses('node-a', '10.0.0.4', 'fd00::4'), nodeWithAddresses('node-b', '10.0.0.5', 'fd00::5')];
const poolId = (pool: string) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.Network/loadBalancers/${CLUSTER}/backendAddressPools/${pool}`;

describe('LoadBalancer: dual-stack and IPv6 Services', () => {
  it('a dual-stack Service: a frontend, rules, probe and public IP per family (the IPv6 ones suffixed -IPv6), both pools filled, ingress in the Service\'s order, rules per family; deletion removes both', async () => {
    const harness = await cluster();
    const lb = harness.cloud.loadBalancer();
    const status = await lb.ensureLoadBalancer(CLUSTER, service(['IPv6', 'IPv4']), NODES);

    const v4 = harness.network.publicIp(RESOURCE_GROUP, `${CLUSTER}-${BASE}`);
    const v6 = harness.network.publicIp(RESOURCE_GROUP, `${CLUSTER}-${BASE}-IPv6`);
    expect([v4?.version, v6?.version]).toEqual(['IPv4', 'IPv6']);
    expect(status.ingress).toEqual([{ ip: v6?.ipAddress }, { ip: v4?.ipAddress }]);

    const balancer = harness.network.loadBalancer(RESOURCE_GROUP, CLUSTER);
    expect(balancer?.frontendIpConfigurations.map((frontend) => [frontend.name, frontend.publicIpAddressId])).toEqual([
      [`${BASE}-IPv6`, v6?.id],
      [BASE, v4?.id],
    ]);
    expect(balancer?.loadBalancingRules.map((rule) => [rule.name, rule.frontendIpConfigurationName, rule.backendAddressPoolName, rule.probeName])).toEqual([
      // upstream getLoadBalancerRuleName: the suffix goes after the port.
      [`${BASE}-TCP-80-IPv6`, `${BASE}-IPv6`, `${CLUSTER}-IPv6`, `${BASE}-TCP-80-IPv6`],
      [`${BASE}-TCP-80`, BASE, CLUSTER, `${BASE}-TCP-80`],
    ]);
    expect(balancer?.backendAddressPools.map((pool) => pool.name)).toEqual([`${CLUSTER}-IPv6`, CLUSTER]);
    // NIC mode: each family's pool takes the NIC's IP configuration of that family.
    const nic = harness.network.networkInterfaces.get(`/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.Network/networkInterfaces/node-a-nic`.toLowerCase());
    expect(nic?.ipConfigurations.map((configuration) => [configuration.privateIpVersion, configuration.loadBalancerBackendAddressPoolIds])).toEqual([
      ['IPv4', [poolId(CLUSTER)]],
      ['IPv6', [poolId(`${CLUSTER}-IPv6`)]],
    ]);

    const rules = harness.network.securityGroup(RESOURCE_GROUP, NSG)?.securityRules ?? [];
    expect(rules.map((rule) => [rule.name.replace(/_[0-9a-f]{32}$/, ''), rule.destinationAddressPrefixes])).toEqual([
      ['k8s-azure-lb_allow_IPv6', [v6?.ipAddress]],
      ['k8s-azure-lb_allow_IPv4', [v4?.ipAddress]],
    ]);
    expect(await lb.getLoadBalancer(CLUSTER, service(['IPv6', 'IPv4']))).toEqual({ exists: true, status: { ingress: [{ ip: v6?.ipAddress }, { ip: v4?.ipAddress }] } });

    // A second reconcile writes nothing.
    const putsBefore = harness.network.log.count('network.putLoadBalancer') + harness.network.log.count('network.putSecurityGroup') + harness.network.log.count('network.putPublicIp');
    await lb.ensureLoadBalancer(CLUSTER, service(['IPv6', 'IPv4']), NODES);
    expect(harness.network.log.count('network.putLoadBalancer') + harness.network.log.count('network.putSecurityGroup') + harness.network.log.count('network.putPublicIp')).toBe(putsBefore);

    await lb.ensureLoadBalancerDeleted(CLUSTER, service(['IPv6', 'IPv4']));
    expect(harness.network.loadBalancer(RESOURCE_GROUP, CLUSTER)).toBeUndefined();
    expect(harness.network.publicIp(RESOURCE_GROUP, `${CLUSTER}-${BASE}`)).toBeUndefined();
    expect(harness.network.publicIp(RESOURCE_GROUP, `${CLUSTER}-${BASE}-IPv6`)).toBeUndefined();
    expect(harness.network.securityGroup(RESOURCE_GROUP, NSG)?.securityRules).toEqual([]);
    expect(nic?.ipConfigurations.map((configuration) => configuration.loadBalancerBackendAddressPoolIds)).toEqual([[], []]);
  });

  it('a single-stack IPv6 Service keeps unsuffixed names but uses the -IPv6 pool; its public IP of the other version is refused, never reused', async () => {
    const harness = await cluster();
    const lb = harness.cloud.loadBalancer();
    const status = await lb.ensureLoadBalancer(CLUSTER, service(['IPv6']), NODES);
    const v6 = harness.network.publicIp(RESOURCE_GROUP, `${CLUSTER}-${BASE}`);
    expect(v6?.version).toBe('IPv6');
    expect(status.ingress).toEqual([{ ip: v6?.ipAddress }]);
    const balancer = harness.network.loadBalancer(RESOURCE_GROUP, CLUSTER);
    expect(balancer?.frontendIpConfigurations.map((frontend) => frontend.name)).toEqual([BASE]);
    expect(balancer?.loadBalancingRules.map((rule) => [rule.name, rule.backendAddressPoolName])).toEqual([[`${BASE}-TCP-80`, `${CLUSTER}-IPv6`]]);

    // Turning dual-stack: the IPv4 half wants `<cluster>-<base>`, which is the IPv6 public IP.
    await expect(lb.ensureLoadBalancer(CLUSTER, service(['IPv6', 'IPv4']), NODES)).rejects.toThrow(/is IPv6, the Service's IPv4 frontend needs an IPv4 one/);
    await lb.ensureLoadBalancerDeleted(CLUSTER, service(['IPv6']));
    expect(harness.network.loadBalancer(RESOURCE_GROUP, CLUSTER)).toBeUndefined();
    expect(harness.network.publicIp(RESOURCE_GROUP, `${CLUSTER}-${BASE}`)).toBeUndefined();
  });

  it('internal dual-stack frontends: one private frontend per family in the subnet, the IPv6 one asked as IPv6', async () => {
    const harness = await cluster();
    const lb = harness.cloud.loadBalancer();
    await lb.ensureLoadBalancer(CLUSTER, service(['IPv4', 'IPv6'], { 'service.beta.kubernetes.io/azure-load-balancer-internal': 'true' }), NODES);
    const balancer = harness.network.loadBalancer(RESOURCE_GROUP, `${CLUSTER}-internal`);
    expect(balancer?.frontendIpConfigurations.map((frontend) => [frontend.name, frontend.privateIpAddressVersion, frontend.subnetId?.endsWith('/subnets/nodes')])).toEqual([
      [BASE, 'IPv4', true],
      [`${BASE}-IPv6`, 'IPv6', true],
    ]);
  });

  it('per-family annotations: azure-pip-name-ipv6 names the IPv6 public IP of a dual-stack Service; azure-load-balancer-ipv6 and an IPv6 spec.loadBalancerIP are checked', async () => {
    const harness = await cluster();
    const lb = harness.cloud.loadBalancer();
    await lb.ensureLoadBalancer(CLUSTER, service(['IPv4', 'IPv6'], { 'service.beta.kubernetes.io/azure-pip-name-ipv6': 'web-v6' }), NODES);
    expect(harness.network.publicIp(RESOURCE_GROUP, 'web-v6')?.version).toBe('IPv6');
    expect(harness.network.publicIp(RESOURCE_GROUP, `${CLUSTER}-${BASE}`)?.version).toBe('IPv4');

    await expect(lb.ensureLoadBalancer(CLUSTER, service(['IPv4', 'IPv6'], { 'service.beta.kubernetes.io/azure-load-balancer-ipv6': '10.0.0.1' }), NODES)).rejects.toThrow(
      /azure-load-balancer-ipv6.*must be an IPv6 address/,
    );
    await expect(lb.ensureLoadBalancer(CLUSTER, service(['IPv4'], {}, { loadBalancerIP: 'fd00::9' }), NODES)).rejects.toBeInstanceOf(PermanentInvalidServiceConfigurationError);
  });
});

describe('LoadBalancer: nodeIP backend pools', () => {
  const NODE_IP = { ...CONFIG, loadBalancerBackendPoolConfigurationType: 'nodeIP' };

  it('the pool lists the nodes\' InternalIPs named after them in the virtual network; node changes add and remove addresses; no NIC is written', async () => {
    const harness = await cluster(NODE_IP);
    const lb = harness.cloud.loadBalancer();
    await lb.ensureLoadBalancer(CLUSTER, service(['IPv4']), NODES);
    const pool = () => harness.network.loadBalancer(RESOURCE_GROUP, CLUSTER)?.backendAddressPools.find((candidate) => candidate.name === CLUSTER);
    expect(pool()?.virtualNetworkId).toBe(VNET_ID);
    expect(pool()?.backendAddresses).toEqual([
      { name: 'node-a', ipAddress: '10.0.0.4' },
      { name: 'node-b', ipAddress: '10.0.0.5' },
    ]);
    expect(harness.network.log.count('network.setNetworkInterfaceBackendPools')).toBe(0);

    // node-b excluded (the service controller stops passing it), node-c joins; a control-plane node never joins a nodeIP pool.
    const controlPlane: V1Node = { ...nodeWithAddresses('master-0', '10.0.0.9'), metadata: { name: 'master-0', labels: { 'node-role.kubernetes.io/control-plane': '' } } };
    await lb.updateLoadBalancer(CLUSTER, service(['IPv4']), [NODES[0] as V1Node, nodeWithAddresses('node-c', '10.0.0.6'), controlPlane]);
    expect(pool()?.backendAddresses).toEqual([
      { name: 'node-a', ipAddress: '10.0.0.4' },
      { name: 'node-c', ipAddress: '10.0.0.6' },
    ]);
    const writes = harness.network.log.count('network.putBackendAddressPool');
    await lb.updateLoadBalancer(CLUSTER, service(['IPv4']), [NODES[0] as V1Node, nodeWithAddresses('node-c', '10.0.0.6')]);
    expect(harness.network.log.count('network.putBackendAddressPool')).toBe(writes);
    // The pool's addresses survive a load balancer write for another Service (written back as read: no pool write follows).
    await lb.ensureLoadBalancer(CLUSTER, { ...service(['IPv4']), metadata: { name: 'api', namespace: 'default', uid: '6fa459ea-ee8a-3ca4-894e-db77e160355e' } }, [NODES[0] as V1Node, nodeWithAddresses('node-c', '10.0.0.6')]);
    expect(pool()?.backendAddresses?.map((entry) => entry.ipAddress)).toEqual(['10.0.0.4', '10.0.0.6']);
    expect(harness.network.log.count('network.putBackendAddressPool')).toBe(writes);
  });

  it('dual-stack with nodeIP: the IPv6 pool lists the IPv6 addresses', async () => {
    const harness = await cluster(NODE_IP);
    await harness.cloud.loadBalancer().ensureLoadBalancer(CLUSTER, service(['IPv4', 'IPv6']), NODES);
    const pools = harness.network.loadBalancer(RESOURCE_GROUP, CLUSTER)?.backendAddressPools;
    expect(pools?.map((pool) => [pool.name, pool.backendAddresses?.map((entry) => entry.ipAddress)])).toEqual([
      [CLUSTER, ['10.0.0.4', '10.0.0.5']],
      [`${CLUSTER}-IPv6`, ['fd00::4', 'fd00::5']],
    ]);
  });

  it('migration: a NIC pool made by nodeIPConfiguration loses its NICs, then takes addresses; back to nodeIPConfiguration, the addresses go and the NICs return', async () => {
    const nicMode = await cluster();
    await nicMode.cloud.loadBalancer().ensureLoadBalancer(CLUSTER, service(['IPv4']), NODES);
    expect(nicMode.network.loadBalancer(RESOURCE_GROUP, CLUSTER)?.backendAddressPools[0]?.backendAddresses).toBeUndefined();

    // The same cloud state, reconciled by a provider configured for nodeIP, then by one configured for nodeIPConfiguration again.
    const pool = () => nicMode.network.loadBalancer(RESOURCE_GROUP, CLUSTER)?.backendAddressPools[0];
    const nicPools = () =>
      nicMode.network.networkInterfaces.get(`/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.Network/networkInterfaces/node-a-nic`.toLowerCase())?.ipConfigurations[0]?.loadBalancerBackendAddressPoolIds;
    await (await providerOver(nicMode, NODE_IP)).updateLoadBalancer(CLUSTER, service(['IPv4']), NODES);
    expect(nicPools()).toEqual([]);
    expect(pool()?.backendAddresses?.map((entry) => entry.ipAddress)).toEqual(['10.0.0.4', '10.0.0.5']);

    await (await providerOver(nicMode, CONFIG)).updateLoadBalancer(CLUSTER, service(['IPv4']), NODES);
    expect(pool()?.backendAddresses).toEqual([]);
    expect(nicPools()).toEqual([poolId(CLUSTER)]);
  });

  it('podIP is refused at start naming the key; an unknown value too', async () => {
    await expect(createHarness({ ...CONFIG, loadBalancerBackendPoolConfigurationType: 'podIP' })).rejects.toThrow(/loadBalancerBackendPoolConfigurationType.*podIP.*not supported/);
    await expect(createHarness({ ...CONFIG, loadBalancerBackendPoolConfigurationType: 'nodeAddress' })).rejects.toBeInstanceOf(CloudConfigError);
    await expect(createHarness({ ...CONFIG, loadBalancerBackendPoolConfigurationType: 'NODEIP' })).resolves.toBeDefined();
  });
});
