/**
 * IPv6, dual-stack and `nodeIP` load balancing through the production SDK adapter against the
 * Azure simulator: a dual-stack Service gets an IPv4 and an IPv6 public IP (`publicIPAddressVersion`),
 * one frontend, rule and probe per family (the IPv6 ones `-IPv6`), security rules per family, and
 * ingress in the Service's family order; a `nodeIP` cluster's pool lists the nodes' addresses with
 * the virtual network (`loadBalancerBackendAddresses`), follows node changes and survives the
 * load balancer writes of other Services. Both are read back through ARM and deleted.
 */
import { createMetricsRegistry } from '@ccm/core/app';
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAzureCloud } from '../../src/azure-cloud.js';
import { RecordingLogger } from '../helpers.js';
import { AzureCloudSeeder, type SeededMachine } from '../support/azure-cloud-seeder.js';
import { launchAzureSimulator, simulatorCloudConfig, simulatorUnavailableReason, SIMULATOR_INSTALL_HINT, type AzureSimulator } from '../support/azure-simulator-launcher.js';

const unavailable = await simulatorUnavailableReason();
if (unavailable !== undefined && process.env['CI'] === 'true') throw new Error(`the Azure simulator is required under CI=true: ${unavailable}; ${SIMULATOR_INSTALL_HINT}`);
if (unavailable !== undefined) console.warn(`SKIPPING the Azure IP family and nodeIP simulator tests: ${unavailable}; ${SIMULATOR_INSTALL_HINT}`);

const CLUSTER = 'kubernetes';

function service(name: string, uid: string, families: Array<'IPv4' | 'IPv6'>): V1Service {
  return {
    metadata: { name, namespace: 'default', uid },
    spec: { type: 'LoadBalancer', ipFamilies: families, ipFamilyPolicy: families.length === 2 ? 'RequireDualStack' : 'SingleStack', ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] },
  };
}

function nodeOf(machine: SeededMachine): V1Node {
  return { metadata: { name: machine.name }, spec: { providerID: `azure://${machine.id}` }, status: { addresses: [{ type: 'InternalIP', address: machine.privateIp }] } };
}

describe.skipIf(unavailable !== undefined)('Azure IP families and nodeIP pools against the simulator', () => {
  let simulator: AzureSimulator;

  beforeAll(async () => {
    simulator = await launchAzureSimulator();
  }, 60_000);

  afterAll(async () => {
    await simulator?.close();
  });

  async function clusterIn(resourceGroup: string, extra: Record<string, unknown> = {}) {
    const seeder = new AzureCloudSeeder(simulator, resourceGroup);
    await seeder.prepare();
    const machines = [await seeder.createVirtualMachine('agent-0'), await seeder.createVirtualMachine('agent-1')];
    const config = { ...simulatorCloudConfig(simulator, { resourceGroup, vnetName: seeder.vnet, subnetName: seeder.subnet, securityGroupName: seeder.securityGroup, vmType: 'standard' }), ...extra };
    const cloud = await createAzureCloud(JSON.stringify(config), { logger: new RecordingLogger(), metrics: createMetricsRegistry() }, { caPem: simulator.caCertificatePem, retry: { initialDelayMs: 1, maxDelayMs: 5 } });
    const lb = cloud.loadBalancer();
    if (!lb) throw new Error('no LoadBalancer');
    return { seeder, machines, lb };
  }

  it('a dual-stack Service: IPv4 and IPv6 public IPs, frontends, rules and probes per family, security rules per family; deletion leaves nothing', async () => {
    const { seeder, machines, lb } = await clusterIn('RG-DualStack');
    const web = service('web', '11111111-2222-3333-4444-555555555555', ['IPv6', 'IPv4']);
    const base = 'a1111111122223333444455555555555';
    const status = await lb.ensureLoadBalancer(CLUSTER, web, machines.map(nodeOf));
    expect(await lb.ensureLoadBalancer(CLUSTER, web, machines.map(nodeOf))).toEqual(status);

    const publicIps = await seeder.publicIps();
    const v6 = publicIps.find((address) => address.name === `${CLUSTER}-${base}-IPv6`);
    const v4 = publicIps.find((address) => address.name === `${CLUSTER}-${base}`);
    expect([v6?.publicIPAddressVersion, v4?.publicIPAddressVersion]).toEqual(['IPv6', 'IPv4']);
    expect(v6?.ipAddress).toContain(':');
    expect(status.ingress).toEqual([{ ip: v6?.ipAddress }, { ip: v4?.ipAddress }]);

    const [balancer] = await seeder.loadBalancers();
    expect(balancer?.frontendIPConfigurations?.map((frontend) => [frontend.name, frontend.publicIPAddress?.id?.toLowerCase()])).toEqual([
      [`${base}-IPv6`, v6?.id?.toLowerCase()],
      [base, v4?.id?.toLowerCase()],
    ]);
    expect(balancer?.loadBalancingRules?.map((rule) => [rule.name, rule.backendAddressPool?.id?.split('/').pop()])).toEqual([
      [`${base}-TCP-80-IPv6`, `${CLUSTER}-IPv6`],
      [`${base}-TCP-80`, CLUSTER],
    ]);
    expect(balancer?.probes?.map((probe) => probe.name)).toEqual([`${base}-TCP-80-IPv6`, `${base}-TCP-80`]);
    // The seeded NICs have IPv4 configurations only: the IPv4 pool holds both VMs.
    expect(balancer?.backendAddressPools?.find((pool) => pool.name === CLUSTER)?.backendIPConfigurations).toHaveLength(2);
    const rules = (await seeder.securityRules()).filter((rule) => (rule.name ?? '').startsWith('k8s-azure-lb_'));
    expect(rules.map((rule) => [(rule.name ?? '').replace(/_[0-9a-f]{32}$/, ''), rule.destinationAddressPrefix]).sort()).toEqual(
      [
        ['k8s-azure-lb_allow_IPv4', v4?.ipAddress],
        ['k8s-azure-lb_allow_IPv6', v6?.ipAddress],
      ].sort(),
    );
    expect(await lb.getLoadBalancer(CLUSTER, web)).toEqual({ exists: true, status });

    await lb.ensureLoadBalancerDeleted(CLUSTER, web);
    expect(await seeder.loadBalancers()).toEqual([]);
    expect((await seeder.publicIps()).filter((address) => address.tags?.['k8s-azure-service'] !== undefined)).toEqual([]);
    expect((await seeder.securityRules()).filter((rule) => (rule.name ?? '').startsWith('k8s-azure-lb_'))).toEqual([]);
  }, 60_000);

  it('nodeIP: the pool lists the nodes\' addresses in the virtual network, follows node changes, survives another Service\'s write, and no NIC joins it', async () => {
    const { seeder, machines, lb } = await clusterIn('RG-NodeIp', { loadBalancerBackendPoolConfigurationType: 'nodeIP' });
    const web = service('web', '11111111-2222-3333-4444-555555555555', ['IPv4']);
    const api = service('api', '66666666-7777-8888-9999-000000000000', ['IPv4']);
    const pool = async () => (await seeder.loadBalancers())[0]?.backendAddressPools?.find((candidate) => candidate.name === CLUSTER);
    const addresses = async () => ((await pool())?.loadBalancerBackendAddresses ?? []).map((address) => [address.name, address.ipAddress]);

    await lb.ensureLoadBalancer(CLUSTER, web, machines.map(nodeOf));
    const vnetId = `/subscriptions/${simulator.subscriptionId}/resourceGroups/RG-NodeIp/providers/Microsoft.Network/virtualNetworks/${seeder.vnet}`;
    expect((await pool())?.virtualNetwork?.id?.toLowerCase()).toBe(vnetId.toLowerCase());
    expect(await addresses()).toEqual(machines.map((machine) => [machine.name, machine.privateIp]));
    expect((await pool())?.backendIPConfigurations ?? []).toEqual([]);

    await lb.ensureLoadBalancer(CLUSTER, api, machines.map(nodeOf));
    expect(await addresses()).toEqual(machines.map((machine) => [machine.name, machine.privateIp]));

    await lb.updateLoadBalancer(CLUSTER, web, machines.slice(0, 1).map(nodeOf));
    expect(await addresses()).toEqual([[machines[0]?.name, machines[0]?.privateIp]]);

    await lb.ensureLoadBalancerDeleted(CLUSTER, api);
    await lb.ensureLoadBalancerDeleted(CLUSTER, web);
    expect(await seeder.loadBalancers()).toEqual([]);
  }, 60_000);
});
