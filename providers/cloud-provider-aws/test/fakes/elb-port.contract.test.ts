/** The ElbPort contract (test/support/elb-port-contract.ts) on FakeElb; its moto run is test/moto/elb-port-contract.moto.test.ts. */
import { describeElbPortContract } from '../support/elb-port-contract.js';
import { FakeEc2 } from './fake-ec2.js';
import { FakeElb } from './fake-elb.js';

describeElbPortContract({
  target: 'fake',
  start: async () => {
    // The EC2 behind the load balancers, as the unit tests' harness wires it (test/helpers.ts).
    const ec2 = new FakeEc2();
    const vpcId = 'vpc-0a0000000000000c1';
    const subnetIds = ['us-west-2a', 'us-west-2b'].map((zone) => ec2.addSubnet({ subnetId: ec2.newId('subnet'), vpcId, availabilityZone: zone }).subnetId);
    const securityGroupIds = ['nodes', 'other'].map((groupName) => ec2.addSecurityGroup({ groupId: ec2.newId('sg'), groupName, vpcId }).groupId);
    const instanceIds = subnetIds.map((subnetId) => ec2.addInstance({ instanceId: ec2.newId('i'), vpcId, subnetId }).instanceId);
    return { port: new FakeElb(undefined, ec2), subnetIds, securityGroupIds, instanceIds };
  },
  cleanup: async () => {},
});
