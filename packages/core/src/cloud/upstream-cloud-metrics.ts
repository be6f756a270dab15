/**
 * The cloud API metric series a provider's upstream (Go) CCM exports, declared once per provider
 * (`src/metrics/upstream-metrics.ts`) and recorded by the provider's observer beside the common
 * `cloudprovider_api_*` series, so dashboards and alerts built on upstream's names keep working:
 *
 *   export const AWS_UPSTREAM_METRICS = defineUpstreamCloudMetrics({
 *     provider: 'aws',
 *     source: { repository: 'kubernetes/cloud-provider-aws', path: 'pkg/providers/v1/aws_metrics.go', commit: '...' },
 *     series: [
 *       upstreamHistogram({ name: 'cloudprovider_aws_api_request_duration_seconds', labelNames: ['request'], ...,
 *         labelsOf: (call) => (call.failed ? undefined : requestOf(call.operation)) }),
 *     ],
 *   });
 *
 * Each series says, per call, the labels upstream would record it with, or `undefined` where
 * upstream records nothing (its errors counters count where upstream counts). The docs list is
 * rendered from the same table (`renderUpstreamMetricsSection`).
 */
import type { HistogramMetric, CounterMetric, MetricLabels, MetricsSink } from '../metrics/metrics-sink.js';

/** component-base's (Prometheus' `DefBuckets`) histogram buckets: what upstream gets when it sets none. */
export const PROMETHEUS_DEFAULT_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One observed call (one attempt, as the observe stage sees it). */
export interface UpstreamCallOutcome {
  /** Our operation name (`ec2.describeInstances`). */
  operation: string;
  /** The port call's arguments. */
  args: readonly unknown[];
  seconds: number;
  failed: boolean;
  /** What the call threw (when `failed`). */
  error?: unknown;
}

interface UpstreamSeriesFields<Label extends string> {
  name: string;
  /** Upstream's help text. */
  help: string;
  /** Upstream's label names, in upstream's order. */
  labelNames: readonly Label[];
  /** How upstream records it, for the docs (one sentence). */
  recordedWhen: string;
  /** The labels of `call` in this series, or undefined where upstream does not record the call. */
  labelsOf(call: UpstreamCallOutcome): MetricLabels<Label> | undefined;
}

export interface UpstreamHistogramSeries<Label extends string = string> extends UpstreamSeriesFields<Label> {
  type: 'histogram';
  /** Upstream's bucket boundaries (`PROMETHEUS_DEFAULT_BUCKETS` when upstream sets none). */
  buckets: readonly number[];
}

export interface UpstreamCounterSeries<Label extends string = string> extends UpstreamSeriesFields<Label> {
  type: 'counter';
}

export type UpstreamSeries = UpstreamHistogramSeries | UpstreamCounterSeries;

export interface UpstreamSource {
  /** `owner/name` on GitHub. */
  repository: string;
  path: string;
  /** The commit read. */
  commit: string;
}

export interface UpstreamCloudMetrics {
  provider: string;
  /** Where the series are declared upstream. */
  sources: readonly UpstreamSource[];
  series: readonly UpstreamSeries[];
  /** Upstream series of this cloud we do not export, each with the reason (for the docs). */
  notExported?: readonly { name: string; reason: string }[];
  /** Notes for the docs: how our label values are built, where we differ. */
  notes?: readonly string[];
}

/** A histogram series whose `labelsOf` is checked against its label names. */
export function upstreamHistogram<const Label extends string>(series: Omit<UpstreamHistogramSeries<Label>, 'type'>): UpstreamHistogramSeries {
  return { type: 'histogram', ...series } as UpstreamHistogramSeries;
}

/** A counter series whose `labelsOf` is checked against its label names. */
export function upstreamCounter<const Label extends string>(series: Omit<UpstreamCounterSeries<Label>, 'type'>): UpstreamCounterSeries {
  return { type: 'counter', ...series } as UpstreamCounterSeries;
}

/** The table, checked: unique names, ascending buckets. Throws on a mistake in it. */
export function defineUpstreamCloudMetrics(definition: UpstreamCloudMetrics): UpstreamCloudMetrics {
  const names = new Set<string>();
  for (const series of definition.series) {
    if (names.has(series.name)) throw new Error(`upstream metrics of ${definition.provider}: ${series.name} is declared twice`);
    names.add(series.name);
    if (series.type === 'histogram' && series.buckets.some((bound, index) => index > 0 && bound <= series.buckets[index - 1]!)) {
      throw new Error(`upstream metrics of ${definition.provider}: the buckets of ${series.name} are not ascending`);
    }
  }
  return definition;
}

/** Declares every series of `upstream` on `metrics` (so each is listed from the start) and returns what records one call. */
export function createUpstreamMetricsRecorder(metrics: MetricsSink, upstream: UpstreamCloudMetrics): (call: UpstreamCallOutcome) => void {
  const recorders = upstream.series.map((series) => {
    if (series.type === 'histogram') {
      const histogram: HistogramMetric<string> = metrics.histogram({ name: series.name, help: series.help, labelNames: series.labelNames, buckets: series.buckets });
      return (call: UpstreamCallOutcome) => {
        const labels = series.labelsOf(call);
        if (labels !== undefined) histogram.observe(labels, call.seconds);
      };
    }
    const counter: CounterMetric<string> = metrics.counter({ name: series.name, help: series.help, labelNames: series.labelNames });
    return (call: UpstreamCallOutcome) => {
      const labels = series.labelsOf(call);
      if (labels !== undefined) counter.inc(labels);
    };
  });
  return (call) => {
    for (const record of recorders) record(call);
  };
}

/** `snake_case` of a camelCase method name: `describeRouteTables` -> `describe_route_tables`. */
export function snakeCaseOf(method: string): string {
  return method.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** The method of an operation name `<service>.<method>` (the name itself without a service). */
export function methodOf(operation: string): string {
  const dot = operation.lastIndexOf('.');
  return dot === -1 ? operation : operation.slice(dot + 1);
}

/** The Markdown section of a provider's reference listing `upstream`'s series, citing its sources. */
export function renderUpstreamMetricsSection(upstream: UpstreamCloudMetrics): string {
  const lines = [
    '## Upstream metric series',
    '',
    `Beside the common \`cloudprovider_api_*\` series, the CCM exports the cloud API series of the upstream CCM (\`${upstream.provider}\`), with upstream's names, label names, help text (with component-base's \`[ALPHA] \` prefix where upstream registers through it), type and buckets, read from ${upstream.sources
      .map((source) => `[\`${source.repository}/${source.path}\`](https://github.com/${source.repository}/blob/${source.commit}/${source.path}) at \`${source.commit.slice(0, 12)}\``)
      .join(' and ')}. Also \`kubernetes_build_info\` (see docs/troubleshooting.md).`,
    '',
    '| Series | Type | Labels | Buckets | Recorded |',
    '| --- | --- | --- | --- | --- |',
    ...upstream.series.map(
      (series) =>
        `| \`${series.name}\` | ${series.type} | ${series.labelNames.map((label) => `\`${label}\``).join(', ')} | ${series.type === 'histogram' ? series.buckets.join(', ') : '-'} | ${series.recordedWhen} |`,
    ),
  ];
  if (upstream.notes !== undefined && upstream.notes.length > 0) lines.push('', ...upstream.notes.map((note) => `- ${note}`));
  if (upstream.notExported !== undefined && upstream.notExported.length > 0) {
    lines.push('', 'Upstream series not exported:', '', ...upstream.notExported.map(({ name, reason }) => `- \`${name}\`: ${reason}`));
  }
  return lines.join('\n');
}
