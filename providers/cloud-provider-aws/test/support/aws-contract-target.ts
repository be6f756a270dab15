/**
 * What the AWS port contracts (ec2-, elb-, elbv2-port-contract.ts) share: the two targets they run
 * on, the registration of a target's start and cleanup, and the assertion of a refusal.
 *
 * The contracts hold the fakes of the unit tests (test/fakes/) to the cloud for tests, moto 5.2.1,
 * through the production SDK adapters (issue 23 point 4): a fake may not accept what moto refuses.
 * Where moto itself differs from AWS, the case is a known moto gap: named `known moto gap: ...`,
 * asserting AWS's answer on the fake and moto's on moto (docs/testing.md lists them).
 */
import { afterAll, beforeAll, expect } from 'vitest';

/** `fake`: the in-memory fake; `moto`: the SDK adapter against moto_server. */
export type AwsContractTarget = 'fake' | 'moto';

/** One side of a contract: how to start it (the port and what stands behind it) and stop it. */
export interface AwsContractSide<World> {
  target: AwsContractTarget;
  start(): Promise<World>;
  cleanup(): Promise<void>;
}

/**
 * The network every side builds for the contracts: a VPC with two subnets (zones a and b), a route
 * table, two security groups (`nodes`, `other`) and a running instance in each subnet.
 */
export interface ContractNetwork {
  vpcId: string;
  subnetIds: readonly string[];
  routeTableId: string;
  securityGroupIds: readonly string[];
  instanceIds: readonly string[];
}

/** Starts the side before the contract's tests and stops it after; the returned function gives the started world. */
export function useContractSide<World>(side: AwsContractSide<World>, startTimeoutMs = 120_000): () => World {
  let world: World | undefined;
  beforeAll(async () => {
    world = await side.start();
  }, startTimeoutMs);
  afterAll(async () => {
    await side.cleanup();
  });
  return () => {
    if (world === undefined) throw new Error(`the ${side.target} side of the contract did not start (see the hook error)`);
    return world;
  };
}

/** The call fails with an AwsApiError of this AWS error code (and, when given, this kind). */
export async function expectRefusal(call: Promise<unknown>, code: string | RegExp, kind?: string): Promise<void> {
  const error: unknown = await call.then(
    (value) => {
      throw new Error(`expected a refusal ${String(code)}, but the call succeeded with ${JSON.stringify(value)}`);
    },
    (failure: unknown) => failure,
  );
  expect(error).toMatchObject({ name: 'AwsApiError', code: typeof code === 'string' ? code : expect.stringMatching(code), ...(kind === undefined ? {} : { kind }) });
}

/** A name of `length` characters, unique per call: contract resources never collide between cases. */
export function contractName(prefix: string, serial: number, length?: number): string {
  const name = `${prefix}-${serial}`;
  return length === undefined ? name : `${name}${'x'.repeat(Math.max(0, length - name.length))}`;
}
