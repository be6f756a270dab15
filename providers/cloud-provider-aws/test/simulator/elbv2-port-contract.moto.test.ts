/**
 * The Elbv2Port contract (test/support/elbv2-port-contract.ts) on the production SDK adapter
 * against moto_server; its fake run is test/elbv2-port.contract.test.ts. Needs
 * `moto_server`: fails under CI=true without it, skips loudly otherwise.
 */
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe } from 'vitest';
import { createSdkElbv2Port } from '../../src/ports/sdk/sdk-elbv2-port.js';
import { describeElbv2PortContract, unknownElbv2Arns } from '../support/elbv2-port-contract.js';
import { motoContractSide, motoSkipReason } from '../support/moto-contract-side.js';

const skip = motoSkipReason('the Elbv2Port contract on moto');

describe.skipIf(skip !== undefined)('Elbv2Port contract on moto_server', () => {
  describeElbv2PortContract(
    motoContractSide(async ({ clientConfig, region, network }) => ({
      port: createSdkElbv2Port(new ElasticLoadBalancingV2Client(clientConfig)),
      ...(await network()),
      unknownArns: unknownElbv2Arns(region),
    })),
  );
});
