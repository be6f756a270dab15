/**
 * The ElbPort contract (test/support/elb-port-contract.ts) on the production SDK adapter against
 * moto_server; its fake run is test/elb-port.contract.test.ts. Needs `moto_server`: fails
 * under CI=true without it, skips loudly otherwise.
 */
import { ElasticLoadBalancingClient } from '@aws-sdk/client-elastic-load-balancing';
import { describe } from 'vitest';
import { createSdkElbPort } from '../../src/ports/sdk/sdk-elb-port.js';
import { describeElbPortContract } from '../support/elb-port-contract.js';
import { motoContractSide, motoSkipReason } from '../support/moto-contract-side.js';

const skip = motoSkipReason('the ElbPort contract on moto');

describe.skipIf(skip !== undefined)('ElbPort contract on moto_server', () => {
  describeElbPortContract(motoContractSide(async ({ clientConfig, network }) => ({ port: createSdkElbPort(new ElasticLoadBalancingClient(clientConfig)), ...(await network()) })));
});
