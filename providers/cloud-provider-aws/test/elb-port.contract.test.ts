/** The ElbPort contract (test/support/elb-port-contract.ts) on FakeElb; its moto run is test/simulator/elb-port-contract.moto.test.ts. */
import { describeElbPortContract } from './support/elb-port-contract.js';
import { fakeContractSide } from './support/fake-contract-network.js';
import { FakeElb } from './fakes/fake-elb.js';

// The EC2 behind the load balancers is wired as the unit tests' harness wires it (test/helpers.ts).
describeElbPortContract(fakeContractSide((ec2, network) => ({ port: new FakeElb(undefined, ec2), ...network })));
