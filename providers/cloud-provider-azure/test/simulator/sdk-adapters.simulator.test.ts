/**
 * The SDK adapters (ports/sdk/) against the Azure simulator: the provider with its real SDK
 * ports, over HTTPS with the simulator's CA, Entra client-credential tokens from its authority.
 */
import { createMetricsRegistry } from '@ccm/core/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAzureCloud, type AzureCloud } from '../../src/azure-cloud.js';
import { AzureApiError } from '../../src/errors.js';
import { RecordingLogger, node } from '../helpers.js';
import { AzureCloudSeeder, type SeededMachine } from '../support/azure-cloud-seeder.js';
import { launchAzureSimulator, simulatorCloudConfig, simulatorUnavailableReason, SIMULATOR_INSTALL_HINT, type AzureSimulator } from '../support/azure-simulator-launcher.js';

const unavailable = await simulatorUnavailableReason();
if (unavailable !== undefined && process.env['CI'] === 'true') throw new Error(`the Azure simulator is required under CI=true: ${unavailable}; ${SIMULATOR_INSTALL_HINT}`);
if (unavailable !== undefined) console.warn(`SKIPPING the Azure SDK adapter tests: ${unavailable}; ${SIMULATOR_INSTALL_HINT}`);

const RESOURCE_GROUP = 'RG-Adapters';

describe.skipIf(unavailable !== undefined)('Azure SDK adapters against the simulator', () => {
  let simulator: AzureSimulator;
  let seeder: AzureCloudSeeder;
  let cloud: AzureCloud;
  let logger: RecordingLogger;
  let vm: SeededMachine;
  let zoned: SeededMachine;
  let instances: SeededMachine[];

  const create = (settings: Record<string, unknown> = {}, override: Record<string, unknown> = {}) => {
    const log = new RecordingLogger();
    return {
      log,
      cloud: createAzureCloud(JSON.stringify({ ...simulatorCloudConfig(simulator, { resourceGroup: RESOURCE_GROUP, routeTableName: 'cluster-routes', tags: 'owner=ccm', ...settings }), ...override }), { logger: log, metrics: createMetricsRegistry() }, {
        caPem: simulator.caCertificatePem,
        retry: { initialDelayMs: 1, maxDelayMs: 5 },
      }),
    };
  };

  beforeAll(async () => {
    simulator = await launchAzureSimulator();
    seeder = new AzureCloudSeeder(simulator, RESOURCE_GROUP);
    await seeder.prepare();
    vm = await seeder.createVirtualMachine('agent-0', { publicIp: true });
    zoned = await seeder.createVirtualMachine('agent-z', { zone: '2', vmSize: 'Standard_E2s_v5' });
    instances = await seeder.createScaleSet('pool', 2, { computerNamePrefix: 'aks-pool-vmss', zones: ['1'] });
    const created = create();
    logger = created.log;
    cloud = await created.cloud;
  }, 60_000);

  afterAll(async () => {
    await simulator?.close();
  });

  it('reads a VM\'s metadata: provider ID with the lower-cased resource group, NIC and public IP, size, fault domain', async () => {
    const metadata = await cloud.instancesV2().instanceMetadata(node('agent-0'));
    expect(metadata).toEqual({
      providerId: `azure:///subscriptions/${simulator.subscriptionId}/resourceGroups/rg-adapters/providers/Microsoft.Compute/virtualMachines/agent-0`,
      instanceType: 'Standard_D2s_v3',
      nodeAddresses: [
        { type: 'InternalIP', address: vm.privateIp },
        { type: 'Hostname', address: 'agent-0' },
        { type: 'ExternalIP', address: vm.publicIp },
      ],
      zone: String(vm.platformFaultDomain ?? 0),
      region: simulator.location.toLowerCase(),
    });
    expect((await cloud.instancesV2().instanceMetadata(node('agent-z')))?.zone).toBe(`${simulator.location.toLowerCase()}-2`);
    expect(zoned.vmSize).toBe('Standard_E2s_v5');
  });

  it('reads a uniform scale-set instance by computer name, and by provider ID', async () => {
    const [first] = instances;
    if (!first?.scaleSet) throw new Error('no scale-set instance');
    const metadata = await cloud.instancesV2().instanceMetadata(node(first.name));
    expect(metadata?.providerId).toBe(`azure:///subscriptions/${simulator.subscriptionId}/resourceGroups/rg-adapters/providers/Microsoft.Compute/virtualMachineScaleSets/pool/virtualMachines/${first.scaleSet.instanceId}`);
    expect(metadata?.nodeAddresses[0]).toEqual({ type: 'InternalIP', address: first.privateIp });
    expect(metadata?.zone).toBe(`${simulator.location.toLowerCase()}-1`);
    expect(await cloud.instancesV2().instanceExists(node('x', { providerId: metadata?.providerId ?? '' }))).toBe(true);
  });

  it('follows power state: a powered-off VM is shut down and still exists', async () => {
    const { cloud: fresh } = create({ disableAPICallCache: true });
    const provider = await fresh;
    await seeder.powerOff(zoned);
    expect(await provider.instancesV2().instanceShutdown(node('agent-z'))).toBe(true);
    expect(await provider.instancesV2().instanceExists(node('agent-z'))).toBe(true);
    await seeder.start(zoned);
    expect(await provider.instancesV2().instanceShutdown(node('agent-z'))).toBe(false);
  });

  it('programs routes (table created with tags), lists them, deletes only the one asked', async () => {
    const routes = cloud.routes();
    if (!routes) throw new Error('routes off');
    await routes.createRoute('kubernetes', 'uid', { name: '', targetNode: 'agent-0', destinationCidr: '10.244.0.0/24' });
    await seeder.putRoute('cluster-routes', 'foreign', '192.168.0.0/24', '10.240.9.9');
    const listed = (await routes.listRoutes('kubernetes')).map((route) => `${route.name} ${route.targetNode} ${route.destinationCidr}`).sort();
    expect(listed).toEqual([
      'agent-0____102440024 agent-0 10.244.0.0/24',
      'foreign foreign 192.168.0.0/24',
    ]);
    const table = await seeder.network.routeTables.get(RESOURCE_GROUP, 'cluster-routes');
    expect(table.routes?.find((route) => route.name === 'agent-0____102440024')?.nextHopIpAddress).toBe(vm.privateIp);
    await routes.deleteRoute('kubernetes', { name: 'agent-0____102440024', targetNode: 'agent-0', destinationCidr: '10.244.0.0/24' });
    await routes.deleteRoute('kubernetes', { name: 'agent-0____102440024', targetNode: 'agent-0', destinationCidr: '10.244.0.0/24' });
    expect((await seeder.routes('cluster-routes')).map((route) => route.name)).toEqual(['foreign']);
  });

  it('turns ARM errors into typed errors: a missing resource group is NotFound', async () => {
    const { cloud: other } = create({ resourceGroup: 'does-not-exist' });
    const error = await (await other).instancesV2().instanceExists(node('agent-0')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AzureApiError);
    expect((error as AzureApiError).kind).toBe('NotFound');
    expect((error as AzureApiError).operation).toBe('compute.listVirtualMachines');
  });

  it('wrong credentials: one clear Unauthorized error, not retried, and the secret is in no log line', async () => {
    const wrongSecret = 'definitely-wrong-secret-123';
    const { cloud: other, log } = create({}, { aadClientSecret: wrongSecret });
    const error = await (await other).instancesV2().instanceExists(node('agent-0')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AzureApiError);
    expect((error as AzureApiError).kind).toBe('Unauthorized');
    expect((error as Error).message).toMatch(/^compute\.listVirtualMachines: could not get an Entra token/);
    expect((error as Error).message).not.toContain(wrongSecret);
    expect(JSON.stringify(log.lines)).not.toContain(wrongSecret);
    expect(JSON.stringify(logger.lines)).not.toContain(simulator.clientSecret);
  });

  it('throttled (429 + Retry-After): retried by the budget and then answered', async () => {
    const { cloud: other, log } = create({ disableAPICallCache: true });
    const provider = await other;
    simulator.setThrottle({ requestsPerSecond: 2, burst: 1 });
    try {
      // Sequential lookups (concurrent ones would share one list call).
      const answers: boolean[] = [];
      for (const name of ['agent-0', 'agent-z', 'agent-0']) answers.push(await provider.instancesV2().instanceExists(node(name)));
      expect(answers).toEqual([true, true, true]);
    } finally {
      simulator.setThrottle(undefined);
    }
    expect(log.lines.some((line) => /throttled; retrying in/.test(line.message))).toBe(true);
  }, 30_000);
});
