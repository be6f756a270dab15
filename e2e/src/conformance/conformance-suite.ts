import { afterAll, beforeAll, describe, it } from 'vitest';
import type { ProviderDriver } from './provider-driver.js';
import { GROUP_HOOK_TIMEOUT_MS } from './scenario-context.js';
import { planScenarios } from './scenario-plan.js';

/** What the suite does when the driver cannot run here: fail under CI, skip loudly elsewhere. */
export type UnavailableDecision = { kind: 'run' } | { kind: 'fail'; message: string } | { kind: 'skip'; warning: string };

export function decideWhenUnavailable(
  driver: Pick<ProviderDriver, 'name' | 'installHint'>,
  reason: string | undefined,
  environment: Record<string, string | undefined> = process.env,
): UnavailableDecision {
  if (reason === undefined) return { kind: 'run' };
  const hint = driver.installHint ?? 'see e2e/README.md, section "Simulators and CI"';
  if (environment['CI'] === 'true') {
    return { kind: 'fail', message: `the ${driver.name} conformance suite cannot run under CI: ${reason}. To install: ${hint}` };
  }
  const bar = '!'.repeat(78);
  return {
    kind: 'skip',
    warning: `${bar}\nSKIPPING the ${driver.name} conformance suite: ${reason}\nTo run it: ${hint}\n(Under CI=true this is a failure.)\n${bar}`,
  };
}

/**
 * Registers the conformance suite for one provider: the same scenarios for every cloud, run
 * against the provider's CCM as a child process and @ccm/kube-emulator over HTTP.
 * Call it at the top level of a test file: `await describeConformance(driver)`.
 */
export async function describeConformance(driver: ProviderDriver): Promise<void> {
  const decision = decideWhenUnavailable(driver, await driver.unavailableReason());
  const title = `conformance: ${driver.name}`;
  if (decision.kind === 'fail') {
    describe(title, () => {
      it('has its cloud (or simulator) available', () => {
        throw new Error(decision.message);
      });
    });
    return;
  }
  if (decision.kind === 'skip') {
    console.warn(decision.warning);
    describe(title, () => {
      it.skip(`needs its cloud (or simulator): ${decision.warning.split('\n')[1] ?? ''}`, () => undefined);
    });
    return;
  }

  const plan = planScenarios(driver.capabilities);
  for (const { group, reason } of plan.omitted) {
    console.info(`[conformance: ${driver.name}] scenario group "${group.name}" is not registered: ${reason}`);
  }
  describe(title, () => {
    beforeAll(() => driver.start(), GROUP_HOOK_TIMEOUT_MS);
    afterAll(() => driver.stop(), GROUP_HOOK_TIMEOUT_MS);
    for (const group of plan.included) group.register(driver);
  });
}
