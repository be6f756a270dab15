/**
 * What every controller receives and how the runtime starts it. Controllers are constructible
 * without the command, so tests, the benchmark and tools can compose them directly.
 */
import type { Registry } from 'prom-client';
import type { KubeAccess } from '../kube/ports.js';
import type { WorkQueue, WorkQueueOptions } from '../kube/work-queue.js';
import type { Logger } from '../logging/logger.js';
import type { CloudProvider } from '../provider/cloud-provider.js';

/** Completed controller settings (from flags; defaults as upstream, core-checklist §3.2/§3.3). */
export interface ControllerConfig {
  /** `--cluster-name`, default `kubernetes`; passed to load balancer and route calls. */
  clusterName: string;
  /** `--cluster-cidr`, parsed: at most two CIDRs (dual-stack). Empty when not set. */
  clusterCidrs: string[];
  /** `--allocate-node-cidrs`, default false. */
  allocateNodeCidrs: boolean;
  /** `--configure-cloud-routes`, default true. */
  configureCloudRoutes: boolean;
  /** `--node-monitor-period`, default 5 s: the lifecycle controller's period. */
  nodeMonitorPeriodMs: number;
  /** `--node-status-update-frequency`, default 5 min: the node address refresh period. */
  nodeStatusUpdateFrequencyMs: number;
  /** `--route-reconciliation-period`, default 10 s. */
  routeReconciliationPeriodMs: number;
  /** `--concurrent-service-syncs`, default 1. */
  concurrentServiceSyncs: number;
  /** `--concurrent-node-syncs`, default 1. */
  concurrentNodeSyncs: number;
  /** `--concurrent-node-status-updates`, default 0 = use concurrentNodeSyncs. */
  concurrentNodeStatusUpdates: number;
}

export const DEFAULT_CONTROLLER_CONFIG: Readonly<ControllerConfig> = {
  clusterName: 'kubernetes',
  clusterCidrs: [],
  allocateNodeCidrs: false,
  configureCloudRoutes: true,
  nodeMonitorPeriodMs: 5_000,
  nodeStatusUpdateFrequencyMs: 5 * 60_000,
  routeReconciliationPeriodMs: 10_000,
  concurrentServiceSyncs: 1,
  concurrentNodeSyncs: 1,
  concurrentNodeStatusUpdates: 0,
};

export interface ControllerContext {
  cloud: CloudProvider;
  kube: KubeAccess;
  config: ControllerConfig;
  /** The registry `/metrics` serves; controllers register their upstream-named metrics here. */
  metrics: Registry;
  logger: Logger;
  createWorkQueue<K extends string>(options: WorkQueueOptions): WorkQueue<K>;
}

export interface Controller {
  /** A core controller name (`ControllerName`) or a provider controller's (AWS `tagging`). */
  readonly name: string;
  /** Runs until `signal` aborts; resolves after workers drained. */
  run(signal: AbortSignal): Promise<void>;
}

/**
 * Builds a controller, or returns `{ skipped: reason }` when it cannot run with this cloud/config
 * (upstream: "not started", logged as Skipping). Throws for fatal misconfiguration.
 */
export type ControllerConstructor = (context: ControllerContext) => Controller | { skipped: string };
