/**
 * The Ec2Port contract (test/support/ec2-port-contract.ts) on the production SDK adapter against
 * moto_server; its fake run is test/ec2-port.contract.test.ts. Needs `moto_server`: fails
 * under CI=true without it, skips loudly otherwise.
 */
import { EC2Client } from '@aws-sdk/client-ec2';
import { describe } from 'vitest';
import { createSdkEc2Port } from '../../src/ports/sdk/sdk-ec2-port.js';
import { describeEc2PortContract } from '../support/ec2-port-contract.js';
import { motoContractSide, motoSkipReason } from '../support/moto-contract-side.js';

const skip = motoSkipReason('the Ec2Port contract on moto');

describe.skipIf(skip !== undefined)('Ec2Port contract on moto_server', () => {
  describeEc2PortContract(motoContractSide(async ({ clientConfig, region, network }) => ({ port: createSdkEc2Port(new EC2Client(clientConfig)), region, ...(await network()) })));
});
