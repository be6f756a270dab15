import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGceSimulator, type GceSimulator } from './start-gce-simulator.js';
import { createCcmResources, EXTERNAL_LB, INTERNAL_LB, seedNodes } from './test-support/ccm-session.js';
import { ComputeTestClient, namesOf } from './test-support/compute-test-client.js';
import { externalSuite } from './test-support/external-suite.js';

const GCLOUD_INSTALL_HINT = 'install the Google Cloud CLI (`apt-get install google-cloud-cli` from packages.cloud.google.com, or the tarball from cloud.google.com/sdk) so that `gcloud` is on PATH';

function gcloudUnavailable(): string | undefined {
  const probe = spawnSync('gcloud', ['version', '--format=value(core)'], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, CLOUDSDK_CORE_DISABLE_PROMPTS: '1' } });
  if (probe.error !== undefined) return `gcloud cannot run: ${probe.error.message}`;
  if (probe.status !== 0) return `gcloud version exited ${String(probe.status)}: ${probe.stderr.trim()}`;
  return undefined;
}

externalSuite('gcloud as a second, independent client of the simulator', gcloudUnavailable(), GCLOUD_INSTALL_HINT, () => {
  let simulator: GceSimulator;
  let client: ComputeTestClient;
  let configDirectory: string;
  const { region, zones } = { region: 'us-central1', zones: ['us-central1-a', 'us-central1-b'] };

  beforeAll(async () => {
    simulator = await startGceSimulator({ allowAnonymous: true, region, zones });
    client = await ComputeTestClient.connect(simulator, { anonymous: true });
    await seedNodes(client);
    await createCcmResources(client);
    // The CCM releases its own reservations; a user-owned static IP stays.
    await client.mutate('POST', `regions/${region}/addresses`, { name: 'user-static-ip', description: 'reserved by a user for spec.loadBalancerIP' });
    // What `gcloud config set` writes, in a private configuration directory.
    configDirectory = mkdtempSync(join(tmpdir(), 'gcloud-gce-simulator-'));
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
    await simulator.close();
    rmSync(configDirectory, { recursive: true, force: true });
  });

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

  /**
   * What gcloud prints for a resource, in the API's terms: fingerprints are `bytes` in the
   * discovery document, which gcloud re-encodes in URL-safe base64; and `instance-groups describe`
   * adds its own `isManaged` column.
   */
  const asApi = (value: unknown, key = ''): unknown => {
    if (typeof value === 'string' && /[fF]ingerprint$/.test(key)) return value.replace(/-/g, '+').replace(/_/g, '/');
    if (Array.isArray(value)) return value.map((item) => asApi(item));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).filter(([name]) => name !== 'isManaged').map(([name, inner]) => [name, asApi(inner, name)]));
    }
    return value;
  };

  const names = (listed: unknown): string[] => (listed as { name: string }[]).map((item) => item.name).sort();

  const kinds: { kind: string; list: string[]; api: string; describe: string[]; expected: string }[] = [
    { kind: 'instances', list: ['instances', 'list'], api: 'aggregated/instances', describe: ['instances', 'describe', 'kubernetes-node-3', `--zone=${zones[1]}`], expected: 'kubernetes-node-3' },
    { kind: 'forwarding-rules', list: ['forwarding-rules', 'list'], api: 'aggregated/forwardingRules', describe: ['forwarding-rules', 'describe', INTERNAL_LB, `--region=${region}`], expected: INTERNAL_LB },
    { kind: 'target-pools', list: ['target-pools', 'list'], api: 'aggregated/targetPools', describe: ['target-pools', 'describe', EXTERNAL_LB, `--region=${region}`], expected: EXTERNAL_LB },
    { kind: 'http-health-checks', list: ['http-health-checks', 'list'], api: 'global/httpHealthChecks', describe: ['http-health-checks', 'describe', 'k8s-1234567890abcdef-node'], expected: 'k8s-1234567890abcdef-node' },
    { kind: 'health-checks', list: ['health-checks', 'list'], api: 'aggregated/healthChecks', describe: ['health-checks', 'describe', 'k8s-1234567890abcdef-node', '--global'], expected: 'k8s-1234567890abcdef-node' },
    { kind: 'backend-services', list: ['backend-services', 'list'], api: 'aggregated/backendServices', describe: ['backend-services', 'describe', INTERNAL_LB, `--region=${region}`], expected: INTERNAL_LB },
    { kind: 'instance-groups', list: ['instance-groups', 'list'], api: 'aggregated/instanceGroups', describe: ['instance-groups', 'unmanaged', 'describe', 'k8s-ig--1234567890abcdef', `--zone=${zones[0]}`], expected: 'k8s-ig--1234567890abcdef' },
    { kind: 'firewall-rules', list: ['firewall-rules', 'list'], api: 'global/firewalls', describe: ['firewall-rules', 'describe', `k8s-fw-${EXTERNAL_LB}`], expected: `k8s-fw-${EXTERNAL_LB}` },
    { kind: 'addresses', list: ['addresses', 'list'], api: 'aggregated/addresses', describe: ['addresses', 'describe', 'user-static-ip', `--region=${region}`], expected: 'user-static-ip' },
    { kind: 'routes', list: ['routes', 'list'], api: 'global/routes', describe: ['routes', 'describe', 'kubernetes-00000000-0000-0000-0000-000000000000'], expected: 'kubernetes-00000000-0000-0000-0000-000000000000' },
  ];

  for (const { kind, list, api, describe, expected } of kinds) {
    it(`lists and describes ${kind} as the API holds them`, { timeout: 120_000 }, async () => {
      const listed = names(await gcloud(...list));
      expect(listed).toContain(expected);
      expect(listed).toEqual(namesOf(await client.get(api)).sort());
      const described = (await gcloud(...describe)) as Record<string, unknown>;
      expect(described['name']).toBe(expected);
      const selfLink = String(described['selfLink']);
      expect(asApi(described)).toEqual(await client.get(selfLink.slice(selfLink.indexOf('projects/'))));
    });
  }

  it('lists the members of an unmanaged instance group (listInstances)', { timeout: 120_000 }, async () => {
    const members = (await gcloud('instance-groups', 'unmanaged', 'list-instances', 'k8s-ig--1234567890abcdef', `--zone=${zones[0]}`)) as { instance: string; status: string }[];
    expect(members.map((member) => member.instance.slice(member.instance.lastIndexOf('/') + 1)).sort()).toEqual(['kubernetes-node-1', 'kubernetes-node-2']);
    expect(members.every((member) => member.status === 'RUNNING')).toBe(true);
  });

  it('lists and describes operations of every scope', { timeout: 120_000 }, async () => {
    const listed = (await gcloud('operations', 'list')) as { name: string; selfLink: string; status: string }[];
    expect(names(listed)).toEqual(namesOf(await client.get('aggregated/operations')).sort());
    const zonal = listed.find((operation) => operation.selfLink.includes('/zones/'));
    const regional = listed.find((operation) => operation.selfLink.includes('/regions/'));
    const global = listed.find((operation) => operation.selfLink.includes('/global/'));
    if (zonal === undefined || regional === undefined || global === undefined) throw new Error('expected operations in every scope');
    const zone = /\/zones\/([^/]+)\//.exec(zonal.selfLink)?.[1] ?? '';
    expect(await gcloud('operations', 'describe', zonal.name, `--zone=${zone}`)).toMatchObject({ name: zonal.name, status: 'DONE' });
    expect(await gcloud('operations', 'describe', regional.name, `--region=${region}`)).toMatchObject({ name: regional.name, status: 'DONE' });
    expect(await gcloud('operations', 'describe', global.name, '--global')).toMatchObject({ name: global.name, status: 'DONE' });
  });
});
