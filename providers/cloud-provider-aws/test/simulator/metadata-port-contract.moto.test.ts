/**
 * The MetadataPort contract (test/support/metadata-port-contract.ts) on the production IMDS adapter
 * against moto_server's instance metadata endpoint; its fake run is
 * test/metadata-port.contract.test.ts. Needs `moto_server`: fails under CI=true without it,
 * skips loudly otherwise.
 */
import { describe } from 'vitest';
import { createImdsMetadataPort } from '../../src/ports/sdk/imds-metadata-port.js';
import { describeMetadataPortContract } from '../support/metadata-port-contract.js';
import { motoContractSide, motoSkipReason } from '../support/moto-contract-side.js';
import { freePort } from '../support/moto-server.js';

const skip = motoSkipReason('the MetadataPort contract on moto');

describe.skipIf(skip !== undefined)('MetadataPort contract on moto_server', () => {
  describeMetadataPortContract(
    motoContractSide(async ({ endpoint }) => ({
      port: createImdsMetadataPort({ endpoint }),
      // A port nothing listens on (taken and released): connection refused at once.
      unreachable: createImdsMetadataPort({ endpoint: `http://127.0.0.1:${await freePort()}`, attempts: 1 }),
    })),
  );
});
