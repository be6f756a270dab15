/** The ElbPort contract (test/support/elb-port-contract.ts) on FakeElb; its moto run is test/moto/elb-port-contract.moto.test.ts. */
import { describeElbPortContract } from '../support/elb-port-contract.js';
import { FakeElb } from './fake-elb.js';

describeElbPortContract({
  target: 'fake',
  start: async () => ({
    port: new FakeElb(),
    subnetIds: ['subnet-0a00000000000000a', 'subnet-0b00000000000000b'],
    securityGroupIds: ['sg-0a00000000000000a', 'sg-0b00000000000000b'],
    instanceIds: ['i-0a00000000000000a', 'i-0b00000000000000b'],
  }),
  cleanup: async () => {},
});
