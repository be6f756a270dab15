import { describeInstancesV2Contract, describeLoadBalancerContract, describeRoutesContract } from '@ccm/testing/contract';
import { startSandboxFixture } from './helpers.js';

// The shared provider contracts, against the sandbox provider and a real sandbox cloud over HTTP.
describeInstancesV2Contract('sandbox', () => startSandboxFixture());
describeLoadBalancerContract('sandbox', () => startSandboxFixture());
describeRoutesContract('sandbox', () => startSandboxFixture());

// The same with `cluster-id` unset: ownership then follows --cluster-name.
describeLoadBalancerContract('sandbox without cluster-id', () => startSandboxFixture({ config: { clusterId: '' } }));
describeRoutesContract('sandbox without cluster-id', () => startSandboxFixture({ config: { clusterId: '' } }));
