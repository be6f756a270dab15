/** The Elbv2Port contract (test/support/elbv2-port-contract.ts) on FakeElbv2; its moto run is test/moto/elbv2-port-contract.moto.test.ts. */
import { describeElbv2PortContract } from '../support/elbv2-port-contract.js';
import { FakeElbv2 } from './fake-elbv2.js';

const ARN = 'arn:aws:elasticloadbalancing:us-west-2:123456789012';

describeElbv2PortContract({
  target: 'fake',
  start: async () => ({
    port: new FakeElbv2(),
    vpcId: 'vpc-1',
    subnetIds: ['subnet-0a00000000000000a', 'subnet-0b00000000000000b'],
    securityGroupId: 'sg-0a00000000000000a',
    instanceIds: ['i-0a00000000000000a', 'i-0b00000000000000b'],
    unknownArns: {
      loadBalancer: `${ARN}:loadbalancer/net/contract-none/0123456789abcdef`,
      targetGroup: `${ARN}:targetgroup/contract-none/0123456789abcdef`,
      listener: `${ARN}:listener/net/contract-none/0123456789abcdef/0123456789abcdef`,
    },
  }),
  cleanup: async () => {},
});
