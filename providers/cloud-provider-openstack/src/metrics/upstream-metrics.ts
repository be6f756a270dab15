/**
 * The OpenStack CCM's own cloud API series (kubernetes/cloud-provider-openstack `pkg/metrics`),
 * recorded beside the common `cloudprovider_api_*` series by the OpenStack pipeline's observer
 * (core `upstream-cloud-metrics.ts`).
 *
 * Upstream wraps each API call in a metric context `<resource>_<request>` (`server_get`,
 * `loadbalancer_pool_create`): it observes the latency and counts the call, and counts it again
 * as an error when it failed.
 */
import { PROMETHEUS_DEFAULT_BUCKETS, defineUpstreamCloudMetrics, methodOf, snakeCaseOf, upstreamCounter, upstreamHistogram, type UpstreamCallOutcome } from '@ccm/core/cloud';
import { OPENSTACK_PROVIDER_NAME } from '../provider-id.js';

/** Upstream's `request` label of the same API call, by our operation (`<service>.<method>`). */
export const OPENSTACK_UPSTREAM_REQUESTS: Readonly<Record<string, string>> = {
  'compute.getServer': 'server_get',
  'compute.listServersByName': 'server_list',
  'compute.getFlavor': 'flavor_get',
  'network.listPorts': 'port_list',
  'network.updatePortAllowedAddressPairs': 'port_update',
  'network.getRouter': 'router_get',
  'network.addExtraRoutes': 'router_update',
  'network.removeExtraRoutes': 'router_update',
  'network.setRouterRoutes': 'router_update',
  'network.floatingIpsOfPort': 'floating_ip_list',
  'network.floatingIpsByAddress': 'floating_ip_list',
  'network.createFloatingIp': 'floating_ip_create',
  'network.attachFloatingIp': 'floating_ip_update',
  'network.deleteFloatingIp': 'floating_ip_delete',
  'network.getPort': 'port_get',
  'network.findPortsByName': 'port_list',
  'network.portsWithAddress': 'port_list',
  'network.createPort': 'port_create',
  'network.deletePort': 'port_delete',
  'network.getSubnet': 'subnet_get',
  'network.subnetsOfNetwork': 'subnet_list',
  'loadbalancer.findLoadBalancersByName': 'loadbalancer_list',
  'loadbalancer.getLoadBalancer': 'loadbalancer_get',
  'loadbalancer.createLoadBalancer': 'loadbalancer_create',
  'loadbalancer.updateLoadBalancerTags': 'loadbalancer_update',
  'loadbalancer.deleteLoadBalancer': 'loadbalancer_delete',
  'loadbalancer.listListeners': 'loadbalancer_listener_list',
  'loadbalancer.createListener': 'loadbalancer_listener_create',
  'loadbalancer.updateListener': 'loadbalancer_listener_update',
  'loadbalancer.deleteListener': 'loadbalancer_listener_delete',
  'loadbalancer.listPools': 'loadbalancer_pool_list',
  'loadbalancer.createPool': 'loadbalancer_pool_create',
  'loadbalancer.updatePoolMethod': 'loadbalancer_pool_update',
  'loadbalancer.deletePool': 'loadbalancer_pool_delete',
  'loadbalancer.listMembers': 'loadbalancer_member_list',
  'loadbalancer.replaceMembers': 'loadbalancer_members_update',
  'loadbalancer.createMember': 'loadbalancer_member_create',
  'loadbalancer.deleteMember': 'loadbalancer_member_delete',
  'loadbalancer.getHealthMonitor': 'loadbalancer_healthmonitor_get',
  'loadbalancer.createHealthMonitor': 'loadbalancer_healthmonitor_create',
  'loadbalancer.updateHealthMonitor': 'loadbalancer_healthmonitor_update',
  'loadbalancer.deleteHealthMonitor': 'loadbalancer_healthmonitor_delete',
};

/** The `request` label of one of our calls: upstream's for the same call, else `<service>_<method in snake_case>` built the same way. */
export function openStackUpstreamRequest(operation: string): string {
  const known = OPENSTACK_UPSTREAM_REQUESTS[operation];
  if (known !== undefined) return known;
  const dot = operation.indexOf('.');
  return dot === -1 ? snakeCaseOf(operation) : `${operation.slice(0, dot)}_${snakeCaseOf(methodOf(operation))}`;
}

const request = (call: UpstreamCallOutcome): { request: string } => ({ request: openStackUpstreamRequest(call.operation) });

export const OPENSTACK_UPSTREAM_METRICS = defineUpstreamCloudMetrics({
  provider: OPENSTACK_PROVIDER_NAME,
  sources: [
    { repository: 'kubernetes/cloud-provider-openstack', path: 'pkg/metrics/metrics.go', commit: 'd7c9e800dcfe0c26a73bb9b643e8d477f5b78606' },
    { repository: 'kubernetes/cloud-provider-openstack', path: 'pkg/util/openstack/loadbalancer.go', commit: 'd08d233f6066f3e3d2554eb08ff6272454812db7' },
  ],
  series: [
    upstreamHistogram({
      name: 'openstack_api_request_duration_seconds',
      help: '[ALPHA] Latency of an OpenStack API call',
      labelNames: ['request'],
      buckets: PROMETHEUS_DEFAULT_BUCKETS,
      recordedWhen: 'every API call, failed or not',
      labelsOf: request,
    }),
    upstreamCounter({
      name: 'openstack_api_requests_total',
      help: '[ALPHA] Total number of OpenStack API calls',
      labelNames: ['request'],
      recordedWhen: 'every API call',
      labelsOf: request,
    }),
    upstreamCounter({
      name: 'openstack_api_request_errors_total',
      help: '[ALPHA] Total number of errors for an OpenStack API call',
      labelNames: ['request'],
      recordedWhen: 'an API call failed',
      labelsOf: (call) => (call.failed ? request(call) : undefined),
    }),
  ],
  notes: [
    `\`request\` values, as upstream names the same calls: ${[...new Set(Object.values(OPENSTACK_UPSTREAM_REQUESTS))].map((name) => `\`${name}\``).join(', ')}; a call of ours upstream does not make is named the same way (\`network_list_extension_aliases\`).`,
  ],
});

/** Upstream's `operation` of a load-balancer reconcile (`LbaasV2.EnsureLoadBalancer`, ...). */
export const OPENSTACK_RECONCILE_OPERATIONS = { ensure: 'loadbalancer_ensure', update: 'loadbalancer_update', delete: 'loadbalancer_delete' } as const;

const operation = (call: UpstreamCallOutcome): { operation: string } => ({ operation: call.operation });

/**
 * Upstream's reconcile series (`occm` only): each load-balancer reconcile of the service
 * controller (`OpenStackLoadBalancers`), timed and counted, and counted again when it failed.
 */
export const OPENSTACK_UPSTREAM_RECONCILE_METRICS = defineUpstreamCloudMetrics({
  provider: OPENSTACK_PROVIDER_NAME,
  sources: [{ repository: 'kubernetes/cloud-provider-openstack', path: 'pkg/metrics/metrics.go', commit: 'd7c9e800dcfe0c26a73bb9b643e8d477f5b78606' }],
  series: [
    upstreamHistogram({
      name: 'cloudprovider_openstack_reconcile_duration_seconds',
      help: '[ALPHA] Time taken by various parts of OpenStack cloud controller manager reconciliation loops',
      labelNames: ['operation'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1.0, 2.5, 5.0, 7.5, 10.0, 12.5, 15.0, 17.5, 20.0, 22.5, 25.0, 27.5, 30.0, 50.0, 75.0, 100.0, 1000.0],
      recordedWhen: `every load-balancer reconcile (\`operation\` ${Object.values(OPENSTACK_RECONCILE_OPERATIONS).map((name) => `\`${name}\``).join(', ')})`,
      labelsOf: operation,
    }),
    upstreamCounter({
      name: 'cloudprovider_openstack_reconcile_total',
      help: '[ALPHA] Total number of OpenStack cloud controller manager reconciliations',
      labelNames: ['operation'],
      recordedWhen: 'every load-balancer reconcile',
      labelsOf: operation,
    }),
    upstreamCounter({
      name: 'cloudprovider_openstack_reconcile_errors_total',
      help: '[ALPHA] Total number of OpenStack cloud controller manager reconciliation errors',
      labelNames: ['operation'],
      recordedWhen: 'a load-balancer reconcile failed',
      labelsOf: (call) => (call.failed ? operation(call) : undefined),
    }),
  ],
});

/** Every upstream series of the OpenStack CCM: the API calls' and the reconciles' (docs, conformance). */
export const OPENSTACK_ALL_UPSTREAM_METRICS = defineUpstreamCloudMetrics({
  ...OPENSTACK_UPSTREAM_METRICS,
  series: [...OPENSTACK_UPSTREAM_METRICS.series, ...OPENSTACK_UPSTREAM_RECONCILE_METRICS.series],
});
