/**
 * The Azure CCM's own cloud API series (kubernetes-sigs/cloud-provider-azure
 * `pkg/metrics/azure_metrics.go`), recorded beside the common `cloudprovider_api_*` series by the
 * Azure pipeline's observer (core `upstream-cloud-metrics.ts`).
 *
 * Upstream's ARM clients label each call with `request` `<client>_<verb>` (`vm_list`,
 * `load_balancers_create_or_update`), the call's resource group (lower case), the subscription
 * and a `source` (empty for these calls); they observe the latency of every call, count the failed
 * ones with the ARM error `code`, and count the ones ARM throttled (HTTP 429).
 */
import { defineUpstreamCloudMetrics, methodOf, upstreamCounter, upstreamHistogram, type UpstreamCallOutcome, type UpstreamCloudMetrics } from '@ccm/core/cloud';
import { AZURE_PROVIDER_NAME } from '../provider-id.js';
import { asAzureApiError } from '../ports/azure-api-error.js';

/** Upstream's `request` label of the same ARM call, by our operation (`<port>.<method>`). */
export const AZURE_UPSTREAM_REQUESTS: Readonly<Record<string, string>> = {
  'compute.listVirtualMachines': 'vm_list',
  'compute.listScaleSets': 'vmss_list',
  'compute.getScaleSetNetwork': 'vmss_get',
  'compute.setScaleSetBackendPools': 'vmss_create_or_update',
  'compute.listScaleSetVirtualMachines': 'vmssvm_list',
  'compute.getScaleSetVirtualMachineNetwork': 'vmssvm_get',
  'compute.setScaleSetVirtualMachineBackendPools': 'vmssvm_update',
  'network.getNetworkInterface': 'interfaces_get',
  'network.listNetworkInterfaces': 'interfaces_list',
  'network.listScaleSetNetworkInterfaces': 'interfaces_list',
  'network.setNetworkInterfaceBackendPools': 'interfaces_create_or_update',
  'network.listPublicIpAddresses': 'public_ip_addresses_list',
  'network.getPublicIpAddress': 'public_ip_addresses_get',
  'network.getPublicIp': 'public_ip_addresses_get',
  'network.listPublicIps': 'public_ip_addresses_list',
  'network.putPublicIp': 'public_ip_addresses_create_or_update',
  'network.deletePublicIp': 'public_ip_addresses_delete',
  'network.getRouteTable': 'route_tables_get',
  'network.createRouteTable': 'route_tables_create_or_update',
  'network.putRoute': 'routes_create_or_update',
  'network.deleteRoute': 'routes_delete',
  'network.getLoadBalancer': 'load_balancers_get',
  'network.putLoadBalancer': 'load_balancers_create_or_update',
  'network.putBackendAddressPool': 'load_balancers_create_or_update_backend_pools',
  'network.deleteLoadBalancer': 'load_balancers_delete',
  'network.getSecurityGroup': 'security_groups_get',
  'network.putSecurityGroup': 'security_groups_create_or_update',
};

/** The resource group of a call: its first argument, or the group named in it when it is an ARM resource ID; lower case, as upstream writes it. */
export function azureResourceGroupOf(args: readonly unknown[]): string {
  const first = args[0];
  if (typeof first !== 'string') return '';
  const inId = /\/resourceGroups\/([^/]+)/i.exec(first);
  return (inId === null ? first : inId[1]!).toLowerCase();
}

/** Where upstream declares its series (both families). */
const AZURE_METRICS_SOURCE = { repository: 'kubernetes-sigs/cloud-provider-azure', path: 'pkg/metrics/azure_metrics.go', commit: '1beb27f8c8fc3d38df60b080d19ca7c2343a87cd' };

const LABEL_NAMES = ['request', 'resource_group', 'subscription_id', 'source'] as const;

/** The upstream series, labelled with the subscription `subscriptionId()` reads at each call (the connection config may change it). */
export function azureUpstreamMetrics(subscriptionId: () => string): UpstreamCloudMetrics {
  const labels = (call: UpstreamCallOutcome): Record<(typeof LABEL_NAMES)[number], string> | undefined => {
    const request = AZURE_UPSTREAM_REQUESTS[call.operation];
    return request === undefined ? undefined : { request, resource_group: azureResourceGroupOf(call.args), subscription_id: subscriptionId(), source: '' };
  };
  return defineUpstreamCloudMetrics({
    provider: AZURE_PROVIDER_NAME,
    sources: [AZURE_METRICS_SOURCE],
    series: [
      upstreamHistogram({
        name: 'cloudprovider_azure_api_request_duration_seconds',
        help: '[ALPHA] Latency of an Azure API call',
        labelNames: LABEL_NAMES,
        buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 25, 50, 120, 300, 600, 1200],
        recordedWhen: 'every ARM call, failed or not',
        labelsOf: labels,
      }),
      upstreamCounter({
        name: 'cloudprovider_azure_api_request_errors',
        help: '[ALPHA] Number of errors for an Azure API call',
        labelNames: [...LABEL_NAMES, 'code'],
        recordedWhen: 'an ARM call failed; `code` is the ARM error code (empty without one)',
        labelsOf: (call) => {
          const found = call.failed ? labels(call) : undefined;
          return found === undefined ? undefined : { ...found, code: asAzureApiError(call.error)?.code ?? '' };
        },
      }),
      upstreamCounter({
        name: 'cloudprovider_azure_api_request_throttled_count',
        help: '[ALPHA] Number of throttled Azure API calls',
        labelNames: LABEL_NAMES,
        recordedWhen: 'ARM answered an ARM call with HTTP 429',
        labelsOf: (call) => (call.failed && asAzureApiError(call.error)?.cloudKind === 'throttled' ? labels(call) : undefined),
      }),
      upstreamCounter({
        name: 'cloudprovider_azure_api_request_ratelimited_count',
        help: '[ALPHA] Number of rate limited Azure API calls',
        labelNames: LABEL_NAMES,
        recordedWhen: "never: upstream counts calls its client-side rate limiter refuses; our budget makes them wait instead (`cloudprovider_api_rate_limiter_wait_seconds`)",
        labelsOf: () => undefined,
      }),
    ],
    notes: [
      `\`request\` values, as upstream's ARM clients name the same calls: ${Object.entries(AZURE_UPSTREAM_REQUESTS)
        .map(([operation, request]) => `\`${request}\` (${operation})`)
        .join(', ')}. \`source\` is empty, as for upstream's calls outside a named operation.`,
    ],
    notExported: [
      { name: 'cloudprovider_azure_api_request_ratelimited_delays', reason: "upstream's client-side limiter delay; ours is `cloudprovider_api_rate_limiter_wait_seconds`." },
      { name: 'cloudprovider_azure_api_request_batch_sizes', reason: 'upstream batches VMSS updates; we make no batch calls.' },
    ],
  });
}

/** The series as the docs and the conformance suite list them (the subscription read at each call). */
export const AZURE_UPSTREAM_METRICS = azureUpstreamMetrics(() => '');

/**
 * Upstream's `request` of a whole service operation (`NewMetricContext(prefix, request, ...)`:
 * `<prefix>_<request>`), by the method of ours that does it.
 */
export const AZURE_UPSTREAM_OPERATIONS = {
  ensureLoadBalancer: 'services_ensure_loadbalancer',
  updateLoadBalancer: 'services_update_loadbalancer',
  ensureLoadBalancerDeleted: 'services_ensure_loadbalancer_deleted',
  createRoute: 'routes_create_route',
  deleteRoute: 'routes_delete_route',
} as const;

/** What labels an operation: the cluster's resource group and subscription as the config has them. */
export interface AzureOperationScope {
  resourceGroup: string;
  /** Read at each operation (the connection config may change it). */
  subscriptionId: () => string;
}

/**
 * Upstream's operation series (`ObserveOperationWithResult`): the latency of each whole
 * load-balancer or route operation, and a count of the failed ones. The observer is called with
 * the operation's `request` (`AZURE_UPSTREAM_OPERATIONS`) and its `source` as only argument: the
 * service `<namespace>/<name>`, or the route's node.
 */
export function azureUpstreamOperationMetrics(scope: AzureOperationScope): UpstreamCloudMetrics {
  const labels = (call: UpstreamCallOutcome): Record<(typeof LABEL_NAMES)[number], string> => ({
    request: call.operation,
    resource_group: scope.resourceGroup.toLowerCase(),
    subscription_id: scope.subscriptionId(),
    source: typeof call.args[0] === 'string' ? call.args[0] : '',
  });
  return defineUpstreamCloudMetrics({
    provider: AZURE_PROVIDER_NAME,
    sources: [AZURE_METRICS_SOURCE],
    series: [
      upstreamHistogram({
        name: 'cloudprovider_azure_op_duration_seconds',
        help: '[ALPHA] Latency of an Azure service operation',
        labelNames: LABEL_NAMES,
        buckets: [0.1, 0.2, 0.5, 1, 5, 10, 15, 20, 30, 40, 50, 60, 100, 200, 300, 600, 1200],
        recordedWhen: `every load-balancer or route operation, failed or not (\`request\` ${Object.values(AZURE_UPSTREAM_OPERATIONS)
          .map((request) => `\`${request}\``)
          .join(', ')}; \`source\` the service \`<namespace>/<name>\` or the route's node)`,
        labelsOf: labels,
      }),
      upstreamCounter({
        name: 'cloudprovider_azure_op_failure_count',
        help: '[ALPHA] Number of failed Azure service operations',
        labelNames: LABEL_NAMES,
        recordedWhen: 'a load-balancer or route operation failed',
        labelsOf: (call) => (call.failed ? labels(call) : undefined),
      }),
    ],
  });
}

/** The operation series as the docs and the conformance suite list them. */
export const AZURE_UPSTREAM_OPERATION_METRICS = azureUpstreamOperationMetrics({ resourceGroup: '', subscriptionId: () => '' });

/** Every upstream series of the Azure CCM: the ARM calls' and the whole operations' (docs, conformance). */
export const AZURE_ALL_UPSTREAM_METRICS = defineUpstreamCloudMetrics({
  ...AZURE_UPSTREAM_METRICS,
  series: [...AZURE_UPSTREAM_METRICS.series, ...AZURE_UPSTREAM_OPERATION_METRICS.series],
});
