/**
 * Where toolkit code (the cloud API pipeline, the budget, the coalescer) publishes its metrics,
 * without knowing the metrics library: it declares each metric (name, help, labels, buckets) and
 * gets a handle to record values. The runtime provides the sink (`app/metrics`, backed by the
 * Prometheus registry `/metrics` serves); tests may provide their own.
 *
 * Contract: declaring a name that was declared before returns a handle to the same metric, so
 * components built more than once against one sink (a provider re-created in tests, two
 * observers of one provider) share it.
 */

export interface MetricDeclaration<Label extends string> {
  name: string;
  help: string;
  labelNames: readonly Label[];
}

export interface HistogramDeclaration<Label extends string> extends MetricDeclaration<Label> {
  /** Upper bounds of the buckets, ascending. */
  buckets: readonly number[];
}

export type MetricLabels<Label extends string> = Readonly<Record<Label, string>>;

export interface CounterMetric<Label extends string> {
  inc(labels: MetricLabels<Label>, value?: number): void;
}

export interface HistogramMetric<Label extends string> {
  observe(labels: MetricLabels<Label>, value: number): void;
}

export interface GaugeMetric<Label extends string> {
  set(labels: MetricLabels<Label>, value: number): void;
}

export interface MetricsSink {
  counter<Label extends string>(declaration: MetricDeclaration<Label>): CounterMetric<Label>;
  histogram<Label extends string>(declaration: HistogramDeclaration<Label>): HistogramMetric<Label>;
  gauge<Label extends string>(declaration: MetricDeclaration<Label>): GaugeMetric<Label>;
}
