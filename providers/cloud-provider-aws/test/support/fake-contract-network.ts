/** The fake side of the AWS port contracts: the contract network in a FakeEc2, and a side that needs no cleanup. */
import { FakeEc2 } from '../fakes/fake-ec2.js';
import type { AwsContractSide, ContractNetwork } from './aws-contract-target.js';

export const FAKE_CONTRACT_REGION = 'us-west-2';

/** Seeds `ec2` with the contract network (as the moto side creates it). */
export function seedContractNetwork(ec2: FakeEc2): ContractNetwork {
  const vpcId = ec2.newId('vpc');
  const subnetIds = ['a', 'b'].map((zone, index) =>
    ec2.addSubnet({ subnetId: ec2.newId('subnet'), vpcId, availabilityZone: `${FAKE_CONTRACT_REGION}${zone}`, cidrBlock: `10.0.${index + 1}.0/24` }).subnetId,
  );
  const routeTableId = ec2.addRouteTable({ routeTableId: ec2.newId('rtb'), vpcId }).routeTableId;
  const securityGroupIds = ['nodes', 'other'].map((groupName) => ec2.addSecurityGroup({ groupId: ec2.newId('sg'), groupName, description: groupName, vpcId }).groupId);
  const instanceIds = subnetIds.map((subnetId, index) => {
    const privateIpAddress = `10.0.${index + 1}.10`;
    return ec2.addInstance({
      instanceId: ec2.newId('i'),
      instanceType: 't3.medium',
      vpcId,
      subnetId,
      privateIpAddress,
      privateDnsName: `ip-${privateIpAddress.replaceAll('.', '-')}.${FAKE_CONTRACT_REGION}.compute.internal`,
      sourceDestCheck: true,
      securityGroups: [{ groupId: securityGroupIds[0] as string, groupName: 'nodes' }],
    }).instanceId;
  });
  return { vpcId, subnetIds, routeTableId, securityGroupIds, instanceIds };
}

/** A contract side over fakes: `build` gets a FakeEc2 holding the contract network. */
export function fakeContractSide<World>(build: (ec2: FakeEc2, network: ContractNetwork) => World): AwsContractSide<World> {
  return {
    target: 'fake',
    start: async () => {
      const ec2 = new FakeEc2();
      return build(ec2, seedContractNetwork(ec2));
    },
    cleanup: async () => {},
  };
}
