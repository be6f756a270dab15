/**
 * The ComputePort contract (test/support/compute-port-contract.ts) on the in-memory fake the unit
 * tests use; test/simulator/compute-port-contract.simulator.test.ts runs the same contract on
 * the production SDK adapter against the GCE simulator. A case that holds on one side only is a
 * fake that accepts what Compute refuses, or answers what Compute does not.
 */
import { describe } from 'vitest';
import { describeComputePortContract } from './support/compute-port-contract.js';
import { FAKE_BASE_URL, FakeCompute } from './fakes/fake-compute.js';

const NETWORK = 'ccm-net';

describe('ComputePort contract: the in-memory fake', () => {
  const fake = new FakeCompute('contract-project');
  fake.networks.add(NETWORK);
  const link = (path: string): string => `${FAKE_BASE_URL}projects/${fake.project}/${path}`;
  describeComputePortContract(() => ({
    port: fake,
    region: 'us-central1',
    zones: ['us-central1-a', 'us-central1-b'],
    link,
    network: NETWORK,
    subnetwork: `${NETWORK}-nodes`,
    createInstance: (zone, name, tags) => {
      fake.addInstance(zone, name, {
        tags: [...tags],
        networkInterfaces: [
          { network: link(`global/networks/${NETWORK}`), subnetwork: link(`regions/us-central1/subnetworks/${NETWORK}-nodes`), networkIP: `10.128.0.${fake.instances.size + 2}`, accessConfigs: [], ipv6AccessConfigs: [] },
        ],
      });
      return Promise.resolve();
    },
  }));
});
