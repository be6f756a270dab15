import { afterEach, beforeEach } from 'vitest';
import type { ContractFixture, ContractSetup } from './contract-fixture.js';

/** Registers before/after hooks that build a fresh fixture per test; returns a getter. */
export function useContractFixture(setup: ContractSetup): () => ContractFixture {
  let fixture: ContractFixture | undefined;
  beforeEach(async () => {
    fixture = await setup();
  });
  afterEach(async () => {
    const current = fixture;
    fixture = undefined;
    await current?.cleanup?.();
  });
  return () => {
    if (fixture === undefined) throw new Error('the contract fixture is only available inside a test');
    return fixture;
  };
}
