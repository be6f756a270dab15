/**
 * The ComputePort contract (test/support/compute-port-contract.ts) on the production SDK adapter
 * (@google-cloud/compute) against the GCE simulator; test/compute-port.contract.test.ts runs
 * the same contract on the in-memory fake. The simulator checks every request against Compute's
 * discovery document when it is installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGceCloudConfig } from '../../src/config/read-gce-cloud-config.js';
import { createComputeClients } from '../../src/ports/sdk/compute-clients.js';
import { createSdkComputePort } from '../../src/ports/sdk/sdk-compute-port.js';
import { GceRest, seedInstance, seedNetwork } from '../support/gce-rest.js';
import { gceSimulatorUnavailableReason, GCE_SIMULATOR_INSTALL_HINT, startSimulator, type RunningGceSimulator } from '../support/gce-simulator-launcher.js';
import { describeComputePortContract, type ComputePortContractFixture } from '../support/compute-port-contract.js';

const unavailable = gceSimulatorUnavailableReason();
if (unavailable !== undefined) {
  if (process.env['CI'] === 'true') throw new Error(`CI=true but ${unavailable}; ${GCE_SIMULATOR_INSTALL_HINT}`);
  console.warn(`SKIPPING the ComputePort contract on the GCE simulator: ${unavailable}; ${GCE_SIMULATOR_INSTALL_HINT}`);
}

const NETWORK = 'ccm-net';

describe.skipIf(unavailable !== undefined)('ComputePort contract: the SDK adapter on the GCE simulator', () => {
  let simulator: RunningGceSimulator | undefined;
  let side: ComputePortContractFixture | undefined;

  beforeAll(async () => {
    const started = await startSimulator({ network: NETWORK });
    simulator = started;
    const { config } = readGceCloudConfig(
      `[global]\nproject-id = ${started.project}\nnetwork-name = ${NETWORK}\nlocal-zone = ${started.zones[0]}\napi-endpoint = ${started.url}/compute/v1/\ntoken-url = ${started.tokenUrl}\n`,
    );
    const port = createSdkComputePort(createComputeClients(config.endpoint, config.credentials), { project: config.projectId, networkProject: config.networkProjectId, operationPollIntervalMs: 10 });
    // The SDK's first call loads its protos synchronously (seconds on a busy machine); done before
    // the seeding client opens its keep-alive connection, so that no pause outlasts the server's
    // keep-alive timeout between two of its requests (a reset socket: ECONNRESET).
    await port.listZones(started.region);
    const rest = new GceRest(started);
    await seedNetwork(rest, NETWORK, started.region);
    const [zoneA, zoneB] = started.zones;
    if (zoneA === undefined || zoneB === undefined) throw new Error(`the simulator serves fewer than two zones: ${started.zones.join(', ')}`);
    side = {
      port,
      region: started.region,
      zones: [zoneA, zoneB],
      link: (path) => `${started.url}/compute/v1/projects/${started.project}/${path}`,
      network: NETWORK,
      subnetwork: `${NETWORK}-nodes`,
      createInstance: async (zone, name, tags) => {
        await seedInstance(rest, { name, zone, network: NETWORK, region: started.region, tags: [...tags] });
      },
    };
  });

  afterAll(async () => {
    await simulator?.close();
  });

  describeComputePortContract(() => {
    if (side === undefined) throw new Error('the simulator side did not start (see the hook error)');
    return side;
  });

  it('sent only requests the discovery document describes (when it is installed)', () => {
    expect(simulator?.discoveryViolations()).toEqual([]);
  });
});
