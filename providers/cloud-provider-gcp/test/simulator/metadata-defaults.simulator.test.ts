/**
 * A gce.conf that names only the API endpoint, on a machine whose metadata server (the
 * simulator's, through `GCE_METADATA_HOST`) supplies the project, zone, network and the
 * service-account token that Application Default Credentials fetch: the provider starts from it
 * and initializes a node against the Compute API, as on GCE.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsRegistry } from '@ccm/core/app';
import { silentLogger } from '@ccm/core/logging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGcpCloud } from '../../src/gcp-cloud.js';
import { gceSimulatorUnavailableReason, GCE_SIMULATOR_INSTALL_HINT, startSimulator, type RunningGceSimulator } from '../support/gce-simulator-launcher.js';
import { GceRest, seedInstance, seedNetwork } from '../support/gce-rest.js';
import { makeNode } from '../helpers.js';

const unavailable = gceSimulatorUnavailableReason();
if (unavailable !== undefined) {
  if (process.env['CI'] === 'true') throw new Error(`CI=true but ${unavailable}; ${GCE_SIMULATOR_INSTALL_HINT}`);
  console.warn(`SKIPPING the metadata-server defaults test against the GCE simulator: ${unavailable}; ${GCE_SIMULATOR_INSTALL_HINT}`);
}

const ENVIRONMENT_KEYS = ['GCE_METADATA_HOST', 'HOME', 'GOOGLE_APPLICATION_CREDENTIALS', 'CLOUDSDK_CONFIG', 'METADATA_SERVER_DETECTION'] as const;

describe.skipIf(unavailable !== undefined)('defaults and credentials from the metadata server (GCE simulator)', () => {
  let simulator: RunningGceSimulator;
  let home: string;
  const saved = new Map<string, string | undefined>();

  beforeAll(async () => {
    simulator = await startSimulator({ network: 'meta-net' });
    const rest = new GceRest(simulator);
    await seedNetwork(rest, 'meta-net', simulator.region);
    await seedInstance(rest, { name: 'node-meta', zone: simulator.zones[1] ?? '', network: 'meta-net', region: simulator.region });
    home = mkdtempSync(join(tmpdir(), 'gce-metadata-home-'));
    for (const key of ENVIRONMENT_KEYS) saved.set(key, process.env[key]);
    // No key file, no gcloud credentials: Application Default Credentials end at the metadata server.
    delete process.env['GOOGLE_APPLICATION_CREDENTIALS'];
    process.env['HOME'] = home;
    process.env['CLOUDSDK_CONFIG'] = join(home, 'gcloud');
    process.env['GCE_METADATA_HOST'] = simulator.metadataHost;
    process.env['METADATA_SERVER_DETECTION'] = 'ping-only';
  });

  afterAll(async () => {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    rmSync(home, { recursive: true, force: true });
    await simulator?.close();
  });

  it('starts with project, zone, region and network from the metadata server and authenticates with its token', async () => {
    const cloud = await createGcpCloud(`[global]\napi-endpoint = ${simulator.url}/compute/v1/\nmultizone = true\n`, { logger: silentLogger, metrics: createMetricsRegistry() }, { clusterId: async () => 'cid' });
    expect(cloud.config).toMatchObject({ projectId: simulator.project, localZone: simulator.zones[0], region: simulator.region, networkName: 'meta-net', credentials: { kind: 'application-default' } });
    const metadata = await cloud.instancesV2().instanceMetadata(makeNode('node-meta'));
    expect(metadata?.providerId).toBe(`gce://${simulator.project}/${simulator.zones[1]}/node-meta`);
    expect(metadata?.instanceType).toBe('e2-medium');
  });

  it('refuses to start, naming the keys to set, when no metadata server answers', async () => {
    process.env['GCE_METADATA_HOST'] = '127.0.0.1:9';
    try {
      const failure = await createGcpCloud(`[global]\napi-endpoint = ${simulator.url}/compute/v1/\nnetwork-name = meta-net\n`, { logger: silentLogger, metrics: createMetricsRegistry() }, { clusterId: async () => 'cid' }).catch(
        (error: unknown) => error,
      );
      expect(String(failure)).toMatch(/project-id, local-zone are not set, and the metadata server \(127\.0\.0\.1:9\) cannot supply them: .*set them in \[global\]/);
    } finally {
      process.env['GCE_METADATA_HOST'] = simulator.metadataHost;
    }
  });
});
