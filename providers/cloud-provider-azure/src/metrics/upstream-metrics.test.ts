import { createMetricsRegistry } from '@ccm/core/app';
import { silentLogger } from '@ccm/core/logging';
import { describe, expect, it } from 'vitest';
import { AZURE_API_ERROR_KINDS, AzureApiError } from '../ports/azure-api-error.js';
import { AZURE_PIPELINE } from '../ports/azure-port-pipeline.js';
import { createUpstreamObserver } from '@ccm/core/cloud';
import {
  AZURE_ALL_UPSTREAM_METRICS,
  AZURE_UPSTREAM_METRICS,
  AZURE_UPSTREAM_OPERATION_METRICS,
  AZURE_UPSTREAM_OPERATIONS,
  azureResourceGroupOf,
  azureUpstreamMetrics,
  azureUpstreamOperationMetrics,
} from './upstream-metrics.js';

const armError = (kind: keyof typeof AZURE_API_ERROR_KINDS, code: string, httpStatus: number) => new AzureApiError(`${code}: failed`, { kind, code, operation: 'network.getLoadBalancer', retryable: false, httpStatus });

describe('Azure upstream metric series', () => {
  it("declares upstream names, types, label names and upstream's buckets", () => {
    expect(AZURE_UPSTREAM_METRICS.series.map(({ name, type, labelNames }) => ({ name, type, labelNames }))).toEqual([
      { name: 'cloudprovider_azure_api_request_duration_seconds', type: 'histogram', labelNames: ['request', 'resource_group', 'subscription_id', 'source'] },
      { name: 'cloudprovider_azure_api_request_errors', type: 'counter', labelNames: ['request', 'resource_group', 'subscription_id', 'source', 'code'] },
      { name: 'cloudprovider_azure_api_request_throttled_count', type: 'counter', labelNames: ['request', 'resource_group', 'subscription_id', 'source'] },
      { name: 'cloudprovider_azure_api_request_ratelimited_count', type: 'counter', labelNames: ['request', 'resource_group', 'subscription_id', 'source'] },
    ]);
    const duration = AZURE_UPSTREAM_METRICS.series[0]!;
    expect(duration.type === 'histogram' ? duration.buckets : undefined).toEqual([0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 25, 50, 120, 300, 600, 1200]);
  });

  it.each([
    [['MC_Cluster_RG'], 'mc_cluster_rg'],
    [['/subscriptions/s/resourceGroups/Node-RG/providers/Microsoft.Network/networkInterfaces/nic-1'], 'node-rg'],
    [[{ name: 'x' }], ''],
    [[], ''],
  ])('the resource group of a call with arguments %j is "%s"', (args, expected) => {
    expect(azureResourceGroupOf(args)).toBe(expected);
  });

  it('labels each ARM call as upstream does: latency always, errors with the ARM code, throttling on 429, with the subscription read at the call', async () => {
    let subscription = 'sub-1';
    const metrics = createMetricsRegistry();
    const pipeline = AZURE_PIPELINE.connect({ metrics, logger: silentLogger }, { upstreamMetrics: azureUpstreamMetrics(() => subscription) });
    const observer = pipeline.observer!;
    await observer.observe('compute.listVirtualMachines', async () => [], ['Node-RG']);
    subscription = 'sub-2';
    await expect(observer.observe('network.getLoadBalancer', async () => Promise.reject(armError('NotFound', 'ResourceNotFound', 404)), ['rg', 'kubernetes'])).rejects.toThrow();
    await expect(observer.observe('network.putRoute', async () => Promise.reject(armError('Throttled', 'TooManyRequests', 429)), ['rg', 'table', {}])).rejects.toThrow();
    const text = await metrics.metrics();
    expect(text).toContain('cloudprovider_azure_api_request_duration_seconds_count{request="vm_list",resource_group="node-rg",subscription_id="sub-1",source=""} 1');
    expect(text).toContain('cloudprovider_azure_api_request_duration_seconds_count{request="load_balancers_get",resource_group="rg",subscription_id="sub-2",source=""} 1');
    expect(text).toContain('cloudprovider_azure_api_request_errors{request="load_balancers_get",resource_group="rg",subscription_id="sub-2",source="",code="ResourceNotFound"} 1');
    expect(text).toContain('cloudprovider_azure_api_request_throttled_count{request="routes_create_or_update",resource_group="rg",subscription_id="sub-2",source=""} 1');
    expect(text).not.toContain('cloudprovider_azure_api_request_throttled_count{request="load_balancers_get"');
    expect(text).toContain('# TYPE cloudprovider_azure_api_request_ratelimited_count counter');
    expect(text).toContain('cloudprovider_azure_api_request_duration_seconds_bucket{le="1200",request="vm_list"');
  });
});

describe("Azure upstream operation series (upstream's ObserveOperationWithResult)", () => {
  it("declares upstream's names, help, label names and buckets; the docs and conformance table holds both families", () => {
    expect(AZURE_UPSTREAM_OPERATION_METRICS.series.map(({ name, type, help, labelNames }) => ({ name, type, help, labelNames }))).toEqual([
      { name: 'cloudprovider_azure_op_duration_seconds', type: 'histogram', help: '[ALPHA] Latency of an Azure service operation', labelNames: ['request', 'resource_group', 'subscription_id', 'source'] },
      { name: 'cloudprovider_azure_op_failure_count', type: 'counter', help: '[ALPHA] Number of failed Azure service operations', labelNames: ['request', 'resource_group', 'subscription_id', 'source'] },
    ]);
    const duration = AZURE_UPSTREAM_OPERATION_METRICS.series[0]!;
    expect(duration.type === 'histogram' ? duration.buckets : undefined).toEqual([0.1, 0.2, 0.5, 1, 5, 10, 15, 20, 30, 40, 50, 60, 100, 200, 300, 600, 1200]);
    expect(AZURE_ALL_UPSTREAM_METRICS.series.map((series) => series.name)).toEqual([...AZURE_UPSTREAM_METRICS.series, ...AZURE_UPSTREAM_OPERATION_METRICS.series].map((series) => series.name));
    expect(AZURE_ALL_UPSTREAM_METRICS.notExported?.map((entry) => entry.name).join(' ')).not.toContain('cloudprovider_azure_op_');
  });

  it.each([
    ['ensureLoadBalancer', 'services_ensure_loadbalancer', 'shop/web'],
    ['updateLoadBalancer', 'services_update_loadbalancer', 'shop/web'],
    ['ensureLoadBalancerDeleted', 'services_ensure_loadbalancer_deleted', 'shop/web'],
    ['createRoute', 'routes_create_route', 'node-a'],
    ['deleteRoute', 'routes_delete_route', 'node-a'],
  ] as const)('%s is upstream request %s, labelled with the cluster resource group (lower case), the subscription read at the call and source %s', async (method, request, source) => {
    expect(AZURE_UPSTREAM_OPERATIONS[method]).toBe(request);
    let subscription = 'sub-1';
    const metrics = createMetricsRegistry();
    const observer = createUpstreamObserver(metrics, azureUpstreamOperationMetrics({ resourceGroup: 'Cluster-RG', subscriptionId: () => subscription }));
    await observer.observe(request, async () => undefined, [source]);
    subscription = 'sub-2';
    await expect(observer.observe(request, async () => Promise.reject(new Error('failed')), [source])).rejects.toThrow('failed');
    const text = await metrics.metrics();
    const labels = (subscriptionId: string) => `request="${request}",resource_group="cluster-rg",subscription_id="${subscriptionId}",source="${source}"`;
    expect(text).toContain(`cloudprovider_azure_op_duration_seconds_count{${labels('sub-1')}} 1`);
    expect(text).toContain(`cloudprovider_azure_op_duration_seconds_count{${labels('sub-2')}} 1`);
    expect(text).not.toContain(`cloudprovider_azure_op_failure_count{${labels('sub-1')}}`);
    expect(text).toContain(`cloudprovider_azure_op_failure_count{${labels('sub-2')}} 1`);
    expect(text).toContain(`cloudprovider_azure_op_duration_seconds_bucket{le="1200",${labels('sub-1')}} 1`);
  });
});
