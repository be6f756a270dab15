/** The human table (stderr) and the JSON document (stdout with --json). */
import { cpus, totalmem } from 'node:os';
import type { MetricDefinition, RowResult, ScenarioResult } from './bench-results.js';

export interface MachineDescription {
  cpus: number;
  cpuModel: string;
  memoryGigabytes: number;
  node: string;
  platform: string;
}

export function describeMachine(): MachineDescription {
  const processors = cpus();
  return {
    cpus: processors.length,
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    memoryGigabytes: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

export interface TargetCheck {
  metric: string;
  target: number;
  value: number | undefined;
  met: boolean;
}

/** Our row against the targets of the metrics that have one (none unless the run used the target parameters). */
export function checkTargets(result: ScenarioResult): TargetCheck[] {
  if (!result.atTarget) return [];
  const ours = result.rows.find((row) => row.policy === 'ours');
  return result.metrics
    .filter((metric): metric is MetricDefinition & { target: number } => metric.target !== undefined)
    .map((metric) => {
      const value = ours?.values[metric.key];
      return { metric: metric.key, target: metric.target, value, met: value !== undefined && value < metric.target };
    });
}

/** Upstream / ours for every metric both rows have (how many times better ours is); constant metrics of an extrapolated row are left out. */
export function ratios(result: ScenarioResult): Record<string, number | undefined> {
  const ours = result.rows.find((row) => row.policy === 'ours');
  const upstream = result.rows.find((row) => row.policy === 'upstream');
  const output: Record<string, number | undefined> = {};
  for (const metric of result.metrics) {
    const mine = ours?.values[metric.key];
    const theirs = upstream?.values[metric.key];
    const comparable = upstream !== undefined && !(upstream.extrapolated && metric.scaling === 'constant');
    output[metric.key] = comparable && mine !== undefined && theirs !== undefined && mine > 0 ? theirs / mine : undefined;
  }
  return output;
}

/**
 * Ours / the plain-client baseline for every metric both rows have (how many times the API
 * server's own pace ours took: 1 is as fast as the server takes the writes); empty without a
 * baseline row.
 */
export function baselineRatios(result: ScenarioResult): Record<string, number | undefined> {
  const ours = result.rows.find((row) => row.policy === 'ours');
  const baseline = result.rows.find((row) => row.policy === 'baseline');
  if (ours === undefined || baseline === undefined) return {};
  const output: Record<string, number | undefined> = {};
  for (const metric of result.metrics) {
    const mine = ours.values[metric.key];
    const theirs = baseline.values[metric.key];
    output[metric.key] = mine !== undefined && theirs !== undefined && theirs > 0 ? mine / theirs : undefined;
  }
  return output;
}

export function benchJson(results: readonly ScenarioResult[], machine: MachineDescription): unknown {
  return {
    machine,
    scenarios: results.map((result) => ({
      ...result,
      ratios: ratios(result),
      ...(result.rows.some((row) => row.policy === 'baseline') ? { oursOverBaseline: baselineRatios(result) } : {}),
      targets: checkTargets(result),
    })),
  };
}

function formatValue(metric: MetricDefinition, value: number | undefined): string {
  if (value === undefined) return 'n/a';
  if (metric.unit === 'count') return value >= 100 ? String(Math.round(value)) : value.toFixed(value % 1 === 0 ? 0 : 1);
  if (metric.unit === 'megabytes') return value.toFixed(0);
  if (metric.unit === 'kilobytes') return value.toFixed(1);
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function rowHeading(row: RowResult, sizeUnit: string): string {
  return row.extrapolated ? `${row.label} (${row.measuredSize}→${row.reportedSize} ${sizeUnit}, extrapolated)` : `${row.label} (${row.measuredSize} ${sizeUnit})`;
}

function table(lines: string[][]): string {
  const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => (line[column] ?? '').length)));
  return lines.map((line) => line.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ').trimEnd()).join('\n');
}

export function formatScenario(result: ScenarioResult): string {
  const parameters = Object.entries(result.parameters)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  const ratio = ratios(result);
  const overBaseline = baselineRatios(result);
  const hasUpstream = result.rows.some((row) => row.policy === 'upstream');
  const hasBaseline = result.rows.some((row) => row.policy === 'baseline');
  const targets = new Map(checkTargets(result).map((check) => [check.metric, check]));
  const header = [
    'metric',
    ...result.rows.map((row) => rowHeading(row, result.sizeUnit)),
    ...(hasUpstream ? ['ratio'] : []),
    ...(hasBaseline ? ['ours/baseline'] : []),
    'target',
  ];
  const lines = [header];
  for (const metric of result.metrics) {
    const check = targets.get(metric.key);
    const ratioValue = ratio[metric.key];
    lines.push([
      metric.label,
      ...result.rows.map((row) => formatValue(metric, row.values[metric.key])),
      ...(hasUpstream ? [ratioValue === undefined ? '-' : `${ratioValue >= 10 ? ratioValue.toFixed(0) : ratioValue.toFixed(1)}x`] : []),
      ...(hasBaseline ? [overBaseline[metric.key] === undefined ? '-' : `${overBaseline[metric.key]!.toFixed(2)}x`] : []),
      check !== undefined ? `< ${check.target} ${check.met ? 'met' : 'MISSED'}` : metric.target === undefined ? '' : `(< ${metric.target} at target size)`,
    ]);
  }
  const notes = result.rows.flatMap((row) => row.notes.map((note) => `  ${row.label}: ${note}`));
  const extrapolated = result.rows.filter((row) => row.extrapolated);
  const footnotes = extrapolated.map(
    (row) =>
      `  ${row.label}: measured at ${row.measuredSize} ${result.sizeUnit} and extrapolated linearly to ${row.reportedSize} (x${(row.reportedSize / row.measuredSize).toFixed(1)}); memory is as measured`,
  );
  return [`${result.scenario}: ${parameters}`, table(lines), ...footnotes, ...notes].join('\n');
}

export function formatReport(results: readonly ScenarioResult[], machine: MachineDescription): string {
  const heading = `machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGigabytes} GB, Node ${machine.node}, ${machine.platform}`;
  return [heading, ...results.map(formatScenario)].join('\n\n');
}
