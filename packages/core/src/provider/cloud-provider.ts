import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from '../logging/logger.js';
import type { MetricsSink } from '../metrics/metrics-sink.js';
import type { Clusters } from './clusters.js';
import type { Instances, InstancesV2, Zones } from './instances.js';
import type { LoadBalancer } from './load-balancer.js';
import type { Routes } from './routes.js';

/** Upstream `ControllerClientBuilder`: a Kubernetes client configuration per user agent. */
export interface ControllerClientBuilder {
  kubeConfig(userAgent: string): KubeConfig;
}

export interface CloudInitializeContext {
  clientBuilder: ControllerClientBuilder;
  logger: Logger;
  /** Aborted when the CCM stops (or loses leadership). Stop background work then. */
  signal: AbortSignal;
}

/**
 * Upstream `cloudprovider.Interface`. Each capability accessor returns the implementation or
 * `undefined` when unsupported (upstream `(impl, false)`).
 */
export interface CloudProvider {
  /** Used to build provider IDs `<providerName>://<id>` and in logs. Stable: never change it. */
  readonly providerName: string;
  /** Called once, only after leadership is won, before any controller starts. */
  initialize?(context: CloudInitializeContext): Promise<void> | void;
  loadBalancer(): LoadBalancer | undefined;
  instances(): Instances | undefined;
  instancesV2(): InstancesV2 | undefined;
  zones(): Zones | undefined;
  clusters(): Clusters | undefined;
  routes(): Routes | undefined;
  hasClusterId(): boolean;
}

export interface CloudProviderFactoryContext {
  /** `--cloud-config` path (for error messages), when one was given. */
  configPath?: string;
  logger: Logger;
  /** Where providers publish their cloud API metrics (the runtime backs it with the registry `/metrics` serves). */
  metrics: MetricsSink;
}

/**
 * Upstream `cloudprovider.Factory`: receives the cloud-config file's text, or `undefined` when
 * no `--cloud-config` was given. Throw `CloudConfigError` (naming file and line) on bad config.
 */
export type CloudProviderFactory = (
  configText: string | undefined,
  context: CloudProviderFactoryContext,
) => CloudProvider | Promise<CloudProvider>;
