import { describe, expect, it } from 'vitest';
import { BenchArgumentError, parseBenchArguments, SCENARIOS } from './bench-arguments.js';
import { percentile, scaleRow, type MetricDefinition } from './bench-results.js';

describe('parseBenchArguments', () => {
  it('runs every scenario at its defaults without arguments', () => {
    expect(parseBenchArguments([])).toMatchObject({ scenarios: [...SCENARIOS], nodes: undefined, reference: true, json: false, timeoutSeconds: 900 });
  });

  it('runs node-storm against a provider simulator with --provider', () => {
    expect(parseBenchArguments(['node-storm', '--provider', 'aws', '--nodes', '1000'])).toMatchObject({ scenarios: ['node-storm'], provider: 'aws', nodes: 1000 });
    expect(parseBenchArguments(['--provider=vsphere'])).toMatchObject({ scenarios: ['node-storm'], provider: 'vsphere' });
    expect(parseBenchArguments(['node-storm'])).toMatchObject({ provider: 'sandbox' });
  });

  it('reads scenarios and flags in both spellings (pnpm passes a leading --)', () => {
    const parsed = parseBenchArguments(['--', 'node-storm', '--nodes', '500', '--latency-ms=20', '--rate', '0', '--reference-nodes=50', '--json', '--no-reference']);
    expect(parsed).toMatchObject({ scenarios: ['node-storm'], nodes: 500, latencyMs: 20, rate: 0, referenceNodes: 50, json: true, reference: false });
  });

  it.each([
    [['--nodes', '0'], '--nodes must be an integer >= 1, got "0"'],
    [['--nodes', '1.5'], '--nodes must be an integer >= 1, got "1.5"'],
    [['--latency-ms'], '--latency-ms needs a value'],
    [['--bogus', '1'], 'unknown flag --bogus'],
    [['node-stom'], 'unknown scenario "node-stom" (one of node-storm, service-storm, steady-state)'],
    [['--provider', 'nimbus'], '--provider must be one of sandbox, aws, vsphere, azure, gcp, openstack, got "nimbus"'],
    [['--provider'], '--provider needs a value'],
    [['service-storm', '--provider', 'aws'], '--provider aws runs node-storm only, not service-storm'],
    [['node-storm', '--provider', 'vsphere', '--latency-ms', '5'], "--latency-ms applies to the sandbox cloud only; vsphere's simulator answers at its own pace"],
  ])('rejects %j', (argv, message) => {
    expect(() => parseBenchArguments(argv)).toThrow(new BenchArgumentError(message));
  });
});

describe('scaleRow', () => {
  const metrics: MetricDefinition[] = [
    { key: 'seconds', label: 's', unit: 'seconds', scaling: 'linear' },
    { key: 'memory', label: 'MB', unit: 'megabytes', scaling: 'constant' },
  ];
  const base = { scenario: 'node-storm' as const, policy: 'upstream' as const, label: 'upstream default', measuredSize: 100, measured: { seconds: 12, memory: 180 }, notes: [] };

  it('extrapolates linear metrics to the reported size and keeps constant ones', () => {
    expect(scaleRow(base, metrics, 5000)).toMatchObject({ extrapolated: true, reportedSize: 5000, values: { seconds: 600, memory: 180 } });
  });

  it('keeps normalized metrics (already per unit of size) as measured', () => {
    const perNode: MetricDefinition[] = [{ key: 'callsPer1000', label: 'calls per 1,000', unit: 'count', scaling: 'normalized' }];
    expect(scaleRow({ ...base, measured: { callsPer1000: 1000 } }, perNode, 5000)).toMatchObject({ extrapolated: true, values: { callsPer1000: 1000 } });
  });

  it('is not extrapolated at its own size', () => {
    expect(scaleRow(base, metrics, 100)).toMatchObject({ extrapolated: false, values: { seconds: 12, memory: 180 } });
  });
});

describe('percentile', () => {
  it('uses the nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, index) => 100 - index);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeUndefined();
  });
});

describe('--kube-api', () => {
  it('defaults to the emulator and takes real for node-storm', () => {
    expect(parseBenchArguments(['node-storm']).kubeApi).toBe('emulator');
    expect(parseBenchArguments(['node-storm', '--kube-api', 'real']).kubeApi).toBe('real');
    expect(parseBenchArguments(['node-storm', '--kube-api=real']).kubeApi).toBe('real');
  });

  it('takes real for steady-state too', () => {
    expect(parseBenchArguments(['steady-state', '--kube-api', 'real'])).toMatchObject({ scenarios: ['steady-state'], kubeApi: 'real' });
    expect(parseBenchArguments(['node-storm', 'steady-state', '--kube-api', 'real']).scenarios).toEqual(['node-storm', 'steady-state']);
  });

  it('names a bad value and refuses real for the scenario that drives the emulator in process', () => {
    expect(() => parseBenchArguments(['node-storm', '--kube-api', 'kind'])).toThrow('--kube-api must be "emulator" or "real", got "kind"');
    expect(() => parseBenchArguments(['--kube-api', 'real'])).toThrow(/node-storm and steady-state only/);
    expect(() => parseBenchArguments(['service-storm', '--kube-api', 'real'])).toThrow(/node-storm and steady-state only/);
  });
});
