import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from '../app/metrics/prometheus-metrics-sink.js';
import { createCloudApiObserver } from './cloud-api-observer.js';
import { defineUpstreamCloudMetrics, methodOf, renderUpstreamMetricsSection, snakeCaseOf, upstreamCounter, upstreamHistogram } from './upstream-cloud-metrics.js';

const EXAMPLE = defineUpstreamCloudMetrics({
  provider: 'example',
  sources: [{ repository: 'example/cloud-provider-example', path: 'pkg/metrics.go', commit: '0123456789abcdef0123456789abcdef01234567' }],
  series: [
    upstreamHistogram({
      name: 'example_api_request_duration_seconds',
      help: 'Latency of example calls',
      labelNames: ['request', 'zone'],
      buckets: [0.1, 1, 10],
      recordedWhen: 'every call',
      labelsOf: (call) => ({ request: snakeCaseOf(methodOf(call.operation)), zone: typeof call.args[0] === 'string' ? call.args[0] : '<n/a>' }),
    }),
    upstreamCounter({
      name: 'example_api_request_errors',
      help: 'Errors of example calls',
      labelNames: ['request'],
      recordedWhen: 'a call failed',
      labelsOf: (call) => (call.failed ? { request: snakeCaseOf(methodOf(call.operation)) } : undefined),
    }),
  ],
});

describe('upstream cloud metrics', () => {
  it('records each observed call into the upstream series beside the common ones, with the arguments it was called with', async () => {
    const registry = new MetricsRegistry();
    const observer = createCloudApiObserver(registry, 'example', EXAMPLE);
    await observer.observe('compute.getInstance', async () => 'vm', ['zone-a', 'vm-1']);
    await expect(observer.observe('compute.getInstance', async () => Promise.reject(new Error('gone')), ['zone-b'])).rejects.toThrow('gone');
    const text = await registry.metrics();
    expect(text).toContain('cloudprovider_api_request_duration_seconds_count{provider="example",request="compute.getInstance"} 2');
    expect(text).toContain('example_api_request_duration_seconds_count{request="get_instance",zone="zone-a"} 1');
    expect(text).toContain('example_api_request_duration_seconds_count{request="get_instance",zone="zone-b"} 1');
    expect(text).toContain('example_api_request_duration_seconds_bucket{le="10",request="get_instance",zone="zone-a"} 1');
    expect(text).toContain('example_api_request_errors{request="get_instance"} 1');
    expect(text).toContain('# HELP example_api_request_errors Errors of example calls');
    expect(text).toContain('# TYPE example_api_request_errors counter');
  });

  it('declares every series from the start, before any call', async () => {
    const registry = new MetricsRegistry();
    createCloudApiObserver(registry, 'example', EXAMPLE);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE example_api_request_duration_seconds histogram');
    expect(text).toContain('# TYPE example_api_request_errors counter');
  });

  it('refuses a table that declares a series twice or with unordered buckets', () => {
    const series = EXAMPLE.series[0]!;
    expect(() => defineUpstreamCloudMetrics({ ...EXAMPLE, series: [series, series] })).toThrow('example_api_request_duration_seconds is declared twice');
    expect(() => defineUpstreamCloudMetrics({ ...EXAMPLE, series: [{ ...series, type: 'histogram', buckets: [1, 0.5] }] })).toThrow('are not ascending');
  });

  it.each([
    ['describeRouteTables', 'describe_route_tables'],
    ['getInstance', 'get_instance'],
    ['list', 'list'],
    ['createTags', 'create_tags'],
  ])('snake_case of %s is %s', (method, expected) => {
    expect(snakeCaseOf(method)).toBe(expected);
  });

  it('renders the docs list from the table, citing the source at its commit', () => {
    const section = renderUpstreamMetricsSection(EXAMPLE);
    expect(section).toContain('[`example/cloud-provider-example/pkg/metrics.go`](https://github.com/example/cloud-provider-example/blob/0123456789abcdef0123456789abcdef01234567/pkg/metrics.go) at `0123456789ab`');
    expect(section).toContain('| `example_api_request_duration_seconds` | histogram | `request`, `zone` | 0.1, 1, 10 | every call |');
    expect(section).toContain('| `example_api_request_errors` | counter | `request` | - | a call failed |');
  });
});
