/** Runs the selected scenarios: our row at the target size, then the upstream reference row. */
import type { BenchArguments, ScenarioName } from './bench-arguments.js';
import type { BenchProvider } from './bench-cloud.js';
import { scaleRow, type MetricDefinition, type RowResult, type ScenarioResult } from './bench-results.js';
import { OUR_POLICY, UPSTREAM_POLICY, type CcmPolicy } from './ccm-policies.js';
import { NODE_STORM_METRICS, runNodeStorm } from './scenarios/node-storm.js';
import { runPlainClientNodeStorm } from './scenarios/plain-client-node-storm.js';
import { runServiceStorm, SERVICE_STORM_METRICS } from './scenarios/service-storm.js';
import { runSteadyState, STEADY_STATE_METRICS } from './scenarios/steady-state.js';

/** The scenarios' defaults (the targets of the scale work item). */
export const SCENARIO_DEFAULTS = {
  'node-storm': { nodes: 5_000, latencyMs: 100, rate: 20, referenceNodes: 100 },
  /** Against a provider's simulator: its own latency, no rate limit. */
  'provider-node-storm': { nodes: 1_000, referenceNodes: 100 },
  'service-storm': { services: 1_000, nodes: 100, latencyMs: 100, rate: undefined, referenceServices: 100 },
  'steady-state': { nodes: 5_000, latencyMs: 100, rate: undefined, referenceNodes: 100, periodSeconds: 20 },
} as const;

/** Without a cloud rate limit the budget is generous: it then only guards against runaway loops. */
export const UNLIMITED_CLOUD_API_QPS = 1_000;

export type Progress = (line: string) => void;

type RowRunner = (policy: CcmPolicy, size: number) => Promise<Omit<RowResult, 'values' | 'extrapolated' | 'reportedSize'>>;

export async function runBench(options: BenchArguments, progress: Progress = () => {}): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of options.scenarios) results.push(await runScenario(scenario, options, progress));
  return results;
}

async function runScenario(scenario: ScenarioName, options: BenchArguments, progress: Progress): Promise<ScenarioResult> {
  const timeoutMs = options.timeoutSeconds * 1000;
  switch (scenario) {
    case 'node-storm': {
      if (options.provider !== 'sandbox') return runProviderNodeStorm(options.provider, options, progress);
      const defaults = SCENARIO_DEFAULTS['node-storm'];
      const nodes = options.nodes ?? defaults.nodes;
      const latencyMs = options.latencyMs ?? defaults.latencyMs;
      const rate = options.rate ?? defaults.rate;
      const apiQps = options.apiQps ?? apiQpsFor(rate);
      const referenceNodes = Math.min(nodes, options.referenceNodes ?? defaults.referenceNodes);
      return runRows(
        scenario,
        'nodes',
        { nodes, latencyMs, rate, apiQps, referenceNodes },
        NODE_STORM_METRICS,
        nodes,
        referenceNodes,
        (policy, size) => runNodeStorm(policy, { provider: 'sandbox', nodes: size, latencyMs, rate, apiQps, timeoutMs, kubeApi: options.kubeApi }),
        options,
        progress,
        nodes === defaults.nodes && latencyMs === defaults.latencyMs && rate === defaults.rate,
        // On the real kube-apiserver: the server's own pace for the same writes, at full size.
        options.kubeApi === 'real'
          ? () => runPlainClientNodeStorm(OUR_POLICY, { provider: 'sandbox', nodes, latencyMs, rate, apiQps, timeoutMs, kubeApi: options.kubeApi })
          : undefined,
      );
    }
    case 'service-storm': {
      const defaults = SCENARIO_DEFAULTS['service-storm'];
      const services = options.services ?? defaults.services;
      const nodes = options.nodes ?? defaults.nodes;
      const latencyMs = options.latencyMs ?? defaults.latencyMs;
      const rate = options.rate ?? defaults.rate;
      const apiQps = options.apiQps ?? apiQpsFor(rate);
      const referenceServices = Math.min(services, options.referenceServices ?? defaults.referenceServices);
      return runRows(
        scenario,
        'services',
        { services, nodes, latencyMs, rate, apiQps, referenceServices },
        SERVICE_STORM_METRICS,
        services,
        referenceServices,
        (policy, size) => runServiceStorm(policy, { services: size, nodes, latencyMs, rate, apiQps, timeoutMs }),
        options,
        progress,
        services === defaults.services && nodes === defaults.nodes && latencyMs === defaults.latencyMs && rate === defaults.rate,
      );
    }
    case 'steady-state': {
      const defaults = SCENARIO_DEFAULTS['steady-state'];
      const nodes = options.nodes ?? defaults.nodes;
      const latencyMs = options.latencyMs ?? defaults.latencyMs;
      const rate = options.rate ?? defaults.rate;
      const apiQps = options.apiQps ?? apiQpsFor(rate);
      const periodSeconds = options.periodSeconds ?? defaults.periodSeconds;
      const referenceNodes = Math.min(nodes, options.referenceNodes ?? defaults.referenceNodes);
      return runRows(
        scenario,
        'nodes',
        { nodes, latencyMs, rate, apiQps, periodSeconds, referenceNodes },
        STEADY_STATE_METRICS,
        nodes,
        referenceNodes,
        (policy, size) => runSteadyState(policy, { nodes: size, latencyMs, rate, apiQps, periodSeconds, timeoutMs, kubeApi: options.kubeApi }),
        options,
        progress,
        nodes === defaults.nodes && latencyMs === defaults.latencyMs && rate === defaults.rate,
      );
    }
  }
}

/** node-storm against a provider's simulator through its conformance driver, behind a counting proxy. */
function runProviderNodeStorm(provider: Exclude<BenchProvider, 'sandbox'>, options: BenchArguments, progress: Progress): Promise<ScenarioResult> {
  const defaults = SCENARIO_DEFAULTS['provider-node-storm'];
  const nodes = options.nodes ?? defaults.nodes;
  const apiQps = options.apiQps ?? UNLIMITED_CLOUD_API_QPS;
  const referenceNodes = Math.min(nodes, options.referenceNodes ?? defaults.referenceNodes);
  return runRows(
    'node-storm',
    'nodes',
    { provider, nodes, referenceNodes },
    NODE_STORM_METRICS,
    nodes,
    referenceNodes,
    (policy, size) => runNodeStorm(policy, { provider, nodes: size, latencyMs: 0, rate: undefined, apiQps, timeoutMs: options.timeoutSeconds * 1000, kubeApi: options.kubeApi }),
    options,
    progress,
    false,
  );
}

/** The budget an operator would configure: the cloud's documented rate, or generous without one. */
function apiQpsFor(rate: number | undefined): number {
  return rate !== undefined && rate > 0 ? rate : UNLIMITED_CLOUD_API_QPS;
}

async function runRows(
  scenario: ScenarioName,
  sizeUnit: 'nodes' | 'services',
  parameters: Record<string, number | string | undefined>,
  metrics: MetricDefinition[],
  size: number,
  referenceSize: number,
  run: RowRunner,
  options: BenchArguments,
  progress: Progress,
  atTarget: boolean,
  baseline?: () => Promise<Omit<RowResult, 'values' | 'extrapolated' | 'reportedSize'>>,
): Promise<ScenarioResult> {
  const rows: RowResult[] = [];
  progress(`${scenario}: our policy, ${size} ${sizeUnit} ...`);
  rows.push(scaleRow(await run(OUR_POLICY, size), metrics, size));
  if (options.reference) {
    progress(`${scenario}: upstream default policy, ${referenceSize} ${sizeUnit}${referenceSize === size ? '' : ` (extrapolated to ${size})`} ...`);
    rows.push(scaleRow(await run(UPSTREAM_POLICY, referenceSize), metrics, size));
  }
  if (baseline !== undefined) {
    progress(`${scenario}: plain-client baseline (no CCM: the same writes at the API server's pace), ${size} ${sizeUnit} ...`);
    rows.push(scaleRow(await baseline(), metrics, size));
  }
  return { scenario, sizeUnit, parameters, metrics, rows, atTarget };
}
