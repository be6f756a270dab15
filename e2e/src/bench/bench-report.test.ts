import { describe, expect, it } from 'vitest';
import { baselineRatios, benchJson, formatScenario, ratios } from './bench-report.js';
import type { MetricDefinition, RowResult, ScenarioResult } from './bench-results.js';

const METRICS: MetricDefinition[] = [
  { key: 'allInitializedSeconds', label: 'all nodes initialized (s)', unit: 'seconds', scaling: 'linear' },
  { key: 'cloudCalls', label: 'cloud API calls', unit: 'count', scaling: 'linear' },
  { key: 'ccmPeakRssMegabytes', label: 'CCM peak RSS (MB)', unit: 'megabytes', scaling: 'constant' },
];

function row(policy: RowResult['policy'], values: Record<string, number | undefined>): RowResult {
  return { scenario: 'node-storm', policy, label: policy, measuredSize: 10, reportedSize: 10, extrapolated: false, measured: values, values, notes: [] };
}

function scenario(rows: RowResult[]): ScenarioResult {
  return { scenario: 'node-storm', sizeUnit: 'nodes', parameters: { nodes: 10 }, metrics: METRICS, rows, atTarget: false };
}

const OURS = row('ours', { allInitializedSeconds: 30, cloudCalls: 5, ccmPeakRssMegabytes: 200 });
const UPSTREAM = row('upstream', { allInitializedSeconds: 300, cloudCalls: 10, ccmPeakRssMegabytes: 150 });

describe('baselineRatios', () => {
  it.each<[string, RowResult[], Record<string, number | undefined>]>([
    ['ours over the baseline for the metrics both rows have', [OURS, UPSTREAM, row('baseline', { allInitializedSeconds: 20 })], { allInitializedSeconds: 1.5, cloudCalls: undefined, ccmPeakRssMegabytes: undefined }],
    ['as fast as the server', [OURS, row('baseline', { allInitializedSeconds: 30 })], { allInitializedSeconds: 1, cloudCalls: undefined, ccmPeakRssMegabytes: undefined }],
    ['nothing for a baseline time of zero', [OURS, row('baseline', { allInitializedSeconds: 0 })], { allInitializedSeconds: undefined, cloudCalls: undefined, ccmPeakRssMegabytes: undefined }],
    ['empty without a baseline row', [OURS, UPSTREAM], {}],
    ['empty without our row', [UPSTREAM, row('baseline', { allInitializedSeconds: 20 })], {}],
  ])('%s', (_name, rows, expected) => {
    expect(baselineRatios(scenario(rows))).toEqual(expected);
  });

  it('leaves the upstream ratios alone', () => {
    expect(ratios(scenario([OURS, UPSTREAM, row('baseline', { allInitializedSeconds: 20 })]))['allInitializedSeconds']).toBe(10);
  });
});

describe('the report with a baseline row', () => {
  it('adds an ours/baseline column to the table and oursOverBaseline to the JSON', () => {
    const result = scenario([OURS, UPSTREAM, row('baseline', { allInitializedSeconds: 24 })]);
    const lines = formatScenario(result).split('\n');
    expect(lines[1]).toMatch(/ratio\s+ours\/baseline\s+target$/);
    expect(lines.find((line) => line.startsWith('all nodes initialized'))).toMatch(/\s10x\s+1\.25x\s*$/);
    expect(lines.find((line) => line.startsWith('cloud API calls'))).toMatch(/\s2\.0x\s+-\s*$/);
    const json = benchJson([result], { cpus: 2, cpuModel: 'x', memoryGigabytes: 1, node: 'v20', platform: 'linux' }) as { scenarios: Array<{ oursOverBaseline?: Record<string, number> }> };
    expect(json.scenarios[0]!.oursOverBaseline?.['allInitializedSeconds']).toBe(1.25);
  });

  it('has neither column nor JSON field without one', () => {
    const result = scenario([OURS, UPSTREAM]);
    expect(formatScenario(result)).not.toContain('ours/baseline');
    const json = benchJson([result], { cpus: 2, cpuModel: 'x', memoryGigabytes: 1, node: 'v20', platform: 'linux' }) as { scenarios: Array<Record<string, unknown>> };
    expect(json.scenarios[0]).not.toHaveProperty('oursOverBaseline');
  });
});
