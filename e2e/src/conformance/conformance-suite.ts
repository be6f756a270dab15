import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedKubeRequest } from '../harness/kube-api-proxy.js';
import { selectKubeApi, type KubeApiKind } from '../harness/kube-api-selection.js';
import { RbacUsageCollector } from '../harness/rbac-usage.js';
import { realKubeApiServerUnavailableReason } from '../harness/real-kube-api-server.js';
import type { ProviderDriver } from './provider-driver.js';
import { parsePrometheusText, type PrometheusFamily } from '../harness/prometheus-text.js';
import { buildInfoProblems, upstreamSeriesReport } from './metric-series-check.js';
import { justifiedUnusedRules } from './rbac-justifications.js';
import { GROUP_HOOK_TIMEOUT_MS, type SuiteSettings } from './scenario-context.js';
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

export interface ConformanceOptions {
  /** Force one API server; default: as CCM_KUBE_API and CI select it. */
  kubeApi?: KubeApiKind;
  /** Real server: receives every request of the CCM and the harness (emulator replay test). */
  recordRequests?: (requests: RecordedKubeRequest[]) => void;
}

async function chooseKubeApi(forced: KubeApiKind | undefined): Promise<{ kind: KubeApiKind } | { kind: 'unavailable'; reason: string }> {
  if (forced === 'emulator') return { kind: 'emulator' };
  if (forced === 'real') {
    const reason = await realKubeApiServerUnavailableReason();
    return reason === undefined ? { kind: 'real' } : { kind: 'unavailable', reason: `the real kube-apiserver is needed but ${reason}` };
  }
  const selection = await selectKubeApi();
  return selection.kind === 'unavailable' ? selection : { kind: selection.kind };
}

/**
 * Registers the conformance suite for one provider: the same scenarios for every cloud, run
 * against the provider's CCM as a child process and a Kubernetes API server: the real
 * kube-apiserver (the CCM under its own ServiceAccount with the manifests' RBAC) or
 * @ccm/kube-emulator. Call it at the top level of a test file: `await describeConformance(driver)`.
 */
export async function describeConformance(driver: ProviderDriver, options: ConformanceOptions = {}): Promise<void> {
  const kubeApi = await chooseKubeApi(options.kubeApi);
  const cloudReason = await driver.unavailableReason();
  const reason = kubeApi.kind === 'unavailable' ? [cloudReason, kubeApi.reason].filter(Boolean).join('; ') : cloudReason;
  const decision = decideWhenUnavailable(driver, reason === '' ? undefined : reason);
  const title = `conformance: ${driver.name}${kubeApi.kind === 'unavailable' ? '' : ` (${kubeApi.kind === 'real' ? 'real kube-apiserver' : 'kube-emulator'})`}`;
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
  const real = kubeApi.kind === 'real';
  const rbacUsage = real ? new RbacUsageCollector() : undefined;
  const scrapes: Array<{ group: string; status: number; body: string }> = [];
  const suite: SuiteSettings = {
    recordMetrics: (scrape) => scrapes.push(scrape),
    kubeApi: kubeApi.kind === 'real' ? 'real' : 'emulator',
    manifestsOverlay: driver.manifestsOverlay ?? driver.name,
    ...(rbacUsage ? { rbacUsage } : {}),
    ...(real && options.recordRequests ? { recordRequests: options.recordRequests } : {}),
  };
  describe(title, () => {
    beforeAll(() => driver.start(), GROUP_HOOK_TIMEOUT_MS);
    afterAll(() => driver.stop(), GROUP_HOOK_TIMEOUT_MS);
    for (const group of plan.included) group.register(driver, suite);
    if (rbacUsage !== undefined) registerRbacChecks(driver, suite.manifestsOverlay, rbacUsage);
    registerMetricSeriesChecks(driver, scrapes);
  });
}

/**
 * After every group ran: the `/metrics` of each group's CCM, scraped after its cleanup, holds
 * `kubernetes_build_info` and every upstream series of the provider with upstream's type, help
 * and label names (metric-series-check.ts). No new CCM: the scrapes are the groups' own CCMs'.
 */
function registerMetricSeriesChecks(driver: ProviderDriver, scrapes: ReadonlyArray<{ group: string; status: number; body: string }>): void {
  const upstream = driver.upstreamMetrics;
  const title = upstream === undefined ? 'kubernetes_build_info' : `kubernetes_build_info and the upstream ${driver.name} CCM's ${upstream.series.length} cloud API series`;
  it(`/metrics of the CCMs that ran the scenarios exports ${title}, with upstream's label names`, () => {
    expect(scrapes.length, 'no group scraped its CCM').toBeGreaterThan(0);
    expect(scrapes.filter((scrape) => scrape.status !== 200).map((scrape) => `${scrape.group}: ${scrape.status}`)).toEqual([]);
    const parsed: Array<ReadonlyMap<string, PrometheusFamily>> = scrapes.map((scrape) => parsePrometheusText(scrape.body));
    expect(parsed.flatMap((families, index) => buildInfoProblems(families).map((problem) => `${scrapes[index]!.group}: ${problem}`))).toEqual([]);
    if (upstream === undefined) return;
    const report = upstreamSeriesReport(parsed, upstream);
    console.info(`[conformance: ${driver.name}] upstream series checked in ${scrapes.length} scrapes; declared without samples (no call upstream counts there happened): ${report.withoutSamples.join(', ') || 'none'}`);
    expect(report.problems).toEqual([]);
  });
}

/**
 * After every group ran on the real server: the CCM, under its ServiceAccount, got no 403, and
 * every rule of its RBAC was used by some request or is justified in docs/rbac.md.
 */
function registerRbacChecks(driver: ProviderDriver, overlay: string, rbacUsage: RbacUsageCollector): void {
  describe(`RBAC of manifests/${overlay} (audit log of the real kube-apiserver)`, () => {
    it('the CCM, under its own ServiceAccount, got 0 forbidden (403) answers during the whole suite', () => {
      const usage = rbacUsage.result();
      expect(usage, 'no scenario group reported its audit log').toBeDefined();
      expect(usage!.requests, 'the audit log recorded no request of the CCM').toBeGreaterThan(0);
      const forbidden = usage!.forbidden.map((event) => `${event.verb} ${event.requestURI}`);
      console.info(`[conformance: ${driver.name}] RBAC: ${usage!.requests} audited CCM requests, ${forbidden.length} forbidden`);
      expect(forbidden).toEqual([]);
    });

    it('every rule the CCM is granted was used by a request, or docs/rbac.md says why it stays', () => {
      const usage = rbacUsage.result();
      expect(usage).toBeDefined();
      const justified = justifiedUnusedRules();
      if (usage!.unused.length > 0) console.info(`[conformance: ${driver.name}] RBAC rules no request used:\n  ${usage!.unused.join('\n  ')}`);
      const unjustified = usage!.unused.filter((rule) => !justified.has(rule));
      expect(unjustified, 'unused RBAC rules: remove them from manifests/ or justify them in docs/rbac.md ("Rules the conformance suite does not use")').toEqual([]);
    });
  });
}
