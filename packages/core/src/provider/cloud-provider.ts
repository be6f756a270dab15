import type { KubeConfig, V1Node, V1Secret } from '@kubernetes/client-node';
import type { EventRecorder, SharedInformer } from '../kube/ports.js';
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

/**
 * Informers the runtime shares with the provider (upstream `SetInformers`): the provider adds
 * handlers during `initialize`; the runtime starts them right after it and stops them with the
 * CCM, so a provider never starts its own watch of nodes or secrets.
 */
export interface ProviderInformers {
  /** The controllers' own Node informer. */
  readonly nodes: SharedInformer<V1Node>;
  /**
   * Secrets of `namespace` (only the one called `name`, when given: a field selector, so the
   * provider needs no list permission on the other Secrets' contents). Shared: the same
   * namespace and name give the same informer.
   */
  secrets(namespace: string, name?: string): SharedInformer<V1Secret>;
}

export interface CloudInitializeContext {
  clientBuilder: ControllerClientBuilder;
  logger: Logger;
  /** Aborted when the CCM stops (or loses leadership). Stop background work then. */
  signal: AbortSignal;
  /** Informers shared with the controllers (nodes, secrets). */
  informers: ProviderInformers;
  /**
   * An event recorder reporting as `component` (upstream providers keep their own broadcaster,
   * e.g. GCE's `g-cloudprovider`): events on the Services and Nodes the provider is given, with
   * the runtime's aggregation and spam filter.
   */
  eventRecorder(component: string): EventRecorder;
}

/**
 * Upstream `cloudprovider.Interface`. Capabilities are optional: a provider declares only the
 * accessors it has. A missing accessor, or one that returns `undefined` (a capability disabled
 * by configuration), is upstream's `(nil, false)`: the controllers treat both the same.
 */
export interface CloudProvider {
  /** Used to build provider IDs `<providerName>://<id>` and in logs. Stable: never change it. */
  readonly providerName: string;
  /** Called once, only after leadership is won, before any controller starts. */
  initialize?(context: CloudInitializeContext): Promise<void> | void;
  loadBalancer?(): LoadBalancer | undefined;
  /** Deprecated upstream; InstancesV2 replaces it. */
  instances?(): Instances | undefined;
  instancesV2?(): InstancesV2 | undefined;
  /** Deprecated upstream; only used on the Instances v1 path. */
  zones?(): Zones | undefined;
  clusters?(): Clusters | undefined;
  routes?(): Routes | undefined;
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
