/**
 * The vSphere CCM's own cloud API series (kubernetes/cloud-provider-vsphere
 * `pkg/common/vclib/vsphere_metrics.go`), recorded beside the common `cloudprovider_api_*` series
 * by the vSphere pipeline's observer (core `upstream-cloud-metrics.ts`).
 *
 * Upstream records a call's latency when it succeeded and counts it as an error when it failed
 * (never both), under the vSphere API name of the call (`CreateVolume`, ...). It declares these
 * series for its volume calls, which a CCM never makes; we record every vCenter call there, under
 * its vSphere API name (`FindByUuid`, `RetrieveVirtualMachines`: the operation names of
 * `VCENTER_PORT_NAMING`), so the series carry the CCM's calls.
 */
import { PROMETHEUS_DEFAULT_BUCKETS, defineUpstreamCloudMetrics, methodOf, upstreamCounter, upstreamHistogram } from '@ccm/core/cloud';
import { VSPHERE_PROVIDER_NAME } from '../provider-id.js';

/** The `request` label of one of our calls: its vSphere API name (the operation's last segment). */
export const vsphereUpstreamRequest = (operation: string): string => methodOf(operation);

export const VSPHERE_UPSTREAM_METRICS = defineUpstreamCloudMetrics({
  provider: VSPHERE_PROVIDER_NAME,
  sources: [{ repository: 'kubernetes/cloud-provider-vsphere', path: 'pkg/common/vclib/vsphere_metrics.go', commit: 'f244f36e9992b669abf04e9f130bf93767e89da0' }],
  series: [
    upstreamHistogram({
      name: 'cloudprovider_vsphere_api_request_duration_seconds',
      help: 'Latency of vsphere api call',
      labelNames: ['request'],
      buckets: PROMETHEUS_DEFAULT_BUCKETS,
      recordedWhen: 'a vCenter call succeeded; `request` is its vSphere API name (`FindByUuid`, `RetrieveVirtualMachines`, `ListAttachedTags`, ...)',
      labelsOf: (call) => (call.failed ? undefined : { request: vsphereUpstreamRequest(call.operation) }),
    }),
    upstreamCounter({
      name: 'cloudprovider_vsphere_api_request_errors',
      help: 'vsphere Api errors',
      labelNames: ['request'],
      recordedWhen: 'a vCenter call failed',
      labelsOf: (call) => (call.failed ? { request: vsphereUpstreamRequest(call.operation) } : undefined),
    }),
  ],
  notes: [
    'Upstream fills these two series only for its volume calls (`CreateVolume`, `DeleteVolume`, `AttachVolume`, `DetachVolume`), which a CCM never makes; we record every vCenter call of the CCM in them. Upstream registers them with the Prometheus client directly, so their help has no `[ALPHA]` prefix.',
  ],
  notExported: [
    {
      name: 'cloudprovider_vsphere_operation_duration_seconds, cloudprovider_vsphere_operation_errors',
      reason: 'upstream records volume operations only (`CreateVolumeOperation`, `AttachVolumeOperation`, ...); a CCM performs none.',
    },
  ],
});
