/**
 * The GCE CCM's own cloud API series (kubernetes/cloud-provider-gcp `providers/gce/metrics.go`),
 * recorded beside the common `cloudprovider_api_*` series by the GCE pipeline's observer (core
 * `upstream-cloud-metrics.ts`).
 *
 * Upstream labels every Compute call with `request` `<resource>_<verb>` (`instances_get`,
 * `targetpool_add_instances`), the call's `region` and `zone` (`<n/a>` where the call has none)
 * and the API `version`; it observes the latency of every call and counts the failed ones (both).
 */
import { PROMETHEUS_DEFAULT_BUCKETS, defineUpstreamCloudMetrics, methodOf, upstreamCounter, upstreamHistogram, type UpstreamCallOutcome } from '@ccm/core/cloud';
import { GCE_PROVIDER_NAME } from '../provider-id.js';

/** Upstream's value of an unused label. */
export const GCE_UNUSED_METRIC_LABEL = '<n/a>';

type Scope = 'zone' | 'region' | 'global';

/**
 * Per method of our Compute port: upstream's `<resource>` prefix and verb (its
 * `new<Resource>MetricContext(verb, ...)` call for the same Compute call) and where the call's
 * region or zone is (the first argument, or the named field of it).
 */
export const GCE_UPSTREAM_REQUESTS: Readonly<Record<string, { request: string; scope: Scope }>> = {
  listInstances: { request: 'instances_list', scope: 'zone' },
  getInstance: { request: 'instances_get', scope: 'zone' },
  listRoutes: { request: 'routes_list', scope: 'global' },
  insertRoute: { request: 'routes_create', scope: 'global' },
  deleteRoute: { request: 'routes_delete', scope: 'global' },
  getAddress: { request: 'address_get', scope: 'region' },
  findAddressByIp: { request: 'address_list', scope: 'region' },
  insertAddress: { request: 'address_reserve', scope: 'region' },
  deleteAddress: { request: 'address_delete', scope: 'region' },
  getForwardingRule: { request: 'forwardingrule_get', scope: 'region' },
  insertForwardingRule: { request: 'forwardingrule_create', scope: 'region' },
  deleteForwardingRule: { request: 'forwardingrule_delete', scope: 'region' },
  getTargetPool: { request: 'targetpool_get', scope: 'region' },
  insertTargetPool: { request: 'targetpool_create', scope: 'region' },
  deleteTargetPool: { request: 'targetpool_delete', scope: 'region' },
  addTargetPoolInstances: { request: 'targetpool_add_instances', scope: 'region' },
  removeTargetPoolInstances: { request: 'targetpool_remove_instances', scope: 'region' },
  getHttpHealthCheck: { request: 'healthcheck_get_legacy', scope: 'global' },
  insertHttpHealthCheck: { request: 'healthcheck_create_legacy', scope: 'global' },
  updateHttpHealthCheck: { request: 'healthcheck_update_legacy', scope: 'global' },
  deleteHttpHealthCheck: { request: 'healthcheck_delete_legacy', scope: 'global' },
  getHealthCheck: { request: 'healthcheck_get', scope: 'global' },
  insertHealthCheck: { request: 'healthcheck_create', scope: 'global' },
  updateHealthCheck: { request: 'healthcheck_update', scope: 'global' },
  deleteHealthCheck: { request: 'healthcheck_delete', scope: 'global' },
  getRegionBackendService: { request: 'backendservice_get', scope: 'region' },
  insertRegionBackendService: { request: 'backendservice_create', scope: 'region' },
  updateRegionBackendService: { request: 'backendservice_update', scope: 'region' },
  deleteRegionBackendService: { request: 'backendservice_delete', scope: 'region' },
  getInstanceGroup: { request: 'instancegroup_get', scope: 'zone' },
  insertInstanceGroup: { request: 'instancegroup_create', scope: 'zone' },
  deleteInstanceGroup: { request: 'instancegroup_delete', scope: 'zone' },
  listInstanceGroupInstances: { request: 'instancegroup_list_instances', scope: 'zone' },
  addInstanceGroupInstances: { request: 'instancegroup_add_instances', scope: 'zone' },
  removeInstanceGroupInstances: { request: 'instancegroup_remove_instances', scope: 'zone' },
  listZones: { request: 'zones_list', scope: 'region' },
  getFirewall: { request: 'firewall_get', scope: 'global' },
  insertFirewall: { request: 'firewall_create', scope: 'global' },
  patchFirewall: { request: 'firewall_update', scope: 'global' },
  deleteFirewall: { request: 'firewall_delete', scope: 'global' },
};

/** The region or zone of a call: its first argument when a string, else that argument's `zone` (a request or an instance group). */
function placeOf(args: readonly unknown[], scope: Scope): string {
  if (scope === 'global') return GCE_UNUSED_METRIC_LABEL;
  const first = args[0];
  if (typeof first === 'string' && first !== '') return first;
  const zone = first !== null && typeof first === 'object' ? (first as { zone?: unknown }).zone : undefined;
  return scope === 'zone' && typeof zone === 'string' && zone !== '' ? zone : GCE_UNUSED_METRIC_LABEL;
}

/** Upstream's labels of one of our Compute calls, or undefined for a call that is not a Compute API call. */
export function gceUpstreamLabels(call: Pick<UpstreamCallOutcome, 'operation' | 'args'>): { request: string; region: string; zone: string; version: string } | undefined {
  if (!call.operation.startsWith('compute.')) return undefined;
  const known = GCE_UPSTREAM_REQUESTS[methodOf(call.operation)];
  if (known === undefined) return undefined;
  const place = placeOf(call.args, known.scope);
  return {
    request: known.request,
    region: known.scope === 'region' ? place : GCE_UNUSED_METRIC_LABEL,
    zone: known.scope === 'zone' ? place : GCE_UNUSED_METRIC_LABEL,
    version: 'v1',
  };
}

const LABEL_NAMES = ['request', 'region', 'zone', 'version'] as const;

export const GCE_UPSTREAM_METRICS = defineUpstreamCloudMetrics({
  provider: GCE_PROVIDER_NAME,
  sources: [{ repository: 'kubernetes/cloud-provider-gcp', path: 'providers/gce/metrics.go', commit: '65f9290d06bc2b9816eb1145e443f483bbd5c453' }],
  series: [
    upstreamHistogram({
      name: 'cloudprovider_gce_api_request_duration_seconds',
      help: '[ALPHA] Latency of a GCE API call',
      labelNames: LABEL_NAMES,
      buckets: PROMETHEUS_DEFAULT_BUCKETS,
      recordedWhen: 'every Compute call, failed or not',
      labelsOf: gceUpstreamLabels,
    }),
    upstreamCounter({
      name: 'cloudprovider_gce_api_request_errors',
      help: '[ALPHA] Number of errors for an API call',
      labelNames: LABEL_NAMES,
      recordedWhen: 'a Compute call failed',
      labelsOf: (call) => (call.failed ? gceUpstreamLabels(call) : undefined),
    }),
  ],
  notes: [
    `\`request\` is upstream's \`<resource>_<verb>\` for the same Compute call: ${Object.entries(GCE_UPSTREAM_REQUESTS)
      .map(([method, { request }]) => `\`${request}\` (compute.${method})`)
      .join(', ')}; \`version\` is \`v1\` (every call of ours uses Compute v1); \`region\`/\`zone\` are the call's, \`<n/a>\` where it has none.`,
    "Upstream also labels Alias Network Endpoint calls (`ane_*`); the CCM makes none. Metadata-server reads are not Compute calls and are not recorded, as upstream.",
  ],
});
