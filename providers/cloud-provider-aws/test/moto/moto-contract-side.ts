/**
 * The moto side of the AWS port contracts (test/support/*-port-contract.ts): one moto_server per
 * contract file, the production SDK adapter built by the caller over it.
 */
import type { AwsContractSide } from '../support/aws-contract-target.js';
import { motoClientConfig } from './moto-network.js';
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
}

/** A contract side over a fresh moto_server; `build` makes the world (setup and the adapter under test). */
export function motoContractSide<World>(build: (context: MotoContractContext) => Promise<World>): AwsContractSide<World> {
  let moto: RunningMoto | undefined;
  return {
    target: 'moto',
    start: async () => {
      moto = await startMoto();
      return build({ endpoint: moto.endpoint, region: CONTRACT_REGION, clientConfig: motoClientConfig(moto.endpoint, CONTRACT_REGION) });
    },
    cleanup: async () => {
      await moto?.stop();
    },
  };
}
