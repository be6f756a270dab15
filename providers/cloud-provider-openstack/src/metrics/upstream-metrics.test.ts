import { createMetricsRegistry } from '@ccm/core/app';
import { describe, expect, it } from 'vitest';
import { OPENSTACK_PIPELINE } from '../ports/openstack-port-pipeline.js';
import { createUpstreamObserver } from '@ccm/core/cloud';
import { OPENSTACK_ALL_UPSTREAM_METRICS, OPENSTACK_UPSTREAM_METRICS, OPENSTACK_UPSTREAM_RECONCILE_METRICS, openStackUpstreamRequest } from './upstream-metrics.js';

describe('OpenStack upstream metric series', () => {
  it('declares upstream names, types, label names and the default buckets', () => {
    expect(OPENSTACK_UPSTREAM_METRICS.series.map(({ name, type, labelNames }) => ({ name, type, labelNames }))).toEqual([
      { name: 'openstack_api_request_duration_seconds', type: 'histogram', labelNames: ['request'] },
      { name: 'openstack_api_requests_total', type: 'counter', labelNames: ['request'] },
      { name: 'openstack_api_request_errors_total', type: 'counter', labelNames: ['request'] },
    ]);
    const duration = OPENSTACK_UPSTREAM_METRICS.series[0]!;
    expect(duration.type === 'histogram' ? duration.buckets : undefined).toEqual([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
  });

  it.each([
    ['compute.getServer', 'server_get'],
    ['compute.listServersByName', 'server_list'],
    ['network.getRouter', 'router_get'],
    ['network.addExtraRoutes', 'router_update'],
    ['network.createFloatingIp', 'floating_ip_create'],
    ['loadbalancer.getLoadBalancer', 'loadbalancer_get'],
    ['loadbalancer.createPool', 'loadbalancer_pool_create'],
    ['loadbalancer.replaceMembers', 'loadbalancer_members_update'],
    ['loadbalancer.listMembers', 'loadbalancer_member_list'],
    ['loadbalancer.deleteHealthMonitor', 'loadbalancer_healthmonitor_delete'],
    ['network.listExtensionAliases', 'network_list_extension_aliases'],
  ])('names %s request="%s"', (operation, request) => {
    expect(openStackUpstreamRequest(operation)).toBe(request);
  });

  it('observes and counts every call and counts the failed ones as errors too, through the OpenStack pipeline observer', async () => {
    const metrics = createMetricsRegistry();
    const observer = OPENSTACK_PIPELINE.createObserver(metrics);
    await observer.observe('compute.getServer', async () => ({}));
    await expect(observer.observe('compute.getServer', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const text = await metrics.metrics();
    expect(text).toContain('openstack_api_request_duration_seconds_count{request="server_get"} 2');
    expect(text).toContain('openstack_api_requests_total{request="server_get"} 2');
    expect(text).toContain('openstack_api_request_errors_total{request="server_get"} 1');
    expect(text).toContain('# HELP openstack_api_requests_total [ALPHA] Total number of OpenStack API calls');
  });

  it("declares upstream's reconcile series with upstream's buckets, and lists them with the API series", () => {
    expect(OPENSTACK_UPSTREAM_RECONCILE_METRICS.series.map(({ name, type, labelNames }) => ({ name, type, labelNames }))).toEqual([
      { name: 'cloudprovider_openstack_reconcile_duration_seconds', type: 'histogram', labelNames: ['operation'] },
      { name: 'cloudprovider_openstack_reconcile_total', type: 'counter', labelNames: ['operation'] },
      { name: 'cloudprovider_openstack_reconcile_errors_total', type: 'counter', labelNames: ['operation'] },
    ]);
    const duration = OPENSTACK_UPSTREAM_RECONCILE_METRICS.series[0]!;
    expect(duration.type === 'histogram' ? duration.buckets : undefined).toEqual([0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 7.5, 10, 12.5, 15, 17.5, 20, 22.5, 25, 27.5, 30, 50, 75, 100, 1000]);
    expect(OPENSTACK_ALL_UPSTREAM_METRICS.series.map((series) => series.name)).toHaveLength(6);
  });

  it('records a reconcile only into the reconcile series (not the API series)', async () => {
    const metrics = createMetricsRegistry();
    const reconciles = createUpstreamObserver(metrics, OPENSTACK_UPSTREAM_RECONCILE_METRICS);
    await reconciles.observe('loadbalancer_ensure', async () => 'status');
    await expect(reconciles.observe('loadbalancer_delete', async () => Promise.reject(new Error('busy')))).rejects.toThrow('busy');
    const text = await metrics.metrics();
    expect(text).toContain('cloudprovider_openstack_reconcile_duration_seconds_count{operation="loadbalancer_ensure"} 1');
    expect(text).toContain('cloudprovider_openstack_reconcile_total{operation="loadbalancer_delete"} 1');
    expect(text).toContain('cloudprovider_openstack_reconcile_errors_total{operation="loadbalancer_delete"} 1');
    expect(text).not.toContain('cloudprovider_openstack_reconcile_errors_total{operation="loadbalancer_ensure"}');
    expect(text).not.toContain('cloudprovider_api_request_duration_seconds');
  });
});
