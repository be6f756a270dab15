/**
 * What the conformance suite checks in the CCM's `/metrics` after a run: `kubernetes_build_info`
 * as component-base exports it, and every upstream series of the provider (its
 * `src/metrics/upstream-metrics.ts`) with upstream's type, help and exactly upstream's label names.
 */
import type { UpstreamCloudMetrics, UpstreamSeries } from '@ccm/core/cloud';
import type { PrometheusFamily } from '../harness/prometheus-text.js';

export const KUBERNETES_BUILD_INFO_LABEL_NAMES = ['major', 'minor', 'git_version', 'git_commit', 'git_tree_state', 'build_date', 'go_version', 'compiler', 'platform'];

/** The sample names a series of `type` writes. */
function sampleNames(series: UpstreamSeries): string[] {
  return series.type === 'histogram' ? [`${series.name}_bucket`, `${series.name}_sum`, `${series.name}_count`] : [series.name];
}

const sorted = (names: Iterable<string>): string => [...names].sort().join(',');

/** Problems of one scrape (empty when it holds `kubernetes_build_info` as component-base's: 9 labels, value 1). */
export function buildInfoProblems(families: ReadonlyMap<string, PrometheusFamily>): string[] {
  const family = families.get('kubernetes_build_info');
  if (family === undefined) return ['kubernetes_build_info is missing'];
  const problems: string[] = [];
  if (family.type !== 'gauge') problems.push(`kubernetes_build_info has type ${String(family.type)}, not gauge`);
  if (family.samples.length !== 1) problems.push(`kubernetes_build_info has ${family.samples.length} samples, not 1`);
  for (const sample of family.samples) {
    if (sorted(Object.keys(sample.labels)) !== sorted(KUBERNETES_BUILD_INFO_LABEL_NAMES)) problems.push(`kubernetes_build_info has labels ${sorted(Object.keys(sample.labels))}`);
    if (sample.value !== '1') problems.push(`kubernetes_build_info is ${sample.value}, not 1`);
  }
  return problems;
}

export interface UpstreamSeriesReport {
  problems: string[];
  /** Series declared but without a sample in any scrape (no call upstream records it for happened). */
  withoutSamples: string[];
}

/**
 * Checks the upstream series over the scrapes of one run: each declared in every scrape with
 * upstream's type and help; every sample with exactly upstream's label names (and `le` on
 * buckets, whose bounds are upstream's); every histogram observed at least once in the run.
 */
export function upstreamSeriesReport(scrapes: ReadonlyArray<ReadonlyMap<string, PrometheusFamily>>, upstream: UpstreamCloudMetrics): UpstreamSeriesReport {
  const problems: string[] = [];
  const withoutSamples: string[] = [];
  if (scrapes.length === 0) return { problems: ['no /metrics scrape was taken'], withoutSamples };
  for (const series of upstream.series) {
    let samples = 0;
    scrapes.forEach((families, index) => {
      const family = families.get(series.name);
      if (family === undefined) {
        problems.push(`${series.name} is missing from scrape ${index + 1}`);
        return;
      }
      if (family.type !== series.type) problems.push(`${series.name} has type ${String(family.type)}, upstream's is ${series.type}`);
      if (family.help !== series.help) problems.push(`${series.name} has help "${String(family.help)}", upstream's is "${series.help}"`);
      for (const sample of family.samples) {
        samples += 1;
        if (!sampleNames(series).includes(sample.name)) {
          problems.push(`${series.name} has a sample named ${sample.name}`);
          continue;
        }
        const expected = sample.name.endsWith('_bucket') ? [...series.labelNames, 'le'] : series.labelNames;
        if (sorted(Object.keys(sample.labels)) !== sorted(expected)) problems.push(`${sample.name} has labels ${sorted(Object.keys(sample.labels))}, upstream's are ${sorted(expected)}`);
      }
      if (series.type === 'histogram') {
        const bounds = new Set(family.samples.filter((sample) => sample.name.endsWith('_bucket')).map((sample) => sample.labels['le']));
        const expected = new Set([...series.buckets.map(String), '+Inf']);
        if (bounds.size > 0 && sorted([...bounds].map(String)) !== sorted(expected)) problems.push(`${series.name} has buckets ${[...bounds].join(',')}, upstream's are ${[...expected].join(',')}`);
      }
    });
    if (samples === 0) {
      withoutSamples.push(series.name);
      if (series.type === 'histogram') problems.push(`${series.name} was never observed during the run`);
    }
  }
  return { problems, withoutSamples };
}
