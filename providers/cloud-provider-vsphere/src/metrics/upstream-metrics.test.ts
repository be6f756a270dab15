import { createMetricsRegistry } from '@ccm/core/app';
import { describe, expect, it } from 'vitest';
import { VSPHERE_PIPELINE } from '../ports/vsphere-port-pipeline.js';
import { VSPHERE_UPSTREAM_METRICS, vsphereUpstreamRequest } from './upstream-metrics.js';

describe('vSphere upstream metric series', () => {
  it('declares upstream names, types, label names and the default buckets', () => {
    expect(VSPHERE_UPSTREAM_METRICS.series.map(({ name, type, labelNames, help }) => ({ name, type, labelNames, help }))).toEqual([
      { name: 'cloudprovider_vsphere_api_request_duration_seconds', type: 'histogram', labelNames: ['request'], help: 'Latency of vsphere api call' },
      { name: 'cloudprovider_vsphere_api_request_errors', type: 'counter', labelNames: ['request'], help: 'vsphere Api errors' },
    ]);
    const duration = VSPHERE_UPSTREAM_METRICS.series[0]!;
    expect(duration.type === 'histogram' ? duration.buckets : undefined).toEqual([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
  });

  it.each([
    ['FindByUuid', 'FindByUuid'],
    ['RetrieveVirtualMachines', 'RetrieveVirtualMachines'],
    ['tagging.ListAttachedTags', 'ListAttachedTags'],
  ])('names %s request="%s"', (operation, request) => {
    expect(vsphereUpstreamRequest(operation)).toBe(request);
  });

  it('records the latency of a call that succeeded and counts one that failed (never both), through the vSphere pipeline observer', async () => {
    const metrics = createMetricsRegistry();
    const observer = VSPHERE_PIPELINE.createObserver(metrics);
    await observer.observe('FindByUuid', async () => undefined);
    await expect(observer.observe('FindByUuid', async () => Promise.reject(new Error('NotAuthenticated')))).rejects.toThrow();
    const text = await metrics.metrics();
    expect(text).toContain('cloudprovider_vsphere_api_request_duration_seconds_count{request="FindByUuid"} 1');
    expect(text).toContain('cloudprovider_vsphere_api_request_errors{request="FindByUuid"} 1');
    expect(text).toContain('# HELP cloudprovider_vsphere_api_request_errors vsphere Api errors');
  });
});
