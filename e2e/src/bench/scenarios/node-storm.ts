/**
 * node-storm: N kubelets register their Nodes at once, each with the uninitialized taint and a
 * matching cloud instance, on the sandbox cloud or on a provider's simulator (`--provider`).
 * Measured from the moment the Nodes are created until every taint is gone.
 */
import type { ScenarioName } from '../bench-arguments.js';
import type { BenchInstance, BenchProvider } from '../bench-cloud.js';
import { BenchEnvironment } from '../bench-environment.js';
import type { BenchKubeApiKind } from '../bench-kube-api.js';
import { hasUninitializedTaint, uninitializedNode } from '../bench-objects.js';
import { percentile, type MetricDefinition, type RowResult } from '../bench-results.js';
import type { CcmPolicy } from '../ccm-policies.js';
import { waitFor } from '../../harness/wait-for.js';
import { waitForQuiet } from './quiet.js';

export const NODE_STORM: ScenarioName = 'node-storm';

export const NODE_STORM_METRICS: MetricDefinition[] = [
  { key: 'allInitializedSeconds', label: 'all nodes initialized (s)', unit: 'seconds', scaling: 'linear', target: 30 },
  { key: 'taintRemovalP50Seconds', label: 'taint removal delay p50 (s)', unit: 'seconds', scaling: 'linear' },
  { key: 'taintRemovalP99Seconds', label: 'taint removal delay p99 (s)', unit: 'seconds', scaling: 'linear' },
  { key: 'cloudCalls', label: 'cloud API calls', unit: 'count', scaling: 'linear', target: 200 },
  { key: 'cloudCallsPer1000Nodes', label: 'cloud API calls per 1,000 new nodes', unit: 'count', scaling: 'normalized' },
  { key: 'throttledCalls', label: 'throttled cloud calls', unit: 'count', scaling: 'linear' },
  { key: 'kubeWrites', label: 'kube API writes', unit: 'count', scaling: 'linear' },
  { key: 'ccmPeakRssMegabytes', label: 'CCM peak RSS (MB)', unit: 'megabytes', scaling: 'constant', target: 300 },
  { key: 'ccmMemoryPerNodeKilobytes', label: 'CCM memory per node (KB, peak RSS growth / nodes)', unit: 'kilobytes', scaling: 'normalized' },
  { key: 'ccmCpuSeconds', label: 'CCM CPU time (s, user + system)', unit: 'seconds', scaling: 'linear' },
];

export interface NodeStormParameters {
  provider: BenchProvider;
  nodes: number;
  latencyMs: number;
  rate: number | undefined;
  apiQps: number;
  timeoutMs: number;
  /** The Kubernetes API server (default: the emulator). */
  kubeApi?: BenchKubeApiKind;
}

export async function runNodeStorm(policy: CcmPolicy, parameters: NodeStormParameters): Promise<Omit<RowResult, 'values' | 'extrapolated' | 'reportedSize'>> {
  const environment = await BenchEnvironment.startFor(parameters.provider, {
    latencyMs: parameters.latencyMs,
    rate: parameters.rate,
    apiQps: parameters.apiQps,
    kubeApi: parameters.kubeApi ?? 'emulator',
  });
  try {
    const instances = await environment.cloud.createInstances(parameters.nodes);
    const ccm = await environment.startCcm(policy);
    await environment.resetCounters();
    const rssBefore = await ccm.rssBytes();
    const cpuBefore = await ccm.cpuSeconds();
    const benchCpuBefore = process.cpuUsage();

    const { allInitializedSeconds, delays } = await measureNodeStorm(environment, instances, parameters, {
      check: () => ccm.assertRunning(),
      describeContext: () => ccm.process.report(30),
      abortIf: ccm.exitedReport,
    });
    // The address patches and Synced events follow the taint removal: count them too.
    await waitForQuiet(environment, ccm, parameters.timeoutMs);
    const calls = await environment.cloudCalls();
    const kube = environment.kube.requestCounts();
    const peakRss = await ccm.peakRssBytes();
    const cpuAfter = await ccm.cpuSeconds();
    const benchCpu = process.cpuUsage(benchCpuBefore);
    return {
      scenario: NODE_STORM,
      policy: policy.name,
      label: policy.label,
      measuredSize: parameters.nodes,
      measured: {
        allInitializedSeconds,
        taintRemovalP50Seconds: percentile(delays, 50),
        taintRemovalP99Seconds: percentile(delays, 99),
        cloudCalls: calls.calls,
        cloudCallsPer1000Nodes: (calls.calls / parameters.nodes) * 1000,
        throttledCalls: calls.throttled,
        kubeWrites: kube.writes,
        ccmPeakRssMegabytes: peakRss === undefined ? undefined : peakRss / 1024 / 1024,
        ccmMemoryPerNodeKilobytes: memoryPerNodeKilobytes(rssBefore, peakRss, parameters.nodes),
        ccmCpuSeconds: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
      },
      notes: [
        `Kubernetes API: ${environment.kube.kind === 'real' ? 'the real kube-apiserver' : '@ccm/kube-emulator'}`,
        `CCM RSS before the storm: ${rssBefore === undefined ? 'n/a' : `${(rssBefore / 1024 / 1024).toFixed(0)} MB`}; the benchmark process (${environment.kube.kind === 'real' ? 'counting proxy' : 'kube API emulator'}, kubelets, cloud) used ${((benchCpu.user + benchCpu.system) / 1e6).toFixed(1)} s of CPU`,
        `cloud calls by operation: ${JSON.stringify(calls.byOperation)}`,
        `kube writes by verb: ${JSON.stringify(writesByResource(kube.byResource))}`,
      ],
    };
  } finally {
    await environment.close();
  }
}

/** Who initializes the nodes of a storm: the CCM, or the plain-client baseline. */
export interface StormInitializer {
  /** Throws when the initializer has failed (the CCM exited). */
  check(): void;
  describeContext(): string;
  abortIf(): string | undefined;
}

/**
 * Registers a Node per instance as kubelets do, all at once, and waits until every one has lost
 * the uninitialized taint: the seconds from the first registration to the last taint removal,
 * and each node's delay from its registration to its taint removal.
 */
export async function measureNodeStorm(
  environment: BenchEnvironment,
  instances: readonly BenchInstance[],
  parameters: Pick<NodeStormParameters, 'nodes' | 'timeoutMs'>,
  initializer: StormInitializer,
): Promise<{ allInitializedSeconds: number; delays: number[] }> {
  const createdAt = new Map<string, number>();
  const delays: number[] = [];
  let initialized = 0;
  const unsubscribe = await environment.kube.watchNodes((change) => {
    if (change.type !== 'MODIFIED') return;
    const name = (change.object.metadata as { name?: string } | undefined)?.name ?? '';
    const started = createdAt.get(name);
    if (started === undefined || hasUninitializedTaint(change.object as never)) return;
    createdAt.delete(name);
    delays.push((performance.now() - started) / 1000);
    initialized++;
  });
  const started = performance.now();
  try {
    await environment.kube.createNodes(
      instances.map((instance) => uninitializedNode(instance)),
      (name) => createdAt.set(name, performance.now()),
    );
    await waitFor(
      `all ${parameters.nodes} nodes to lose the uninitialized taint`,
      (observe) => {
        initializer.check();
        observe(`${initialized}/${parameters.nodes} initialized`);
        return initialized >= parameters.nodes;
      },
      parameters.timeoutMs,
      { intervalMs: 20, describeContext: () => initializer.describeContext(), abortIf: () => initializer.abortIf() },
    );
  } finally {
    unsubscribe();
  }
  return { allInitializedSeconds: (performance.now() - started) / 1000, delays };
}

/** How much the CCM's resident memory grew per node from before the storm to its peak, in KB. */
export function memoryPerNodeKilobytes(rssBeforeBytes: number | undefined, peakRssBytes: number | undefined, nodes: number): number | undefined {
  if (rssBeforeBytes === undefined || peakRssBytes === undefined || nodes <= 0) return undefined;
  return Math.max(0, peakRssBytes - rssBeforeBytes) / 1024 / nodes;
}

/** `nodes: {update: 5000}` etc., writes only. */
export function writesByResource(byResource: Record<string, Record<string, number>>): Record<string, Record<string, number>> {
  const writes: Record<string, Record<string, number>> = {};
  for (const [resource, verbs] of Object.entries(byResource)) {
    for (const [verb, count] of Object.entries(verbs)) {
      if (!['create', 'update', 'patch', 'delete', 'deletecollection'].includes(verb)) continue;
      (writes[resource] ??= {})[verb] = count;
    }
  }
  return writes;
}
