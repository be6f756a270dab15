/**
 * steady-state: N initialized nodes whose addresses already match the cloud. The node
 * controller refreshes every node's addresses once per `--node-status-update-frequency`; we
 * count the cloud calls (and kube writes) of one such refresh, after the start-up refresh.
 */
import type { ScenarioName } from '../bench-arguments.js';
import { BenchEnvironment } from '../bench-environment.js';
import type { BenchKubeApiKind } from '../bench-kube-api.js';
import { initializedNode } from '../bench-objects.js';
import type { MetricDefinition, RowResult } from '../bench-results.js';
import type { CcmPolicy } from '../ccm-policies.js';
import { waitFor } from '../../harness/wait-for.js';
import { waitForQuiet } from './quiet.js';

export const STEADY_STATE: ScenarioName = 'steady-state';

export const STEADY_STATE_METRICS: MetricDefinition[] = [
  { key: 'cloudCallsPerPeriod', label: 'cloud API calls per refresh period', unit: 'count', scaling: 'linear', target: 100 },
  { key: 'refreshSeconds', label: 'refresh pass duration (s)', unit: 'seconds', scaling: 'linear' },
  { key: 'kubeWritesPerPeriod', label: 'kube API writes per period', unit: 'count', scaling: 'linear' },
  { key: 'ccmPeakRssMegabytes', label: 'CCM peak RSS (MB)', unit: 'megabytes', scaling: 'constant' },
  { key: 'ccmCpuSecondsPerPeriod', label: 'CCM CPU time per refresh (s, user + system)', unit: 'seconds', scaling: 'linear' },
];

export interface SteadyStateParameters {
  nodes: number;
  latencyMs: number;
  rate: number | undefined;
  apiQps: number;
  periodSeconds: number;
  timeoutMs: number;
  /** The Kubernetes API server (default: the emulator). */
  kubeApi?: BenchKubeApiKind;
}

export async function runSteadyState(policy: CcmPolicy, parameters: SteadyStateParameters): Promise<Omit<RowResult, 'values' | 'extrapolated' | 'reportedSize'>> {
  const environment = await BenchEnvironment.start({ latencyMs: parameters.latencyMs, rate: parameters.rate, apiQps: parameters.apiQps, kubeApi: parameters.kubeApi ?? 'emulator' });
  try {
    const instances = environment.cloud.createSandboxInstances(parameters.nodes);
    await environment.kube.createNodes(instances.map((instance) => initializedNode(instance)), () => {});
    const ccm = await environment.startCcm(policy, { nodeStatusUpdateFrequencySeconds: parameters.periodSeconds });
    // The first refresh runs at start-up; wait for it to begin and finish, then count the next one.
    await waitFor('the start-up refresh to begin', async () => (await environment.cloudCalls()).calls > 0, parameters.timeoutMs, { intervalMs: 50, abortIf: ccm.exitedReport });
    await waitForQuiet(environment, ccm, parameters.timeoutMs);
    await environment.resetCounters();
    const cpuBefore = await ccm.cpuSeconds();
    let firstCallAt = 0;
    await waitFor(
      'the next refresh to begin',
      async () => {
        ccm.assertRunning();
        return (await environment.cloudCalls()).calls > 0;
      },
      parameters.periodSeconds * 1000 + parameters.timeoutMs,
      { intervalMs: 10, abortIf: ccm.exitedReport },
    );
    firstCallAt = performance.now();
    const lastActivityAt = await waitForQuiet(environment, ccm, parameters.timeoutMs);
    const calls = await environment.cloudCalls();
    const kube = environment.kube.requestCounts();
    const peakRss = await ccm.peakRssBytes();
    const cpuAfter = await ccm.cpuSeconds();
    return {
      scenario: STEADY_STATE,
      policy: policy.name,
      label: policy.label,
      measuredSize: parameters.nodes,
      measured: {
        cloudCallsPerPeriod: calls.calls,
        // From the first to the last call seen (sampled every 100 ms).
        refreshSeconds: Math.max(0, (lastActivityAt - firstCallAt) / 1000),
        kubeWritesPerPeriod: kube.writes,
        ccmPeakRssMegabytes: peakRss === undefined ? undefined : peakRss / 1024 / 1024,
        // From the end of the start-up refresh to the end of the next: the idle wait and one refresh.
        ccmCpuSecondsPerPeriod: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
      },
      notes: [`Kubernetes API: ${environment.kube.kind === 'real' ? 'the real kube-apiserver' : '@ccm/kube-emulator'}`, `cloud calls by operation: ${JSON.stringify(calls.byOperation)}`, `period: --node-status-update-frequency=${parameters.periodSeconds}s`],
    };
  } finally {
    await environment.close();
  }
}
