/**
 * The Elbv2Port contract (test/support/elbv2-port-contract.ts) on the production SDK adapter
 * against moto_server; its fake run is test/fakes/elbv2-port.contract.test.ts. Needs
 * `moto_server`: fails under CI=true without it, skips loudly otherwise.
 */
import { EC2Client } from '@aws-sdk/client-ec2';
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe } from 'vitest';
import { createSdkElbv2Port } from '../../src/ports/sdk/sdk-elbv2-port.js';
import { describeElbv2PortContract } from '../support/elbv2-port-contract.js';
import { motoContractSide, motoSkipReason } from './moto-contract-side.js';
import { createMotoNetwork, runMotoInstance } from './moto-network.js';

const skip = motoSkipReason('the Elbv2Port contract on moto');

describe.skipIf(skip !== undefined)('Elbv2Port contract on moto_server', () => {
  describeElbv2PortContract(
    motoContractSide(async ({ clientConfig, region }) => {
      // Setup with the raw EC2 SDK; the port under test is the production ELBv2 adapter.
      const ec2 = new EC2Client(clientConfig);
      const network = await createMotoNetwork(ec2, region, 'contract');
      const instanceIds: string[] = [];
      for (const index of [0, 1]) instanceIds.push((await runMotoInstance(ec2, network, 'contract', index)).InstanceId ?? '');
      const arn = `arn:aws:elasticloadbalancing:${region}:123456789012`;
      return {
        port: createSdkElbv2Port(new ElasticLoadBalancingV2Client(clientConfig)),
        vpcId: network.vpcId,
        subnetIds: network.subnetIds,
        securityGroupId: network.nodeSecurityGroupId,
        instanceIds,
        unknownArns: {
          loadBalancer: `${arn}:loadbalancer/net/contract-none/0123456789abcdef`,
          targetGroup: `${arn}:targetgroup/contract-none/0123456789abcdef`,
          listener: `${arn}:listener/net/contract-none/0123456789abcdef/0123456789abcdef`,
        },
      };
    }),
  );
});
