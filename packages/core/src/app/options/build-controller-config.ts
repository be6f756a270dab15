import type { ControllerConfig } from '../../controllers/controller.js';
import type { CloudControllerManagerOptions } from './cloud-controller-manager-flags.js';
import { parseClusterCidrFlag } from './cluster-cidrs.js';

/** The completed controller settings out of the command-line options. */
export function buildControllerConfig(options: CloudControllerManagerOptions): ControllerConfig {
  const cidrs = parseClusterCidrFlag(options.clusterCidr);
  return {
    clusterName: options.clusterName,
    clusterCidrs: cidrs.ok ? cidrs.cidrs : [],
    allocateNodeCidrs: options.allocateNodeCidrs,
    configureCloudRoutes: options.configureCloudRoutes,
    nodeMonitorPeriodMs: options.nodeMonitorPeriodMs,
    nodeStatusUpdateFrequencyMs: options.nodeStatusUpdateFrequencyMs,
    routeReconciliationPeriodMs: options.routeReconciliationPeriodMs,
    concurrentServiceSyncs: options.concurrentServiceSyncs,
    concurrentNodeSyncs: options.concurrentNodeSyncs,
    concurrentNodeStatusUpdates: options.concurrentNodeStatusUpdates,
  };
}
