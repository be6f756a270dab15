/**
 * The `/configz` document: the effective configuration under the upstream name
 * `cloudcontrollermanager.config.k8s.io`, shaped like upstream's CloudControllerManagerConfiguration
 * (Go field names, durations in Go syntax).
 */
import { formatGoDuration } from '../util/go-duration.js';
import type { CloudControllerManagerOptions } from './options/cloud-controller-manager-flags.js';
import { resolveControllerAliases } from './options/controller-selection.js';

export const CONFIGZ_NAME = 'cloudcontrollermanager.config.k8s.io';

export function buildConfigz(options: CloudControllerManagerOptions): Record<string, unknown> {
  return {
    [CONFIGZ_NAME]: {
      kind: 'CloudControllerManagerConfiguration',
      apiVersion: `${CONFIGZ_NAME}/v1alpha1`,
      Generic: {
        Port: options.securePort,
        Address: options.bindAddress,
        MinResyncPeriod: formatGoDuration(options.minResyncPeriodMs),
        ClientConnection: {
          Kubeconfig: options.kubeconfig,
          AcceptContentTypes: '',
          ContentType: options.kubeApiContentType,
          QPS: options.kubeApiQps,
          Burst: options.kubeApiBurst,
        },
        ControllerStartInterval: formatGoDuration(options.controllerStartIntervalMs),
        LeaderElection: {
          LeaderElect: options.leaderElect,
          LeaseDuration: formatGoDuration(options.leaderElectLeaseDurationMs),
          RenewDeadline: formatGoDuration(options.leaderElectRenewDeadlineMs),
          RetryPeriod: formatGoDuration(options.leaderElectRetryPeriodMs),
          ResourceLock: options.leaderElectResourceLock,
          ResourceName: options.leaderElectResourceName,
          ResourceNamespace: options.leaderElectResourceNamespace,
        },
        Controllers: resolveControllerAliases(options.controllers),
        Debugging: { EnableProfiling: options.profiling, EnableContentionProfiling: options.contentionProfiling },
        LeaderMigrationEnabled: options.enableLeaderMigration,
      },
      KubeCloudShared: {
        CloudProvider: { Name: options.cloudProvider, CloudConfigFile: options.cloudConfig },
        ExternalCloudVolumePlugin: options.externalCloudVolumePlugin,
        UseServiceAccountCredentials: options.useServiceAccountCredentials,
        AllowUntaggedCloud: options.allowUntaggedCloud,
        RouteReconciliationPeriod: formatGoDuration(options.routeReconciliationPeriodMs),
        NodeMonitorPeriod: formatGoDuration(options.nodeMonitorPeriodMs),
        ClusterName: options.clusterName,
        ClusterCIDR: options.clusterCidr,
        AllocateNodeCIDRs: options.allocateNodeCidrs,
        CIDRAllocatorType: options.cidrAllocatorType,
        ConfigureCloudRoutes: options.configureCloudRoutes,
        NodeSyncPeriod: formatGoDuration(options.nodeSyncPeriodMs),
      },
      ServiceController: { ConcurrentServiceSyncs: options.concurrentServiceSyncs },
      NodeController: {
        ConcurrentNodeSyncs: options.concurrentNodeSyncs,
        // Upstream NodeControllerOptions.ApplyTo: 0 (unset) takes --concurrent-node-syncs.
        ConcurrentNodeStatusUpdates: options.concurrentNodeStatusUpdates > 0 ? options.concurrentNodeStatusUpdates : options.concurrentNodeSyncs,
      },
      NodeStatusUpdateFrequency: formatGoDuration(options.nodeStatusUpdateFrequencyMs),
      Webhook: { Webhooks: options.webhooks },
    },
  };
}
