/**
 * Composition root of the Kubernetes access layer over @kubernetes/client-node: the Node and
 * Service APIs, the node and service informers (services in all namespaces), Secret informers
 * for the provider, and event recorders, all sharing one client-side token bucket (`--kube-api-qps` / `--kube-api-burst`).
 */
import { CoreV1Api, type KubeConfig, type V1Node, type V1Secret, type V1Service } from '@kubernetes/client-node';
import type { Registry } from 'prom-client';
import type { Logger } from '../../logging/logger.js';
import { errorMessage } from '../../util/error-message.js';
import { EventBroadcaster } from '../event-recorder.js';
import type { EventRecorder, KubeAccess, NodeApi, ServiceApi } from '../ports.js';
import { TokenBucket } from '../token-bucket.js';
import { createClientNodeEventSink } from './client-node-event-sink.js';
import { createClientNodeNodeApi } from './client-node-node-api.js';
import { createClientNodeServiceApi } from './client-node-service-api.js';
import { JsonWriteClient } from './json-write-client.js';
import { listNodes, listSecrets, listServicesInAllNamespaces } from './list-functions.js';
import { RequestExecutor } from './request-executor.js';
import { restClientMetrics } from './rest-client-metrics.js';
import { ResilientInformer } from './resilient-informer.js';
import { shareDispatcher } from './share-dispatcher.js';
import { createUndiciWatch } from './undici-watch.js';

/** Upstream `--min-resync-period` default: 12 h. */
export const DEFAULT_MIN_RESYNC_PERIOD_MS = 12 * 60 * 60 * 1000;

export interface CreateKubeAccessOptions {
  kubeConfig: KubeConfig;
  /** `--kube-api-qps` (upstream CCM default 20); 0 means client-go's default 5, negative disables throttling. */
  qps: number;
  /** `--kube-api-burst` (upstream CCM default 30); 0 means client-go's default 10. */
  burst: number;
  userAgent: string;
  logger: Logger;
  /** Registry for client-go's `rest_client_*` metrics. */
  metrics?: Registry;
  /**
   * `--min-resync-period`: each informer resyncs at a random period in [min, 2×min), like
   * upstream's shared informer factory. 0 disables resyncs. Default 12 h.
   */
  minResyncPeriodMs?: number;
  random?: () => number;
}

/** client-go `rest.DefaultQPS` / `rest.DefaultBurst`: what a QPS or burst of 0 means. */
export const CLIENT_DEFAULT_QPS = 5;
export const CLIENT_DEFAULT_BURST = 10;

/**
 * The client-side token bucket settings for `--kube-api-qps` / `--kube-api-burst`, as client-go's
 * `RESTClientFor`: 0 means the default (5 qps, burst 10), a negative QPS disables throttling.
 */
export function clientRateLimit(qps: number, burst: number): { qps: number; burst: number } {
  const effectiveQps = qps === 0 ? CLIENT_DEFAULT_QPS : qps;
  const effectiveBurst = burst === 0 ? CLIENT_DEFAULT_BURST : burst;
  return { qps: effectiveQps > 0 ? effectiveQps : Infinity, burst: Math.max(1, effectiveBurst) };
}

export interface ClientNodeKubeAccess extends KubeAccess {
  readonly nodeInformer: ResilientInformer<V1Node>;
  readonly serviceInformer: ResilientInformer<V1Service>;
  /**
   * The Secrets of `namespace` (only `name`, when given), one informer per namespace and name,
   * created on first use; started with the others (at once when they already run).
   */
  secretInformer(namespace: string, name?: string): ResilientInformer<V1Secret>;
  /** Starts the informers; they stop when `signal` aborts (or on `stop()`). */
  start(signal: AbortSignal): void;
  /** Stops the informers and the event writer. Idempotent. */
  stop(): void;
  /** Resolves once queued events have been written (call before `stop()` on shutdown). */
  flushEvents(): Promise<void>;
  /** Why the informers have not synced (the last list/watch error), or undefined. */
  syncProblem(): string | undefined;
  /** The API server URL of the kubeconfig. */
  readonly serverUrl: string;
}

export function createKubeAccess(options: CreateKubeAccessOptions): ClientNodeKubeAccess {
  // One connection pool for every request and watch, instead of client-node's agent per request.
  shareDispatcher(options.kubeConfig);
  const logger = options.logger.child({ component: 'kube-access' });
  const bucket = new TokenBucket(clientRateLimit(options.qps, options.burst));
  const server = options.kubeConfig.getCurrentCluster()?.server ?? '';
  const host = URL.canParse(server) ? new URL(server).host : server;
  const executor = new RequestExecutor({ bucket, userAgent: options.userAgent, logger, metrics: restClientMetrics(options.metrics, host) });
  const core = options.kubeConfig.makeApiClient(CoreV1Api);
  const watch = createUndiciWatch(options.kubeConfig);
  const random = options.random ?? Math.random;
  const minResync = options.minResyncPeriodMs ?? DEFAULT_MIN_RESYNC_PERIOD_MS;
  const resyncPeriod = (): number => (minResync > 0 ? Math.floor(minResync * (1 + random())) : 0);
  const throttle = (): Promise<void> => executor.throttle();

  const nodeInformer = new ResilientInformer<V1Node>({
    resource: 'nodes',
    apiVersion: 'v1',
    kind: 'Node',
    model: 'V1Node',
    watchPath: '/api/v1/nodes',
    list: listNodes(core, executor),
    watch,
    throttle,
    logger,
    resyncPeriodMs: resyncPeriod(),
    random,
  });
  const serviceInformer = new ResilientInformer<V1Service>({
    resource: 'services',
    apiVersion: 'v1',
    kind: 'Service',
    model: 'V1Service',
    watchPath: '/api/v1/services',
    list: listServicesInAllNamespaces(core, executor),
    watch,
    throttle,
    logger,
    resyncPeriodMs: resyncPeriod(),
    random,
  });
  const secretInformers = new Map<string, ResilientInformer<V1Secret>>();
  let started = false;
  const secretInformer = (namespace: string, name?: string): ResilientInformer<V1Secret> => {
    const key = name === undefined ? namespace : `${namespace}/${name}`;
    let informer = secretInformers.get(key);
    if (informer === undefined) {
      const fieldSelector = name === undefined ? undefined : `metadata.name=${name}`;
      informer = new ResilientInformer<V1Secret>({
        resource: 'secrets',
        apiVersion: 'v1',
        kind: 'Secret',
        model: 'V1Secret',
        watchPath: `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets`,
        ...(fieldSelector === undefined ? {} : { watchQuery: { fieldSelector } }),
        list: listSecrets(core, executor, namespace, fieldSelector),
        watch,
        throttle,
        logger,
        resyncPeriodMs: resyncPeriod(),
        random,
      });
      secretInformers.set(key, informer);
      if (started && !stopped) informer.start();
    }
    return informer;
  };
  const writes = new JsonWriteClient(options.kubeConfig, options.userAgent);
  const broadcaster = new EventBroadcaster({ sink: createClientNodeEventSink(core, executor, writes), logger });
  const recorders = new Map<string, EventRecorder>();
  const nodes: NodeApi = createClientNodeNodeApi(core, executor, writes);
  const services: ServiceApi = createClientNodeServiceApi(core, executor);
  let stopped = false;

  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    broadcaster.shutdown();
    void Promise.all([nodeInformer.stop(), serviceInformer.stop(), ...[...secretInformers.values()].map((informer) => informer.stop())]).catch((error: unknown) =>
      logger.error('Stopping informers failed', { error: errorMessage(error) }),
    );
  };

  return {
    nodes,
    services,
    nodeInformer,
    serviceInformer,
    secretInformer,
    eventRecorder(component: string): EventRecorder {
      let recorder = recorders.get(component);
      if (recorder === undefined) {
        recorder = broadcaster.recorder(component);
        recorders.set(component, recorder);
      }
      return recorder;
    },
    start(signal: AbortSignal): void {
      if (stopped) throw new Error('kube access was stopped; create a new one');
      if (signal.aborted) return stop();
      signal.addEventListener('abort', stop, { once: true });
      started = true;
      nodeInformer.start();
      serviceInformer.start();
      for (const informer of secretInformers.values()) informer.start();
    },
    stop,
    flushEvents: () => broadcaster.flush(),
    syncProblem: () => nodeInformer.syncProblem() ?? serviceInformer.syncProblem(),
    serverUrl: server,
  };
}
