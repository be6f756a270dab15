/**
 * The runtime's `MetricsSink`: metrics declared by the toolkit (cloud API pipeline, budget,
 * coalescer) become prom-client metrics of the registry `/metrics` serves.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CounterMetric, GaugeMetric, HistogramDeclaration, HistogramMetric, MetricDeclaration, MetricsSink } from '../../metrics/metrics-sink.js';
import { getOrCreateMetric } from './get-or-create-metric.js';

/** A sink over `registry`; a name declared twice is registered once and shared. */
export function prometheusMetricsSink(registry: Registry): MetricsSink {
  return {
    counter: <Label extends string>(declaration: MetricDeclaration<Label>): CounterMetric<Label> =>
      getOrCreateMetric(registry, declaration.name, () => new Counter({ name: declaration.name, help: declaration.help, labelNames: declaration.labelNames, registers: [registry] })),
    histogram: <Label extends string>(declaration: HistogramDeclaration<Label>): HistogramMetric<Label> =>
      getOrCreateMetric(
        registry,
        declaration.name,
        () => new Histogram({ name: declaration.name, help: declaration.help, labelNames: declaration.labelNames, buckets: [...declaration.buckets], registers: [registry] }),
      ),
    gauge: <Label extends string>(declaration: MetricDeclaration<Label>): GaugeMetric<Label> =>
      getOrCreateMetric(registry, declaration.name, () => new Gauge({ name: declaration.name, help: declaration.help, labelNames: declaration.labelNames, registers: [registry] })),
  };
}

/** A Prometheus registry that is also a `MetricsSink` (what the runtime hands to providers). */
export class MetricsRegistry extends Registry implements MetricsSink {
  readonly #sink = prometheusMetricsSink(this);

  counter<Label extends string>(declaration: MetricDeclaration<Label>): CounterMetric<Label> {
    return this.#sink.counter(declaration);
  }

  histogram<Label extends string>(declaration: HistogramDeclaration<Label>): HistogramMetric<Label> {
    return this.#sink.histogram(declaration);
  }

  gauge<Label extends string>(declaration: MetricDeclaration<Label>): GaugeMetric<Label> {
    return this.#sink.gauge(declaration);
  }
}

/** `registry` as a sink: itself when it is a `MetricsRegistry`, else a sink over it. */
export function asMetricsSink(registry: Registry): MetricsSink {
  return registry instanceof MetricsRegistry ? registry : prometheusMetricsSink(registry);
}
