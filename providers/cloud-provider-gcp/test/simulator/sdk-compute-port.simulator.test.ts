/**
 * The SDK adapter (`src/ports/sdk/`) against the GCE simulator: @google-cloud/compute in REST mode
 * over plain HTTP, the token-url token source, lists with filters, operations waited on, and
 * every failure turned into the right GceApiError kind. The only tests of `ports/sdk/`.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGceCloudConfig } from '../../src/config/read-gce-cloud-config.js';
import { asGceApiError } from '../../src/errors.js';
import type { ComputePort } from '../../src/ports/compute-port.js';
import { createComputeClients } from '../../src/ports/sdk/compute-clients.js';
import { createSdkComputePort } from '../../src/ports/sdk/sdk-compute-port.js';
import { gceSimulatorUnavailableReason, GCE_SIMULATOR_INSTALL_HINT, startSimulator, type RunningGceSimulator } from '../support/gce-simulator-launcher.js';
import { GceRest, seedInstance, seedNetwork } from '../support/gce-rest.js';

const unavailable = gceSimulatorUnavailableReason();
if (unavailable !== undefined) {
  if (process.env['CI'] === 'true') throw new Error(`CI=true but ${unavailable}; ${GCE_SIMULATOR_INSTALL_HINT}`);
  console.warn(`SKIPPING the GCE SDK adapter tests against the simulator: ${unavailable}; ${GCE_SIMULATOR_INSTALL_HINT}`);
}

const NETWORK = 'ccm-net';

function portFor(simulator: RunningGceSimulator, extra = ''): ComputePort {
  const { config } = readGceCloudConfig(
    `[global]\nproject-id = ${simulator.project}\nnetwork-name = ${NETWORK}\nlocal-zone = ${simulator.zones[0]}\napi-endpoint = ${simulator.url}/compute/v1/\ntoken-url = ${simulator.tokenUrl}\n${extra}`,
  );
  return createSdkComputePort(createComputeClients(config.endpoint, config.credentials), { project: config.projectId, networkProject: config.networkProjectId, operationPollIntervalMs: 10 });
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function failureOf(run: () => Promise<unknown>): Promise<{ kind: string | undefined; retryable: boolean | undefined }> {
  try {
    await run();
  } catch (error) {
    const found = asGceApiError(error);
    return { kind: found?.kind, retryable: found?.retryable };
  }
  return { kind: 'none', retryable: undefined };
}

describe.skipIf(unavailable !== undefined)('the Compute SDK adapter against the GCE simulator', () => {
  let simulator: RunningGceSimulator;
  let port: ComputePort;
  let rest: GceRest;
  let zone: string;
  let region: string;
  let link: (path: string) => string;

  beforeAll(async () => {
    simulator = await startSimulator({ network: NETWORK });
    zone = simulator.zones[0] ?? '';
    region = simulator.region;
    rest = new GceRest(simulator);
    await seedNetwork(rest, NETWORK, region);
    await seedInstance(rest, { name: 'node-a', zone, network: NETWORK, region, tags: ['node'] });
    await seedInstance(rest, { name: 'node-b', zone: simulator.zones[1] ?? '', network: NETWORK, region });
    port = portFor(simulator);
    link = (path) => `${simulator.url}/compute/v1/projects/${simulator.project}/${path}`;
  });

  afterAll(async () => {
    await simulator?.close();
  });

  it('lists instances by exact names in one zone and across zones, and gets one', async () => {
    expect((await port.listInstances({ zone, names: ['node-a', 'node-b', 'node-x'] })).map((instance) => instance.name)).toEqual(['node-a']);
    const all = await port.listInstances({ names: ['node-a', 'node-b'] });
    expect(all.map((instance) => `${instance.zone}/${instance.name}`).sort()).toEqual([`${zone}/node-a`, `${simulator.zones[1]}/node-b`]);
    const instance = await port.getInstance(zone, 'node-a');
    expect(instance).toMatchObject({ name: 'node-a', zone, machineType: 'e2-medium', status: 'RUNNING', tags: ['node'] });
    expect(instance?.networkInterfaces[0]?.networkIP).toMatch(/^10\.128\./);
    expect(instance?.networkInterfaces[0]?.accessConfigs[0]?.natIP).toMatch(/\d+\.\d+\.\d+\.\d+/);
    expect(await port.getInstance(zone, 'node-x')).toBeUndefined();
  });

  it('inserts, lists (by prefix and description) and deletes routes, waiting for the operations', async () => {
    const network = link(`global/networks/${NETWORK}`);
    await port.insertRoute({ name: 'kubernetes-uid-1', network, destRange: '10.64.1.0/24', nextHopInstance: link(`zones/${zone}/instances/node-a`), priority: 1000, description: 'k8s-node-route' });
    expect(await port.listRoutes({ namePrefix: 'kubernetes-', network, description: 'k8s-node-route' })).toEqual([
      expect.objectContaining({ name: 'kubernetes-uid-1', destRange: '10.64.1.0/24', description: 'k8s-node-route', nextHopInstance: expect.stringContaining('/instances/node-a') }),
    ]);
    expect(await port.listRoutes({ namePrefix: 'other-', network, description: 'k8s-node-route' })).toEqual([]);
    expect(await failureOf(() => port.insertRoute({ name: 'kubernetes-uid-1', network, destRange: '10.64.1.0/24', nextHopInstance: link(`zones/${zone}/instances/node-a`), priority: 1000 }))).toEqual({
      kind: 'AlreadyExists',
      retryable: false,
    });
    await port.deleteRoute('kubernetes-uid-1');
    expect(await failureOf(() => port.deleteRoute('kubernetes-uid-1'))).toEqual({ kind: 'NotFound', retryable: false });
  });

  it('inserts and lists an IPv6 pod route (dual-stack)', async () => {
    const network = link(`global/networks/${NETWORK}`);
    await port.insertRoute({ name: 'kubernetes-uid2-v6', network, destRange: 'fd00:10:64:1::/64', nextHopInstance: link(`zones/${zone}/instances/node-a`), priority: 1000, description: 'k8s-node-route' });
    expect(await port.listRoutes({ namePrefix: 'kubernetes-', network, description: 'k8s-node-route' })).toEqual([expect.objectContaining({ name: 'kubernetes-uid2-v6', destRange: 'fd00:10:64:1::/64' })]);
    await port.deleteRoute('kubernetes-uid2-v6');
  });

  it('runs the external load balancer resources through their lifecycle', async () => {
    await port.insertAddress(region, { name: 'lb1', description: '{"kubernetes.io/service-name":"default/web"}', networkTier: 'PREMIUM' });
    const address = await port.getAddress(region, 'lb1');
    expect(address?.address).toMatch(/\d+\.\d+\.\d+\.\d+/);
    expect((await port.findAddressByIp(region, address?.address ?? ''))?.name).toBe('lb1');
    const check = { name: 'k8s-cid-node', port: 10256, requestPath: '/healthz', checkIntervalSec: 8, timeoutSec: 1, healthyThreshold: 1, unhealthyThreshold: 3, description: '{"kubernetes.io/cluster-id":"cid"}' };
    await port.insertHttpHealthCheck(check);
    await port.updateHttpHealthCheck({ ...check, checkIntervalSec: 10 });
    const stored = await port.getHttpHealthCheck('k8s-cid-node');
    expect(stored).toMatchObject({ port: 10256, checkIntervalSec: 10, description: check.description });
    await port.insertTargetPool(region, { name: 'lb1', instances: [link(`zones/${zone}/instances/node-a`)], healthChecks: [stored?.selfLink ?? ''], sessionAffinity: 'NONE', description: 'd' });
    await port.addTargetPoolInstances(region, 'lb1', [link(`zones/${simulator.zones[1]}/instances/node-b`)]);
    await port.removeTargetPoolInstances(region, 'lb1', [link(`zones/${zone}/instances/node-a`)]);
    expect((await port.getTargetPool(region, 'lb1'))?.instances.map((url) => url.split('/').at(-1))).toEqual(['node-b']);
    await port.insertForwardingRule(region, { name: 'lb1', IPAddress: address?.address ?? '', IPProtocol: 'TCP', portRange: '80-80', target: link(`regions/${region}/targetPools/lb1`), networkTier: 'PREMIUM', loadBalancingScheme: 'EXTERNAL', description: 'd' });
    expect(await port.getForwardingRule(region, 'lb1')).toMatchObject({ IPAddress: address?.address, portRange: '80-80', IPProtocol: 'TCP' });
    const firewall = { name: 'k8s-fw-lb1', network: link(`global/networks/${NETWORK}`), description: 'd', sourceRanges: ['0.0.0.0/0'], destinationRanges: [address?.address ?? ''], targetTags: ['node'], allowed: [{ IPProtocol: 'tcp', ports: ['80'] }], priority: 1000 };
    await port.insertFirewall(firewall);
    await port.patchFirewall({ ...firewall, sourceRanges: ['10.0.0.0/8'] });
    expect((await port.getFirewall('k8s-fw-lb1'))?.sourceRanges).toEqual(['10.0.0.0/8']);

    expect(await failureOf(() => port.deleteHttpHealthCheck('k8s-cid-node'))).toMatchObject({ kind: 'InUse' });
    expect(await failureOf(() => port.deleteTargetPool(region, 'lb1'))).toMatchObject({ kind: 'InUse' });
    await port.deleteFirewall('k8s-fw-lb1');
    await port.deleteForwardingRule(region, 'lb1');
    await port.deleteAddress(region, 'lb1');
    await port.deleteTargetPool(region, 'lb1');
    await port.deleteHttpHealthCheck('k8s-cid-node');
    expect([await port.getTargetPool(region, 'lb1'), await port.getHttpHealthCheck('k8s-cid-node'), await port.getFirewall('k8s-fw-lb1')]).toEqual([undefined, undefined, undefined]);
  });

  it('reports a rejected token as Unauthorized and an unreachable endpoint or token-url as retryable Unavailable', async () => {
    const badToken = createSdkComputePort(
      createComputeClients({ protocol: 'http', host: '127.0.0.1', port: Number(new URL(simulator.url).port), baseUrl: `${simulator.url}/compute/v1/` }, { kind: 'token-url', url: `${simulator.url}/not-a-token-endpoint`, body: '' }),
      { project: simulator.project, networkProject: simulator.project },
    );
    expect((await failureOf(() => badToken.getInstance(zone, 'node-a'))).kind).toMatch(/Unauthorized|Invalid/);
    const closed = await closedPort();
    const unreachable = createSdkComputePort(
      createComputeClients({ protocol: 'http', host: '127.0.0.1', port: closed, baseUrl: `http://127.0.0.1:${closed}/compute/v1/` }, { kind: 'token-url', url: simulator.tokenUrl, body: '' }),
      { project: simulator.project, networkProject: simulator.project },
    );
    expect(await failureOf(() => unreachable.getInstance(zone, 'node-a'))).toEqual({ kind: 'Unavailable', retryable: true });
    const noTokenServer = createSdkComputePort(
      createComputeClients({ protocol: 'http', host: '127.0.0.1', port: Number(new URL(simulator.url).port), baseUrl: `${simulator.url}/compute/v1/` }, { kind: 'token-url', url: `http://127.0.0.1:${closed}/token`, body: '' }),
      { project: simulator.project, networkProject: simulator.project },
    );
    expect(await failureOf(() => noTokenServer.getInstance(zone, 'node-a'))).toEqual({ kind: 'Unavailable', retryable: true });
  });

  it('sends only requests the discovery document describes (when it is installed)', () => {
    expect(simulator.discoveryViolations()).toEqual([]);
  });
});
