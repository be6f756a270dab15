/**
 * The Ec2Port contract (test/support/ec2-port-contract.ts) on the production SDK adapter against
 * moto_server; its fake run is test/fakes/ec2-port.contract.test.ts. Needs `moto_server`: fails
 * under CI=true without it, skips loudly otherwise.
 */
import { EC2Client } from '@aws-sdk/client-ec2';
import { describe } from 'vitest';
import { createSdkEc2Port } from '../../src/ports/sdk/sdk-ec2-port.js';
import { describeEc2PortContract } from '../support/ec2-port-contract.js';
import { motoContractSide, motoSkipReason } from './moto-contract-side.js';
import { createMotoNetwork, runMotoInstance } from './moto-network.js';

const skip = motoSkipReason('the Ec2Port contract on moto');

describe.skipIf(skip !== undefined)('Ec2Port contract on moto_server', () => {
  describeEc2PortContract(
    motoContractSide(async ({ clientConfig, region }) => {
      // Setup with the raw SDK; the port under test is the production adapter over the same client.
      const ec2 = new EC2Client(clientConfig);
      const network = await createMotoNetwork(ec2, region, 'contract');
      const instanceIds: string[] = [];
      for (const index of [0, 1]) instanceIds.push((await runMotoInstance(ec2, network, 'contract', index)).InstanceId ?? '');
      const port = createSdkEc2Port(ec2);
      return { port, region, vpcId: network.vpcId, subnetIds: network.subnetIds, routeTableId: network.routeTableId, instanceIds };
    }),
  );
});
