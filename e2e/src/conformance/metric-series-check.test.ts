import { defineUpstreamCloudMetrics, upstreamCounter, upstreamHistogram } from '@ccm/core/cloud';
import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from '../harness/prometheus-text.js';
import { buildInfoProblems, upstreamSeriesReport } from './metric-series-check.js';

const UPSTREAM = defineUpstreamCloudMetrics({
  provider: 'example',
  sources: [{ repository: 'example/example', path: 'metrics.go', commit: '0'.repeat(40) }],
  series: [
    upstreamHistogram({ name: 'x_seconds', help: 'Latency', labelNames: ['request'], buckets: [0.1, 1], recordedWhen: 'always', labelsOf: () => ({ request: 'a' }) }),
    upstreamCounter({ name: 'x_errors', help: 'Errors', labelNames: ['request'], recordedWhen: 'on failure', labelsOf: () => undefined }),
  ],
});

const HISTOGRAM = ['# HELP x_seconds Latency', '# TYPE x_seconds histogram', 'x_seconds_bucket{le="0.1",request="a"} 1', 'x_seconds_bucket{le="1",request="a"} 1', 'x_seconds_bucket{le="+Inf",request="a"} 1', 'x_seconds_sum{request="a"} 0.05', 'x_seconds_count{request="a"} 1'];
const COUNTER = ['# HELP x_errors Errors', '# TYPE x_errors counter'];
const scrape = (...lines: string[]) => parsePrometheusText(lines.join('\n'));

describe('upstreamSeriesReport', () => {
  it('accepts every series declared with upstream type, help and labels, and lists the ones without samples', () => {
    expect(upstreamSeriesReport([scrape(...HISTOGRAM, ...COUNTER)], UPSTREAM)).toEqual({ problems: [], withoutSamples: ['x_errors'] });
  });

  it.each([
    ['a missing series', [...HISTOGRAM], 'x_errors is missing from scrape 1'],
    ['another label name', [...HISTOGRAM, ...COUNTER, 'x_errors{operation="a"} 1'], 'x_errors has labels operation, upstream\'s are request'],
    ['an extra label', [...HISTOGRAM, ...COUNTER, 'x_errors{request="a",code="404"} 1'], 'x_errors has labels code,request, upstream\'s are request'],
    ['another type', [...HISTOGRAM, '# HELP x_errors Errors', '# TYPE x_errors gauge'], 'x_errors has type gauge, upstream\'s is counter'],
    ['another help', [...HISTOGRAM, '# HELP x_errors errors', '# TYPE x_errors counter'], 'x_errors has help "errors", upstream\'s is "Errors"'],
    ['other buckets', [...HISTOGRAM.filter((line) => !line.includes('le="1"')), ...COUNTER], 'x_seconds has buckets 0.1,+Inf, upstream\'s are 0.1,1,+Inf'],
    ['a histogram never observed', ['# HELP x_seconds Latency', '# TYPE x_seconds histogram', ...COUNTER], 'x_seconds was never observed during the run'],
  ])('reports %s', (_case, lines, problem) => {
    expect(upstreamSeriesReport([scrape(...lines)], UPSTREAM).problems).toContain(problem);
  });

  it('needs at least one scrape', () => {
    expect(upstreamSeriesReport([], UPSTREAM).problems).toEqual(['no /metrics scrape was taken']);
  });
});

describe('buildInfoProblems', () => {
  const labels = 'major="0",minor="1",git_version="v0.1.0",git_commit="",git_tree_state="",build_date="1970-01-01T00:00:00Z",go_version="v22.12.0",compiler="node",platform="linux/amd64"';
  it('accepts component-base\'s gauge', () => {
    expect(buildInfoProblems(scrape('# TYPE kubernetes_build_info gauge', `kubernetes_build_info{${labels}} 1`))).toEqual([]);
  });
  it('reports a missing gauge, a missing label and another value', () => {
    expect(buildInfoProblems(scrape('# TYPE other gauge'))).toEqual(['kubernetes_build_info is missing']);
    expect(buildInfoProblems(scrape('# TYPE kubernetes_build_info gauge', `kubernetes_build_info{${labels.replace(',compiler="node"', '')}} 2`))).toEqual([
      'kubernetes_build_info has labels build_date,git_commit,git_tree_state,git_version,go_version,major,minor,platform',
      'kubernetes_build_info is 2, not 1',
    ]);
  });
});
