/** The Elbv2Port contract (test/support/elbv2-port-contract.ts) on FakeElbv2; its moto run is test/simulator/elbv2-port-contract.moto.test.ts. */
import { describeElbv2PortContract, unknownElbv2Arns } from './support/elbv2-port-contract.js';
import { FAKE_CONTRACT_REGION, fakeContractSide } from './support/fake-contract-network.js';
import { FakeElbv2 } from './fakes/fake-elbv2.js';

// The EC2 behind the load balancers is wired as the unit tests' harness wires it (test/helpers.ts).
describeElbv2PortContract(fakeContractSide((ec2, network) => ({ port: new FakeElbv2(undefined, ec2), ...network, unknownArns: unknownElbv2Arns(FAKE_CONTRACT_REGION) })));
