import { createMetricsRegistry } from '@ccm/core/app';
import { describe, expect, it } from 'vitest';
import { OPENSTACK_PIPELINE } from '../ports/openstack-port-pipeline.js';
import { OPENSTACK_UPSTREAM_METRICS, openStackUpstreamRequest } from './upstream-metrics.js';

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
});
