/**
 * The moto side of the AWS port contracts (test/support/*-port-contract.ts): one moto_server per
 * contract file, the production SDK adapter built by the caller over it.
 */
import { CreateSecurityGroupCommand, EC2Client } from '@aws-sdk/client-ec2';
import type { AwsContractSide, ContractNetwork } from './aws-contract-target.js';
import { createMotoNetwork, motoClientConfig, runMotoInstance } from './moto-network.js';
import { motoUnavailableReason, startMoto, type RunningMoto } from './moto-server.js';

export const CONTRACT_REGION = 'us-west-2';

/** Undefined when moto_server runs; else why not, after failing under CI=true or warning loudly. */
export function motoSkipReason(what: string): string | undefined {
  const unavailable = motoUnavailableReason();
  if (unavailable === undefined) return undefined;
  if (process.env['CI'] === 'true') throw new Error(`CI=true but ${unavailable}`);
  console.warn(`SKIPPING ${what}: ${unavailable}`);
  return unavailable;
}

export interface MotoContractContext {
  endpoint: string;
  region: string;
  /** Client configuration for the raw SDK (test setup) and the adapter alike. */
  clientConfig: ReturnType<typeof motoClientConfig>;
  /** Creates the contract network in moto with the raw EC2 SDK (test setup, not the port under test). */
  network(): Promise<ContractNetwork>;
}

async function createContractNetwork(clientConfig: ReturnType<typeof motoClientConfig>, region: string): Promise<ContractNetwork> {
  const ec2 = new EC2Client(clientConfig);
  const network = await createMotoNetwork(ec2, region, 'contract');
  const instanceIds: string[] = [];
  for (const index of [0, 1]) instanceIds.push((await runMotoInstance(ec2, network, 'contract', index)).InstanceId ?? '');
  const other = (await ec2.send(new CreateSecurityGroupCommand({ GroupName: 'other', Description: 'other', VpcId: network.vpcId }))).GroupId ?? '';
  return { vpcId: network.vpcId, subnetIds: network.subnetIds, routeTableId: network.routeTableId, securityGroupIds: [network.nodeSecurityGroupId, other], instanceIds };
}

/** A contract side over a fresh moto_server; `build` makes the world (setup and the adapter under test). */
export function motoContractSide<World>(build: (context: MotoContractContext) => Promise<World>): AwsContractSide<World> {
  let moto: RunningMoto | undefined;
  return {
    target: 'moto',
    start: async () => {
      moto = await startMoto();
      const clientConfig = motoClientConfig(moto.endpoint, CONTRACT_REGION);
      return build({ endpoint: moto.endpoint, region: CONTRACT_REGION, clientConfig, network: () => createContractNetwork(clientConfig, CONTRACT_REGION) });
    },
    cleanup: async () => {
      await moto?.stop();
    },
  };
}
