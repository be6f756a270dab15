import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetricsRegistry } from './create-metrics-registry.js';
import { asMetricsSink, MetricsRegistry, prometheusMetricsSink } from './prometheus-metrics-sink.js';

describe('prometheusMetricsSink', () => {
  it('registers what the toolkit declares, once per name', async () => {
    const registry = new Registry();
    const sink = prometheusMetricsSink(registry);
    const declaration = { name: 'example_calls_total', help: 'Calls.', labelNames: ['operation'] as const };
    sink.counter(declaration).inc({ operation: 'a' });
    sink.counter(declaration).inc({ operation: 'a' }, 2);
    sink.histogram({ name: 'example_seconds', help: 'Latency.', labelNames: ['operation'] as const, buckets: [0.1, 1] }).observe({ operation: 'a' }, 0.5);
    sink.gauge({ name: 'example_rate', help: 'Rate.', labelNames: ['provider'] as const }).set({ provider: 'p' }, 3);
    const text = await registry.metrics();
    expect(text).toContain('example_calls_total{operation="a"} 3');
    expect(text).toContain('example_seconds_bucket{le="1",operation="a"} 1');
    expect(text).toContain('example_rate{provider="p"} 3');
  });

  it('createMetricsRegistry gives a registry that is its own sink', async () => {
    const registry = createMetricsRegistry({ defaultMetrics: false });
    expect(registry).toBeInstanceOf(MetricsRegistry);
    expect(asMetricsSink(registry)).toBe(registry);
    registry.counter({ name: 'example_total', help: 'x', labelNames: [] }).inc({});
    expect(await registry.metrics()).toContain('example_total 1');
  });

  it('asMetricsSink wraps any other registry', async () => {
    const registry = new Registry();
    asMetricsSink(registry).gauge({ name: 'example_gauge', help: 'x', labelNames: [] }).set({}, 2);
    expect(await registry.metrics()).toContain('example_gauge 2');
  });
});
