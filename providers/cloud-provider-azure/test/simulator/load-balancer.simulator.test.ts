/**
 * The LoadBalancer capability with its real SDK ports against the Azure simulator: an external
 * and an internal Service over a VM and a scale-set VM, read back through ARM (frontends, rules,
 * probes, pool members, public IP tags, security rules), then deleted without leftovers.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createMetricsRegistry } from '@ccm/core/app';
import type { V1Service } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAzureCloud, type AzureCloud } from '../../src/azure-cloud.js';
import { RecordingLogger, node } from '../helpers.js';
import { AzureCloudSeeder, type SeededMachine } from '../support/azure-cloud-seeder.js';
import { launchAzureSimulator, simulatorCloudConfig, simulatorUnavailableReason, SIMULATOR_INSTALL_HINT, type AzureSimulator } from '../support/azure-simulator-launcher.js';

const unavailable = await simulatorUnavailableReason();
if (unavailable !== undefined && process.env['CI'] === 'true') throw new Error(`the Azure simulator is required under CI=true: ${unavailable}; ${SIMULATOR_INSTALL_HINT}`);
if (unavailable !== undefined) console.warn(`SKIPPING the Azure load balancer simulator tests: ${unavailable}; ${SIMULATOR_INSTALL_HINT}`);

const RESOURCE_GROUP = 'RG-LoadBalancers';
const STATIC_TOKEN = 'static-token-for-the-python-read-back';
/** Microsoft's Python SDKs (the simulator's schema virtualenv, .ci/install-prerequisites section azure-schema). */
const PYTHON = process.env['AZURE_SCHEMA_PYTHON'] ?? '/opt/ccm/azure-schema-venv/bin/python';
const READ_BACK = join(dirname(createRequire(import.meta.url).resolve('@ccm/azure-simulator/package.json')), 'schema', 'read_back.py');
const pythonUnavailable = existsSync(PYTHON) ? undefined : `no Python with the pinned Azure SDKs at ${PYTHON}`;
if (unavailable === undefined && pythonUnavailable !== undefined && process.env['CI'] === 'true') throw new Error(`the Python read-back is required under CI=true: ${pythonUnavailable}; run .ci/install-prerequisites (section azure-schema)`);
if (unavailable === undefined && pythonUnavailable !== undefined) console.warn(`SKIPPING the Python read-back of the load balancers: ${pythonUnavailable}`);
const CLUSTER = 'kubernetes';

function runPython(script: string, input: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

function service(name: string, uid: string, annotations: Record<string, string> = {}, spec: Partial<NonNullable<V1Service['spec']>> = {}): V1Service {
  return { metadata: { name, namespace: 'default', uid, annotations }, spec: { type: 'LoadBalancer', ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }], ...spec } };
}

describe.skipIf(unavailable !== undefined)('Azure LoadBalancer against the simulator', () => {
  let simulator: AzureSimulator;
  let seeder: AzureCloudSeeder;
  let cloud: AzureCloud;
  let machines: SeededMachine[];

  beforeAll(async () => {
    simulator = await launchAzureSimulator({ staticToken: STATIC_TOKEN });
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

    if (pythonUnavailable === undefined) {
      // A second, independent client reads what the provider wrote: azure-mgmt-network's view of
      // the load balancers, public IPs and security rules equals the JS SDK's.
      // Asynchronously: the simulator answers from this process.
      const run = await runPython(
        READ_BACK,
        JSON.stringify({ endpoint: simulator.resourceManagerEndpoint, caCertFile: simulator.caCertFile, subscriptionId: simulator.subscriptionId, token: STATIC_TOKEN, resourceGroup: RESOURCE_GROUP }),
      );
      expect(run.status, run.stderr).toBe(0);
      const python = JSON.parse(run.stdout) as {
        loadBalancers: Array<{ name: string; frontends: unknown[][]; rules: unknown[][]; probes: unknown[][]; pools: Array<[string, string[]]> }>;
        publicIPAddresses: Array<{ name: string; ipAddress: string; tags: Record<string, string>; dnsLabel: string | null }>;
        networkSecurityGroups: Array<{ name: string; rules: unknown[][] }>;
      };
      const byName = <T extends { name: string }>(items: T[]) => [...items].sort((left, right) => left.name.localeCompare(right.name));
      expect(byName(python.loadBalancers).map((balancer) => ({ name: balancer.name, rules: balancer.rules.map((rule) => rule.slice(0, 10)), probes: balancer.probes, members: balancer.pools[0]?.[1].length }))).toEqual(
        byName(balancers.map((balancer) => ({ ...balancer, name: balancer.name ?? '' }))).map((balancer) => ({
          name: balancer.name,
          rules: (balancer.loadBalancingRules ?? []).map((rule) => [rule.name, rule.protocol, rule.frontendPort, rule.backendPort, rule.probe?.id ?? null, rule.enableFloatingIP, rule.idleTimeoutInMinutes, rule.enableTcpReset, rule.loadDistribution, rule.disableOutboundSnat]),
          probes: (balancer.probes ?? []).map((probe) => [probe.name, probe.protocol, probe.port, probe.requestPath ?? null, probe.intervalInSeconds, probe.probeThreshold]),
          members: 2,
        })),
      );
      expect(python.publicIPAddresses.map((address) => [address.ipAddress, address.tags['k8s-azure-service'], address.dnsLabel])).toEqual([[publicIp?.ipAddress, 'default/web', 'web-sim']]);
      const pythonRules = python.networkSecurityGroups.find((group) => group.name === seeder.securityGroup)?.rules ?? [];
      expect(pythonRules.map((rule) => [rule[0], rule[4], rule[5], rule[6], rule[7]])).toEqual(
        [...rules]
          .sort((left, right) => (left.name ?? '').localeCompare(right.name ?? ''))
          .map((rule) => [rule.name, rule.protocol, [rule.sourceAddressPrefix], [rule.destinationAddressPrefix], [rule.destinationPortRange]]),
      );
    }

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
