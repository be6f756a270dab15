/**
 * The ElbPort contract (test/support/elb-port-contract.ts) on the production SDK adapter against
 * moto_server; its fake run is test/fakes/elb-port.contract.test.ts. Needs `moto_server`: fails
 * under CI=true without it, skips loudly otherwise.
 */
import { CreateSecurityGroupCommand, EC2Client } from '@aws-sdk/client-ec2';
import { ElasticLoadBalancingClient } from '@aws-sdk/client-elastic-load-balancing';
import { describe } from 'vitest';
import { createSdkElbPort } from '../../src/ports/sdk/sdk-elb-port.js';
import { describeElbPortContract } from '../support/elb-port-contract.js';
import { motoContractSide, motoSkipReason } from './moto-contract-side.js';
import { createMotoNetwork, runMotoInstance } from './moto-network.js';

const skip = motoSkipReason('the ElbPort contract on moto');

describe.skipIf(skip !== undefined)('ElbPort contract on moto_server', () => {
  describeElbPortContract(
    motoContractSide(async ({ clientConfig, region }) => {
      // Setup with the raw EC2 SDK; the port under test is the production Classic ELB adapter.
      const ec2 = new EC2Client(clientConfig);
      const network = await createMotoNetwork(ec2, region, 'contract');
      const instanceIds: string[] = [];
      for (const index of [0, 1]) instanceIds.push((await runMotoInstance(ec2, network, 'contract', index)).InstanceId ?? '');
      const other = (await ec2.send(new CreateSecurityGroupCommand({ GroupName: 'contract-elb', Description: 'contract', VpcId: network.vpcId }))).GroupId ?? '';
      return {
        port: createSdkElbPort(new ElasticLoadBalancingClient(clientConfig)),
        subnetIds: network.subnetIds,
        securityGroupIds: [network.nodeSecurityGroupId, other],
        instanceIds,
      };
    }),
  );
});
