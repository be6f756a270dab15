import { describe, expect, it } from 'vitest';
import { parseBenchArguments } from './bench-arguments.js';
import { benchJson, describeMachine, formatReport } from './bench-report.js';
import { runBench } from './run-bench.js';
import { OUR_POLICY } from './ccm-policies.js';
import { runPlainClientNodeStorm } from './scenarios/plain-client-node-storm.js';

// A tiny node-storm through the real harness: the kube API emulator and the sandbox cloud in this
// process, the sandbox CCM (built by `pnpm build`) as a child process, both policies.
describe('pnpm bench (smoke)', () => {
  it('runs a tiny node-storm with both policies and reports batched against one-call-per-node', async () => {
    const options = parseBenchArguments(['node-storm', '--nodes', '20', '--latency-ms', '5', '--reference-nodes', '5', '--timeout-seconds', '60']);
    const results = await runBench(options);
    expect(results).toHaveLength(1);
    const [nodeStorm] = results;
    expect(nodeStorm!.scenario).toBe('node-storm');
    const ours = nodeStorm!.rows.find((row) => row.policy === 'ours')!;
    const upstream = nodeStorm!.rows.find((row) => row.policy === 'upstream')!;

    expect(ours).toMatchObject({ measuredSize: 20, reportedSize: 20, extrapolated: false });
    expect(ours.values['allInitializedSeconds']).toBeGreaterThan(0);
    expect(ours.values['taintRemovalP50Seconds']!).toBeLessThanOrEqual(ours.values['taintRemovalP99Seconds']!);
    // Twenty concurrent lookups coalesce into a batch call or two, never one per node.
    expect(ours.values['cloudCalls']).toBeGreaterThanOrEqual(1);
    expect(ours.values['cloudCalls']).toBeLessThanOrEqual(4);
    // Per node: the initializing update and the address patch (events may be dropped under load).
    expect(ours.values['kubeWrites']).toBeGreaterThanOrEqual(40);
    expect(ours.values['ccmPeakRssMegabytes']).toBeGreaterThan(10);
    expect(ours.values['ccmCpuSeconds']).toBeGreaterThan(0);
    expect(ours.values['ccmMemoryPerNodeKilobytes']).toBeGreaterThanOrEqual(0);

    // The upstream policy makes exactly one lookup per node, and is extrapolated from 5 to 20 nodes.
    expect(upstream).toMatchObject({ measuredSize: 5, reportedSize: 20, extrapolated: true });
    expect(upstream.measured['cloudCalls']).toBe(5);
    expect(upstream.values['cloudCalls']).toBe(20);
    expect(upstream.values['allInitializedSeconds']).toBeCloseTo(upstream.measured['allInitializedSeconds']! * 4, 6);

    const report = formatReport(results, describeMachine());
    expect(report).toContain('node-storm: nodes=20 latencyMs=5');
    expect(report).toContain('upstream default: measured at 5 nodes and extrapolated linearly to 20');
    const json = benchJson(results, describeMachine()) as { scenarios: Array<{ ratios: Record<string, number>; targets: Array<{ metric: string }> }> };
    expect(json.scenarios[0]!.ratios['cloudCalls']).toBeGreaterThan(1);
    // Not the target size (5,000 nodes, 100 ms): the targets are shown but not judged.
    expect(nodeStorm!.atTarget).toBe(false);
    expect(json.scenarios[0]!.targets).toEqual([]);
    expect(report).toContain('(< 200 at target size)');
  }, 90_000);

  // The baseline row of `--kube-api real`, here on the emulator (no Go needed): no CCM, a plain
  // client making the CCM's writes for each node.
  it('runs the plain-client baseline: per node the update, the address patch and the Synced event, without a CCM', async () => {
    const baseline = await runPlainClientNodeStorm(OUR_POLICY, { provider: 'sandbox', nodes: 20, latencyMs: 5, rate: undefined, apiQps: 1000, timeoutMs: 60_000, kubeApi: 'emulator' });
    expect(baseline).toMatchObject({ policy: 'baseline', measuredSize: 20 });
    expect(baseline.measured['allInitializedSeconds']).toBeGreaterThan(0);
    expect(baseline.measured['kubeWrites']).toBe(60);
    const writes = baseline.notes.find((note) => note.startsWith('kube writes by verb: '))!;
    expect(JSON.parse(writes.slice('kube writes by verb: '.length))).toEqual({ nodes: { update: 20 }, 'nodes/status': { patch: 20 }, events: { create: 20 } });
    expect(baseline.measured['cloudCalls']).toBeUndefined();
  }, 90_000);
});
