/** The Ec2Port contract (test/support/ec2-port-contract.ts) on FakeEc2; its moto run is test/simulator/ec2-port-contract.moto.test.ts. */
import { describeEc2PortContract } from './support/ec2-port-contract.js';
import { FAKE_CONTRACT_REGION, fakeContractSide } from './support/fake-contract-network.js';

describeEc2PortContract(fakeContractSide((ec2, network) => ({ port: ec2, region: FAKE_CONTRACT_REGION, ...network })));
