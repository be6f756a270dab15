/** The Elbv2Port contract (test/support/elbv2-port-contract.ts) on FakeElbv2; its moto run is test/moto/elbv2-port-contract.moto.test.ts. */
import { describeElbv2PortContract } from '../support/elbv2-port-contract.js';
import { FakeEc2 } from './fake-ec2.js';
import { FakeElbv2 } from './fake-elbv2.js';

const ARN = 'arn:aws:elasticloadbalancing:us-west-2:123456789012';

describeElbv2PortContract({
  target: 'fake',
  start: async () => {
    // The EC2 behind the load balancers, as the unit tests' harness wires it (test/helpers.ts).
    const ec2 = new FakeEc2();
    const vpcId = 'vpc-0a0000000000000c1';
    const subnetIds = ['us-west-2a', 'us-west-2b'].map((zone) => ec2.addSubnet({ subnetId: ec2.newId('subnet'), vpcId, availabilityZone: zone }).subnetId);
    const securityGroupId = ec2.addSecurityGroup({ groupId: ec2.newId('sg'), groupName: 'nodes', vpcId }).groupId;
    const instanceIds = subnetIds.map((subnetId) => ec2.addInstance({ instanceId: ec2.newId('i'), vpcId, subnetId }).instanceId);
    return {
      port: new FakeElbv2(undefined, ec2),
      vpcId,
      subnetIds,
      securityGroupId,
      instanceIds,
      unknownArns: {
        loadBalancer: `${ARN}:loadbalancer/net/contract-none/0123456789abcdef`,
        targetGroup: `${ARN}:targetgroup/contract-none/0123456789abcdef`,
        listener: `${ARN}:listener/net/contract-none/0123456789abcdef/0123456789abcdef`,
      },
    };
  },
  cleanup: async () => {},
});
