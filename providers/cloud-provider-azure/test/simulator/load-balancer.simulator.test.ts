/**
 * The LoadBalancer capability with its real SDK ports against the Azure simulator: an external
 * and an internal Service over a VM and a scale-set VM, read back through ARM (frontends, rules,
 * probes, pool members, public IP tags, security rules), then deleted without leftovers.
 */
import { createMetricsRegistry } from '@ccm/core/app';
import type { V1Service } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAzureCloud, type AzureCloud } from '../../src/azure-cloud.js';
import { RecordingLogger, node } from '../helpers.js';
import { AzureCloudSeeder, type SeededMachine } from './azure-cloud-seeder.js';
import { launchAzureSimulator, simulatorCloudConfig, simulatorUnavailableReason, SIMULATOR_INSTALL_HINT, type AzureSimulator } from './azure-simulator-launcher.js';

const unavailable = await simulatorUnavailableReason();
if (unavailable !== undefined && process.env['CI'] === 'true') throw new Error(`the Azure simulator is required under CI=true: ${unavailable}; ${SIMULATOR_INSTALL_HINT}`);
if (unavailable !== undefined) console.warn(`SKIPPING the Azure load balancer simulator tests: ${unavailable}; ${SIMULATOR_INSTALL_HINT}`);

const RESOURCE_GROUP = 'RG-LoadBalancers';
const CLUSTER = 'kubernetes';

function service(name: string, uid: string, annotations: Record<string, string> = {}, spec: Partial<NonNullable<V1Service['spec']>> = {}): V1Service {
  return { metadata: { name, namespace: 'default', uid, annotations }, spec: { type: 'LoadBalancer', ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }], ...spec } };
}

describe.skipIf(unavailable !== undefined)('Azure LoadBalancer against the simulator', () => {
  let simulator: AzureSimulator;
  let seeder: AzureCloudSeeder;
  let cloud: AzureCloud;
  let machines: SeededMachine[];

  beforeAll(async () => {
    simulator = await launchAzureSimulator();
    seeder = new AzureCloudSeeder(simulator, RESOURCE_GROUP);
    await seeder.prepare();
    machines = [await seeder.createVirtualMachine('agent-0'), ...(await seeder.createScaleSet('pool', 1, { computerNamePrefix: 'pool' }))];
    const config = simulatorCloudConfig(simulator, { resourceGroup: RESOURCE_GROUP, vnetName: seeder.vnet, subnetName: seeder.subnet, securityGroupName: seeder.securityGroup, vmType: 'vmss' });
    cloud = await createAzureCloud(JSON.stringify(config), { logger: new RecordingLogger(), metrics: createMetricsRegistry() }, { caPem: simulator.caCertificatePem, retry: { initialDelayMs: 1, maxDelayMs: 5 } });
  }, 60_000);

  afterAll(async () => {
    await simulator?.close();
  });

  it('external and internal Services: frontends, rules, probes, pool members, public IP tags, security rules; deletion leaves nothing', async () => {
    const lb = cloud.loadBalancer();
    if (!lb) throw new Error('no LoadBalancer');
    const nodes = machines.map((machine) => node(machine.name));
    const external = service('web', '11111111-2222-3333-4444-555555555555', { 'service.beta.kubernetes.io/azure-dns-label-name': 'web-sim' });
    const internal = service('db', '66666666-7777-8888-9999-000000000000', { 'service.beta.kubernetes.io/azure-load-balancer-internal': 'true' }, { externalTrafficPolicy: 'Local', healthCheckNodePort: 32100 });

    const externalStatus = await lb.ensureLoadBalancer(CLUSTER, external, nodes);
    const internalStatus = await lb.ensureLoadBalancer(CLUSTER, internal, nodes);
    // A second pass changes nothing and still succeeds (etags, diffs).
    expect(await lb.ensureLoadBalancer(CLUSTER, external, nodes)).toEqual(externalStatus);

    const balancers = await seeder.loadBalancers();
    expect(balancers.map((balancer) => balancer.name).sort()).toEqual([CLUSTER, `${CLUSTER}-internal`]);
    const publicLb = balancers.find((balancer) => balancer.name === CLUSTER);
    const privateLb = balancers.find((balancer) => balancer.name === `${CLUSTER}-internal`);
    expect(publicLb?.loadBalancingRules?.map((rule) => [rule.name, rule.frontendPort, rule.backendPort, rule.enableFloatingIP, rule.enableTcpReset])).toEqual([['a1111111122223333444455555555555-TCP-80', 80, 80, true, true]]);
    expect(privateLb?.probes?.map((probe) => [probe.protocol, probe.port, probe.requestPath])).toEqual([['Http', 32100, '/healthz']]);
    expect(internalStatus.ingress?.[0]?.ip).toBe(privateLb?.frontendIPConfigurations?.[0]?.privateIPAddress);
    for (const balancer of balancers) expect(balancer.backendAddressPools?.[0]?.backendIPConfigurations ?? []).toHaveLength(2);
    const publicIp = (await seeder.publicIps()).find((address) => address.tags?.['k8s-azure-service'] === 'default/web');
    expect(publicIp?.ipAddress).toBe(externalStatus.ingress?.[0]?.ip);
    expect(publicIp?.dnsSettings?.domainNameLabel).toBe('web-sim');
    const rules = (await seeder.securityRules()).filter((rule) => (rule.name ?? '').startsWith('k8s-azure-lb_'));
    expect(rules.map((rule) => rule.destinationAddressPrefix ?? rule.destinationAddressPrefixes).sort()).toEqual([externalStatus.ingress?.[0]?.ip, internalStatus.ingress?.[0]?.ip].sort());

    await lb.updateLoadBalancer(CLUSTER, external, nodes.slice(0, 1));
    expect((await seeder.loadBalancers()).find((balancer) => balancer.name === CLUSTER)?.backendAddressPools?.[0]?.backendIPConfigurations).toHaveLength(1);

    await lb.ensureLoadBalancerDeleted(CLUSTER, external);
    await lb.ensureLoadBalancerDeleted(CLUSTER, internal);
    expect(await seeder.loadBalancers()).toEqual([]);
    expect((await seeder.publicIps()).filter((address) => address.tags?.['k8s-azure-service'] !== undefined)).toEqual([]);
    expect((await seeder.securityRules()).filter((rule) => (rule.name ?? '').startsWith('k8s-azure-lb_'))).toEqual([]);
    expect(await lb.getLoadBalancer(CLUSTER, external)).toEqual({ exists: false, status: undefined });
  }, 60_000);
});
