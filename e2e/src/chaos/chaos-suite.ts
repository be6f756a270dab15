import { describe, expect, it } from 'vitest';
import { selectKubeApi } from '../harness/kube-api-selection.js';
import { TestCluster } from '../harness/test-cluster.js';
import { decideWhenUnavailable } from '../conformance/conformance-suite.js';
import type { ProviderDriver } from '../conformance/provider-driver.js';
import { formatFigures } from './chaos-figures.js';
import { ChaosRun, type ChaosSettings } from './chaos-run.js';

/** `CCM_CHAOS_SEED` replays a run; otherwise the provider's recorded seed (docs/reliability.md). */
export function chaosSeed(defaultSeed: number, environment: Record<string, string | undefined> = process.env): number {
  const text = environment['CCM_CHAOS_SEED'];
  if (text === undefined || text === '') return defaultSeed;
  const seed = Number(text);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`CCM_CHAOS_SEED must be a non-negative integer, got ${JSON.stringify(text)}`);
  return seed;
}

/**
 * Registers the chaos run of one provider: it fails under CI and skips loudly elsewhere when the
 * provider's simulator (or any API server) cannot run here, as the conformance suites do.
 */
export async function describeChaos(driver: ProviderDriver, settings: ChaosSettings, timeoutMs: number): Promise<void> {
  const selection = await selectKubeApi();
  const cloudReason = await driver.unavailableReason();
  const reason = [cloudReason, selection.kind === 'unavailable' ? selection.reason : undefined].filter(Boolean).join('; ');
  const decision = decideWhenUnavailable(driver, reason === '' ? undefined : reason);
  const title = `chaos: ${driver.name}${selection.kind === 'unavailable' ? '' : ` (${selection.kind === 'real' ? 'real kube-apiserver' : 'kube-emulator'})`}`;
  if (decision.kind === 'fail') {
    describe(title, () => {
      it('has its cloud (or simulator) and an API server available', () => {
        throw new Error(decision.message.replace('conformance suite', 'chaos run'));
      });
    });
    return;
  }
  if (decision.kind === 'skip') {
    console.warn(decision.warning.replace('conformance suite', 'chaos run'));
    describe(title, () => {
      it.skip(`needs its cloud (or simulator): ${decision.warning.split('\n')[1] ?? ''}`, () => undefined);
    });
    return;
  }
  const kubeApi = selection.kind === 'real' ? 'real' : 'emulator';
  describe(title, () => {
    it(`converges and loses nothing (seed ${settings.seed}, ${settings.nodes} nodes, ${settings.services} services)`, { timeout: timeoutMs }, async () => {
      await driver.start();
      let cluster: TestCluster | undefined;
      let run: ChaosRun | undefined;
      try {
        cluster = await TestCluster.start({ kubeApi, manifestsOverlay: driver.manifestsOverlay ?? driver.name });
        run = new ChaosRun(driver, cluster, settings);
        const { figures, violations } = await run.run();
        console.info(formatFigures(figures));
        const open = Object.fromEntries(Object.entries(violations).filter(([, list]) => list.length > 0));
        if (Object.keys(open).length > 0) console.error(`chaos ${driver.name}: what happened last:\n${run.log()}\n${cluster.report(80)}`);
        expect(open, 'invariants broken after convergence').toEqual({});
        expect(figures.leaderKills, 'leader kills').toBeGreaterThanOrEqual(Math.min(settings.leaderKills, 3));
        expect(figures.kubeFaults.unreachable, 'the API server was unreachable once').toBe(1);
        expect(figures.kubeFaults.watchCut, 'watches were cut').toBeGreaterThan(0);
        expect(Object.values(figures.cloudFaults).reduce((sum, count) => sum + count, 0), 'cloud faults injected').toBeGreaterThan(0);
      } finally {
        await cluster?.close();
        await driver.stop();
      }
    });
  });
}
