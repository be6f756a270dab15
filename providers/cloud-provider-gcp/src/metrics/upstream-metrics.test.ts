import { createMetricsRegistry } from '@ccm/core/app';
import { describe, expect, it } from 'vitest';
import { GCE_PIPELINE } from '../ports/gcp-port-pipeline.js';
import { GCE_UPSTREAM_METRICS, gceUpstreamLabels } from './upstream-metrics.js';

describe('GCE upstream metric series', () => {
  it('declares upstream names, types, label names and the default buckets', () => {
    expect(GCE_UPSTREAM_METRICS.series.map(({ name, type, labelNames }) => ({ name, type, labelNames }))).toEqual([
      { name: 'cloudprovider_gce_api_request_duration_seconds', type: 'histogram', labelNames: ['request', 'region', 'zone', 'version'] },
      { name: 'cloudprovider_gce_api_request_errors', type: 'counter', labelNames: ['request', 'region', 'zone', 'version'] },
    ]);
    const duration = GCE_UPSTREAM_METRICS.series[0]!;
    expect(duration.type === 'histogram' ? duration.buckets : undefined).toEqual([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
  });

  it.each([
    ['compute.getInstance', ['us-central1-a', 'node-1'], { request: 'instances_get', region: '<n/a>', zone: 'us-central1-a' }],
    ['compute.listInstances', [{ zone: 'us-central1-b', names: ['a'] }], { request: 'instances_list', region: '<n/a>', zone: 'us-central1-b' }],
    ['compute.listInstances', [{ names: ['a'] }], { request: 'instances_list', region: '<n/a>', zone: '<n/a>' }],
    ['compute.insertRoute', [{ name: 'r' }], { request: 'routes_create', region: '<n/a>', zone: '<n/a>' }],
    ['compute.insertAddress', ['us-central1', { name: 'a' }], { request: 'address_reserve', region: 'us-central1', zone: '<n/a>' }],
    ['compute.findAddressByIp', ['us-central1', '10.0.0.1'], { request: 'address_list', region: 'us-central1', zone: '<n/a>' }],
    ['compute.addTargetPoolInstances', ['us-central1', 'pool', []], { request: 'targetpool_add_instances', region: 'us-central1', zone: '<n/a>' }],
    ['compute.getHttpHealthCheck', ['hc'], { request: 'healthcheck_get_legacy', region: '<n/a>', zone: '<n/a>' }],
    ['compute.updateHealthCheck', [{ name: 'hc' }], { request: 'healthcheck_update', region: '<n/a>', zone: '<n/a>' }],
    ['compute.insertInstanceGroup', [{ name: 'ig', zone: 'us-central1-c' }], { request: 'instancegroup_create', region: '<n/a>', zone: 'us-central1-c' }],
    ['compute.listInstanceGroupInstances', ['us-central1-c', 'ig'], { request: 'instancegroup_list_instances', region: '<n/a>', zone: 'us-central1-c' }],
    ['compute.listZones', ['us-central1'], { request: 'zones_list', region: 'us-central1', zone: '<n/a>' }],
    ['compute.patchFirewall', [{ name: 'fw' }], { request: 'firewall_update', region: '<n/a>', zone: '<n/a>' }],
  ])('labels %s(%j) as upstream does', (operation, args, expected) => {
    expect(gceUpstreamLabels({ operation, args })).toEqual({ ...expected, version: 'v1' });
  });

  it('records nothing for calls that are not Compute calls', () => {
    expect(gceUpstreamLabels({ operation: 'metadata.projectId', args: [] })).toBeUndefined();
  });

  it('observes every call and counts the failed ones too, through the GCE pipeline observer', async () => {
    const metrics = createMetricsRegistry();
    const observer = GCE_PIPELINE.createObserver(metrics);
    await observer.observe('compute.getInstance', async () => undefined, ['us-central1-a', 'n']);
    await expect(observer.observe('compute.getInstance', async () => Promise.reject(new Error('boom')), ['us-central1-a', 'n'])).rejects.toThrow('boom');
    const text = await metrics.metrics();
    expect(text).toContain('cloudprovider_gce_api_request_duration_seconds_count{request="instances_get",region="<n/a>",zone="us-central1-a",version="v1"} 2');
    expect(text).toContain('cloudprovider_gce_api_request_errors{request="instances_get",region="<n/a>",zone="us-central1-a",version="v1"} 1');
    expect(text).toContain('# HELP cloudprovider_gce_api_request_errors [ALPHA] Number of errors for an API call');
  });
});
