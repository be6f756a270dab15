/**
 * The internal load balancer end to end through the real SDK adapter against the GCE simulator
 * (every request checked against Compute's discovery document when it is installed), and gcloud
 * as a second, independent client listing and describing every ILB kind the CCM created:
 * instance groups (and their members), regional backend services, health checks, forwarding
 * rules, firewalls. Then deletion leaves nothing behind.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsRegistry } from '@ccm/core/app';
import { silentLogger } from '@ccm/core/logging';
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGcpCloud, type GcpCloud } from '../../src/gcp-cloud.js';
import { asGceApiError } from '../../src/errors.js';
import { createComputeClients } from '../../src/ports/sdk/compute-clients.js';
import { createSdkComputePort } from '../../src/ports/sdk/sdk-compute-port.js';
import { readGceCloudConfig } from '../../src/config/read-gce-cloud-config.js';
import { GceRest, seedInstance, seedNetwork } from '../support/gce-rest.js';
import { gceSimulatorUnavailableReason, GCE_SIMULATOR_INSTALL_HINT, startSimulator, type RunningGceSimulator } from '../support/gce-simulator-launcher.js';
import { makeNode, makeService } from '../helpers.js';
import { FakeServiceFinalizers } from '../fakes/fake-service-finalizers.js';

const GCLOUD_INSTALL_HINT = 'install the Google Cloud CLI (`apt-get install google-cloud-cli`) so that `gcloud` is on PATH';

function gcloudUnavailable(): string | undefined {
  const probe = spawnSync('gcloud', ['version', '--format=value(core)'], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, CLOUDSDK_CORE_DISABLE_PROMPTS: '1' } });
  if (probe.error !== undefined) return `gcloud cannot run: ${probe.error.message}`;
  if (probe.status !== 0) return `gcloud version exited ${String(probe.status)}: ${probe.stderr.trim()}`;
  return undefined;
}

const simulatorMissing = gceSimulatorUnavailableReason();
const gcloudMissing = gcloudUnavailable();
const unavailable = simulatorMissing ?? gcloudMissing;
if (unavailable !== undefined) {
  const hint = simulatorMissing === undefined ? GCLOUD_INSTALL_HINT : GCE_SIMULATOR_INSTALL_HINT;
  if (process.env['CI'] === 'true') throw new Error(`CI=true but ${unavailable}; ${hint}`);
  console.warn(`SKIPPING the internal load balancer tests against the GCE simulator and gcloud: ${unavailable}; ${hint}`);
}

const NETWORK = 'ilb-net';
const SUBNET = `${NETWORK}-nodes`;
const CLUSTER_ID = 'abcdef0123456789';
const TAG = 'ilb-node';

describe.skipIf(unavailable !== undefined)('the internal load balancer against the GCE simulator, cross-checked by gcloud', () => {
  let simulator: RunningGceSimulator;
  let rest: GceRest;
  let cloud: GcpCloud;
  let configDirectory: string;
  let nodes: V1Node[];
  const cluster = makeService({ name: 'cluster', uid: '10000000-0000-0000-0000-000000000001', annotations: { 'networking.gke.io/load-balancer-type': 'Internal' }, ports: [{ port: 80 }, { port: 443 }] });
  const local = makeService({
    name: 'local',
    uid: '20000000-0000-0000-0000-000000000002',
    annotations: { 'cloud.google.com/load-balancer-type': 'internal', 'networking.gke.io/internal-load-balancer-allow-global-access': 'true' },
    externalTrafficPolicy: 'Local',
    healthCheckNodePort: 32001,
  });
  const lb = (service: V1Service): string => `a${(service.metadata?.uid ?? '').replaceAll('-', '')}`.slice(0, 32);

  async function gcloud(...args: string[]): Promise<unknown> {
    const child = spawn('gcloud', ['compute', ...args, '--format=json', '--quiet'], {
      env: { ...process.env, CLOUDSDK_CONFIG: configDirectory, CLOUDSDK_CORE_DISABLE_PROMPTS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (code !== 0 || stderr.includes('did not succeed')) throw new Error(`gcloud compute ${args.join(' ')} exited ${String(code)}: ${stderr}`);
    return JSON.parse(stdout);
  }
  const names = (listed: unknown): string[] => (listed as { name: string }[]).map((item) => item.name).sort();
  /**
   * Scoped lists (`--zones`, `--regions`, `--global`): gcloud's aggregated lists send
   * `returnPartialSuccess`, which the pinned discovery document does not describe for
   * `aggregatedList`, and the simulator validates every request against that document.
   */
  const list = (kind: string): Promise<unknown> => {
    const scope: Record<string, string[]> = {
      'instance-groups': [`--zones=${simulator.zones.join(',')}`],
      'backend-services': [`--regions=${simulator.region}`],
      'health-checks': ['--global'],
      'forwarding-rules': [`--regions=${simulator.region}`],
      addresses: [`--regions=${simulator.region}`],
      'firewall-rules': [],
    };
    return gcloud(kind, 'list', ...(scope[kind] ?? []));
  };

  beforeAll(async () => {
    // gcloud runs with `auth/disable_credentials`: the simulator accepts anonymous requests too.
    simulator = await startSimulator({ network: NETWORK, allowAnonymous: true });
    rest = new GceRest(simulator);
    await seedNetwork(rest, NETWORK, simulator.region);
    const zones = simulator.zones.slice(0, 2);
    nodes = [];
    for (const [index, name] of ['ilb-node-1', 'ilb-node-2', 'ilb-node-3'].entries()) {
      const zone = zones[index % zones.length] ?? '';
      await seedInstance(rest, { name, zone, network: NETWORK, region: simulator.region, tags: [TAG] });
      nodes.push(makeNode(name, { labels: { 'topology.kubernetes.io/zone': zone } }));
    }
    const configText = [
      '[global]',
      `project-id = ${simulator.project}`,
      `network-name = ${NETWORK}`,
      `subnetwork-name = ${SUBNET}`,
      `local-zone = ${zones[0]}`,
      'multizone = true',
      `api-endpoint = ${simulator.url}/compute/v1/`,
      `token-url = ${simulator.tokenUrl}`,
      '',
    ].join('\n');
    cloud = await createGcpCloud(configText, { logger: silentLogger, metrics: createMetricsRegistry() }, { clusterId: async () => CLUSTER_ID, serviceFinalizers: new FakeServiceFinalizers(), operationPollIntervalMs: 10 });
    configDirectory = mkdtempSync(join(tmpdir(), 'gcloud-ilb-'));
    mkdirSync(join(configDirectory, 'configurations'));
    writeFileSync(join(configDirectory, 'active_config'), 'default');
    writeFileSync(
      join(configDirectory, 'configurations', 'config_default'),
      [
        '[core]',
        `project = ${simulator.project}`,
        'disable_usage_reporting = true',
        '[auth]',
        'disable_credentials = true',
        '[api_endpoint_overrides]',
        `compute = ${simulator.url}/compute/v1/`,
        '[component_manager]',
        'disable_update_check = true',
        '',
      ].join('\n'),
    );
  }, 60_000);

  afterAll(async () => {
    await simulator?.close();
    if (configDirectory !== undefined) rmSync(configDirectory, { recursive: true, force: true });
  });

  it('creates both load balancers through the SDK, each request as the discovery document describes it', { timeout: 60_000 }, async () => {
    const first = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', cluster, nodes);
    const second = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', local, nodes);
    expect(first.ingress?.[0]?.ip).toMatch(/^10\.128\./);
    expect(second.ingress?.[0]?.ip).toMatch(/^10\.128\./);
    expect(second.ingress?.[0]?.ip).not.toBe(first.ingress?.[0]?.ip);
    // A second sync is a no-op (apart from the held address).
    expect(await cloud.loadBalancer().ensureLoadBalancer('kubernetes', cluster, nodes)).toEqual(first);
    expect(simulator.discoveryViolations()).toEqual([]);
  });

  it('gcloud lists and describes the unmanaged instance groups and their members', { timeout: 120_000 }, async () => {
    const listed = (await list('instance-groups')) as { name: string; zone: string }[];
    expect(listed.map((group) => `${group.zone.split('/').at(-1)}/${group.name}`).sort()).toEqual(simulator.zones.slice(0, 2).map((zone) => `${zone}/k8s-ig--${CLUSTER_ID}`).sort());
    const zone = simulator.zones[0] ?? '';
    expect(await gcloud('instance-groups', 'unmanaged', 'describe', `k8s-ig--${CLUSTER_ID}`, `--zone=${zone}`)).toMatchObject({ name: `k8s-ig--${CLUSTER_ID}`, size: 2 });
    const members = (await gcloud('instance-groups', 'unmanaged', 'list-instances', `k8s-ig--${CLUSTER_ID}`, `--zone=${zone}`)) as { instance: string }[];
    expect(members.map((member) => member.instance.split('/').at(-1)).sort()).toEqual(['ilb-node-1', 'ilb-node-3']);
  });

  it('gcloud lists and describes the regional backend services', { timeout: 120_000 }, async () => {
    expect(names(await list('backend-services'))).toEqual([lb(cluster), lb(local)].sort());
    const described = (await gcloud('backend-services', 'describe', lb(cluster), `--region=${simulator.region}`)) as Record<string, unknown>;
    expect(described).toMatchObject({ name: lb(cluster), loadBalancingScheme: 'INTERNAL', protocol: 'TCP', sessionAffinity: 'NONE', description: '{"kubernetes.io/service-name":"default/cluster"}' });
    expect((described['healthChecks'] as string[])[0]).toMatch(new RegExp(`/global/healthChecks/k8s-${CLUSTER_ID}-node$`));
    expect((described['backends'] as { group: string }[]).map((backend) => backend.group.split('/').at(-1))).toEqual([`k8s-ig--${CLUSTER_ID}`, `k8s-ig--${CLUSTER_ID}`]);
  });

  it('gcloud lists and describes the health checks (shared node check, and the Local Service check)', { timeout: 120_000 }, async () => {
    expect(names(await list('health-checks'))).toEqual([`k8s-${CLUSTER_ID}-node`, lb(local)].sort());
    expect(await gcloud('health-checks', 'describe', `k8s-${CLUSTER_ID}-node`, '--global')).toMatchObject({
      type: 'HTTP',
      httpHealthCheck: { port: 10256, requestPath: '/healthz' },
      checkIntervalSec: 8,
      timeoutSec: 1,
      healthyThreshold: 1,
      unhealthyThreshold: 3,
    });
    expect(await gcloud('health-checks', 'describe', lb(local), '--global')).toMatchObject({ httpHealthCheck: { port: 32001 }, description: '{"kubernetes.io/service-name":"default/local"}' });
  });

  it('gcloud lists and describes the INTERNAL forwarding rules', { timeout: 120_000 }, async () => {
    expect(names(await list('forwarding-rules'))).toEqual([lb(cluster), lb(local)].sort());
    const described = (await gcloud('forwarding-rules', 'describe', lb(cluster), `--region=${simulator.region}`)) as Record<string, unknown>;
    expect(described).toMatchObject({ loadBalancingScheme: 'INTERNAL', IPProtocol: 'TCP', ports: ['80', '443'], description: '{"kubernetes.io/service-name":"default/cluster"}' });
    expect(String(described['subnetwork'])).toMatch(new RegExp(`/subnetworks/${SUBNET}$`));
    expect(String(described['backendService'])).toMatch(new RegExp(`/backendServices/${lb(cluster)}$`));
    expect(await gcloud('forwarding-rules', 'describe', lb(local), `--region=${simulator.region}`)).toMatchObject({ allowGlobalAccess: true });
  });

  it('gcloud lists and describes the traffic and health-check firewalls', { timeout: 120_000 }, async () => {
    expect(names(await list('firewall-rules'))).toEqual([`k8s-fw-${lb(cluster)}`, `k8s-fw-${lb(local)}`, `k8s-${CLUSTER_ID}-node-hc`, `${lb(local)}-hc`].sort());
    expect(await gcloud('firewall-rules', 'describe', `k8s-fw-${lb(cluster)}`)).toMatchObject({ allowed: [{ IPProtocol: 'tcp', ports: ['80', '443'] }], targetTags: [TAG], sourceRanges: ['0.0.0.0/0'] });
    expect(await gcloud('firewall-rules', 'describe', `${lb(local)}-hc`)).toMatchObject({ allowed: [{ IPProtocol: 'tcp', ports: ['32001'] }] });
  });

  it('a backend service update with a stale fingerprint is refused by the simulator as PreconditionFailed', async () => {
    const { config } = readGceCloudConfig(`[global]\nproject-id = ${simulator.project}\nnetwork-name = ${NETWORK}\nlocal-zone = ${simulator.zones[0]}\napi-endpoint = ${simulator.url}/compute/v1/\ntoken-url = ${simulator.tokenUrl}\n`);
    const port = createSdkComputePort(createComputeClients(config.endpoint, config.credentials), { project: config.projectId, networkProject: config.networkProjectId, operationPollIntervalMs: 10 });
    const observed = await port.getRegionBackendService(simulator.region, lb(cluster));
    expect(observed?.fingerprint).toBeTruthy();
    let failure: unknown;
    try {
      await port.updateRegionBackendService(simulator.region, { ...(observed ?? { name: lb(cluster), healthChecks: [], backends: [] }), fingerprint: 'c3RhbGU=' });
    } catch (error) {
      failure = error;
    }
    expect(asGceApiError(failure)?.kind).toBe('PreconditionFailed');
  });

  it('deleting both leaves nothing behind (shared groups and check go with the last one)', { timeout: 120_000 }, async () => {
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', cluster);
    expect(names(await list('instance-groups'))).toHaveLength(2);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', local);
    for (const kind of ['instance-groups', 'backend-services', 'health-checks', 'forwarding-rules', 'firewall-rules', 'addresses']) expect(names(await list(kind)), kind).toEqual([]);
    expect(simulator.discoveryViolations()).toEqual([]);
  });
});
