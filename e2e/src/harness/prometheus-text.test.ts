import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from './prometheus-text.js';

describe('parsePrometheusText', () => {
  it('reads help, type and labelled samples, histogram samples under their family', () => {
    const families = parsePrometheusText(
      [
        '# HELP x_seconds [ALPHA] Latency of "x" calls',
        '# TYPE x_seconds histogram',
        'x_seconds_bucket{le="0.1",request="a"} 1',
        'x_seconds_bucket{le="+Inf",request="a"} 2',
        'x_seconds_sum{request="a"} 0.3',
        'x_seconds_count{request="a"} 2',
        '# HELP y_errors Errors',
        '# TYPE y_errors counter',
        'y_errors{request="a \\"quoted\\"",zone="<n/a>"} 3',
        '# TYPE z gauge',
        'z 1',
        '',
      ].join('\n'),
    );
    expect(families.get('x_seconds')).toMatchObject({ help: '[ALPHA] Latency of "x" calls', type: 'histogram' });
    expect(families.get('x_seconds')?.samples.map((sample) => sample.name)).toEqual(['x_seconds_bucket', 'x_seconds_bucket', 'x_seconds_sum', 'x_seconds_count']);
    expect(families.get('x_seconds')?.samples[1]?.labels).toEqual({ le: '+Inf', request: 'a' });
    expect(families.get('y_errors')?.samples).toEqual([{ name: 'y_errors', labels: { request: 'a "quoted"', zone: '<n/a>' }, value: '3' }]);
    expect(families.get('z')).toEqual({ type: 'gauge', samples: [{ name: 'z', labels: {}, value: '1' }] });
  });
});
