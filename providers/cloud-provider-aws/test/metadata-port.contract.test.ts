/** The MetadataPort contract (test/support/metadata-port-contract.ts) on FakeMetadata; its moto run is test/simulator/metadata-port-contract.moto.test.ts. */
import { describeMetadataPortContract } from './support/metadata-port-contract.js';
import { FakeMetadata } from './fakes/fake-metadata.js';

describeMetadataPortContract({
  target: 'fake',
  start: async () => ({
    port: new FakeMetadata({ region: 'us-east-1', instanceId: 'i-0123456789abcdef0', availabilityZone: 'us-east-1a' }),
    unreachable: new FakeMetadata(),
  }),
  cleanup: async () => {},
});
