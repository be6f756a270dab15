/** What one benchmark row measured, and how a reference row is scaled to the target size. */
import type { ScenarioName } from './bench-arguments.js';
import type { PolicyName } from './ccm-policies.js';

/**
 * How a metric grows with the scenario's size when the reference row is extrapolated: `linear`
 * (times the size), `constant` (as measured: memory), `normalized` (already per unit of size, so
 * as measured and comparable between rows of different sizes).
 */
export type Scaling = 'linear' | 'constant' | 'normalized';

export interface MetricDefinition {
  key: string;
  label: string;
  unit: 'seconds' | 'count' | 'megabytes' | 'kilobytes' | 'per-second';
  scaling: Scaling;
  /** Lower is better; a target is an upper bound. */
  target?: number;
}

/** A row of a CCM run with a policy, or the plain-client baseline (no CCM: the API server's pace). */
export type RowKind = PolicyName | 'baseline';

export interface RowResult {
  scenario: ScenarioName;
  policy: RowKind;
  label: string;
  /** The size the row actually ran at (nodes or services, the scenario's scaled dimension). */
  measuredSize: number;
  /** The size the row's numbers are reported for (extrapolated linearly when it differs). */
  reportedSize: number;
  extrapolated: boolean;
  /** Measured values, at `measuredSize`. */
  measured: Record<string, number | undefined>;
  /** Reported values, at `reportedSize`. */
  values: Record<string, number | undefined>;
  /** Free-form facts worth printing (flags, per-operation calls). */
  notes: string[];
}

export interface ScenarioResult {
  scenario: ScenarioName;
  /** What the scaled dimension is: `nodes` or `services`. */
  sizeUnit: 'nodes' | 'services';
  parameters: Record<string, number | string | undefined>;
  metrics: MetricDefinition[];
  rows: RowResult[];
  /** Whether the run used the scenario's target parameters, so the targets apply. */
  atTarget: boolean;
}

/** Scales the measured values of a row run at `measuredSize` to `reportedSize`. */
export function scaleRow(
  base: Omit<RowResult, 'values' | 'extrapolated' | 'reportedSize'>,
  metrics: readonly MetricDefinition[],
  reportedSize: number,
): RowResult {
  const factor = reportedSize / base.measuredSize;
  const values: Record<string, number | undefined> = {};
  for (const metric of metrics) {
    const value = base.measured[metric.key];
    values[metric.key] = value === undefined || metric.scaling !== 'linear' ? value : value * factor;
  }
  return { ...base, reportedSize, extrapolated: factor !== 1, values };
}

/** Nearest-rank percentile of `values` (0 < p <= 100); undefined when empty. */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((left, right) => left - right);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}
