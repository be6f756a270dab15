/** The Ec2Port contract (test/support/ec2-port-contract.ts) on FakeEc2; its moto run is test/moto/ec2-port-contract.moto.test.ts. */
import { describeEc2PortContract } from '../support/ec2-port-contract.js';
import { FakeEc2 } from './fake-ec2.js';

describeEc2PortContract({
  target: 'fake',
  start: async () => {
    const fake = new FakeEc2();
    const vpcId = 'vpc-0a0000000000000c1';
    const subnetIds = ['us-west-2a', 'us-west-2b'].map((zone, index) => fake.addSubnet({ subnetId: fake.newId('subnet'), vpcId, availabilityZone: zone, cidrBlock: `10.0.${index + 1}.0/24` }).subnetId);
    const routeTableId = fake.addRouteTable({ routeTableId: fake.newId('rtb'), vpcId }).routeTableId;
    const instanceIds = subnetIds.map((subnetId, index) => {
      const instanceId = fake.newId('i');
      const privateIpAddress = `10.0.${index + 1}.10`;
      fake.addInstance({ instanceId, vpcId, subnetId, privateIpAddress, privateDnsName: `ip-10-0-${index + 1}-10.us-west-2.compute.internal`, sourceDestCheck: true, instanceType: 't3.medium' });
      return instanceId;
    });
    return { port: fake, region: 'us-west-2', vpcId, subnetIds, routeTableId, instanceIds };
  },
  cleanup: async () => {},
});
