/**
 * The service (load balancer) controller, upstream `controllers/service/controller.go`: keeps a
 * cloud load balancer per Service of type LoadBalancer (without loadBalancerClass), its cleanup
 * finalizer, its ingress status and its backend node set.
 *
 * Services flow through the "service" queue (`--concurrent-service-syncs` workers); node events
 * flow through the "node" queue (one worker), each starting a host sync of every cached service.
 * Both queues back off per item from 5 s to 300 s. A provider RetryError requeues after its
 * fixed delay without counting as a failure. Every other error is retried with backoff, as
 * upstream, including `InvalidInput` (the provider's check may depend on cloud state). Only an
 * error of kind `PermanentInvalidInput` (input wrong whatever the cloud does, e.g. a malformed
 * annotation) is reported once and not retried until the service or a node changes.
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { errorMessage } from '../../util/error-message.js';
import type { Controller, ControllerConstructor, ControllerContext } from '../controller.js';
import type { EventRecorder, ServiceApi, SharedInformer } from '../../kube/ports.js';
import type { WorkQueue } from '../../kube/work-queue.js';
import type { Logger } from '../../logging/logger.js';
import { SERVICE_LB_CONTROLLER } from '../../names/controller-names.js';
import { asRetryError, isPermanentInvalidInput } from '../../provider/cloud-errors.js';
import type { LoadBalancer } from '../../provider/load-balancer.js';
import { abortableSleep } from '../../util/abortable-sleep.js';
import { LoadBalancerSync, type LoadBalancerOperation } from './load-balancer-sync.js';
import { shouldSyncUpdatedNode } from './node-predicates.js';
import { NodeSync } from './node-sync.js';
import { ServiceCache } from './service-cache.js';
import { registerServiceControllerMetrics, type ServiceControllerMetrics } from './service-metrics.js';
import { describeLoadBalancerUpdate, needsCleanup, wantsLoadBalancer } from './service-predicates.js';
import { serviceKey, serviceSubject, splitServiceKey, type ServiceSyncContext } from './service-sync-context.js';

/** Resync of the service handler: services that need cleanup are re-enqueued this often. */
export const SERVICE_SYNC_PERIOD_MS = 30_000;
export const SERVICE_MIN_RETRY_DELAY_MS = 5_000;
export const SERVICE_MAX_RETRY_DELAY_MS = 300_000;
/** A worker loop that failed unexpectedly restarts after this delay (upstream `wait.Until` period). */
const WORKER_RESTART_DELAY_MS = 1_000;
/** Event source component (`kubectl describe` shows it as `From`). */
export const SERVICE_CONTROLLER_EVENT_COMPONENT = 'service-controller';

export interface ServiceControllerOptions {
  loadBalancer: LoadBalancer;
  providerName: string;
  clusterName: string;
  services: ServiceApi;
  serviceInformer: SharedInformer<V1Service>;
  nodeInformer: SharedInformer<V1Node>;
  recorder: EventRecorder;
  serviceQueue: WorkQueue<string>;
  nodeQueue: WorkQueue<string>;
  metrics: ServiceControllerMetrics;
  logger: Logger;
  /** `--concurrent-service-syncs`: service workers and the parallelism of each node sync. */
  workers: number;
  /** Node listing override (tests inject lister failures); defaults to the node informer cache. */
  listNodes?: () => V1Node[];
}

export class ServiceController implements Controller {
  readonly name = SERVICE_LB_CONTROLLER;
  /** Last processed state per service key (upstream `serviceCache`). */
  readonly cache = new ServiceCache();
  /** Node set last handed to the cloud per service key. */
  readonly lastSyncedNodes = new Map<string, V1Node[]>();
  readonly serviceQueue: WorkQueue<string>;
  readonly nodeQueue: WorkQueue<string>;
  readonly loadBalancerSync: LoadBalancerSync;
  readonly nodeSync: NodeSync;
  readonly #options: ServiceControllerOptions;
  readonly #stop = new AbortController();
  readonly #logger: Logger;

  constructor(options: ServiceControllerOptions) {
    this.#options = options;
    this.#logger = options.logger;
    this.serviceQueue = options.serviceQueue;
    this.nodeQueue = options.nodeQueue;
    const context: ServiceSyncContext = {
      clusterName: options.clusterName,
      providerName: options.providerName,
      loadBalancer: options.loadBalancer,
      services: options.services,
      recorder: options.recorder,
      logger: options.logger,
      metrics: options.metrics,
      listNodes: options.listNodes ?? (() => options.nodeInformer.store.list()),
      lastSyncedNodes: this.lastSyncedNodes,
      signal: this.#stop.signal,
    };
    this.loadBalancerSync = new LoadBalancerSync(context);
    this.nodeSync = new NodeSync(context);
    // No delete handler: deletion works through the finalizer and deletionTimestamp.
    options.serviceInformer.addHandlers({
      onAdd: (service) => {
        if (wantsLoadBalancer(service) || needsCleanup(service)) this.enqueueService(service);
      },
      onUpdate: (oldService, newService) => {
        const update = describeLoadBalancerUpdate(oldService, newService);
        if (update !== undefined) {
          this.#logger.verbose(2, 'Service needs a load balancer sync', { service: serviceKey(newService), reason: update.reason });
          // Upstream needsUpdate records a Normal event for most changes (reasons Type, LoadbalancerIP, ...).
          if (update.event !== undefined) options.recorder.event(serviceSubject(newService), 'Normal', update.event.reason, update.event.message);
        }
        if (update !== undefined || needsCleanup(newService)) this.enqueueService(newService);
      },
    });
    options.nodeInformer.addHandlers({
      onAdd: (node) => this.enqueueNode(node),
      onUpdate: (oldNode, newNode) => {
        if (shouldSyncUpdatedNode(oldNode, newNode)) this.enqueueNode(newNode);
      },
      onDelete: (node) => this.enqueueNode(node),
    });
  }

  enqueueService(service: V1Service): void {
    if (!service.metadata?.name) return;
    this.serviceQueue.add(serviceKey(service));
  }

  enqueueNode(node: V1Node): void {
    const name = node.metadata?.name;
    if (name) this.nodeQueue.add(name);
  }

  async run(signal: AbortSignal): Promise<void> {
    const stop = (): void => this.#stop.abort(signal.reason);
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    this.#logger.info('Starting service controller');
    const workers: Array<Promise<void>> = [];
    let resync: ReturnType<typeof setInterval> | undefined;
    try {
      await Promise.all([this.#options.serviceInformer.waitForSync(this.#stop.signal), this.#options.nodeInformer.waitForSync(this.#stop.signal)]);
      if (this.#stop.signal.aborted) return;
      for (let index = 0; index < Math.max(1, this.#options.workers); index++) workers.push(this.#loop(() => this.processNextServiceItem()));
      // One node worker, so node events are never processed concurrently.
      workers.push(this.#loop(() => this.processNextNodeItem()));
      resync = setInterval(() => this.resyncServicesNeedingCleanup(), SERVICE_SYNC_PERIOD_MS);
      await new Promise<void>((resolve) => {
        if (this.#stop.signal.aborted) resolve();
        else this.#stop.signal.addEventListener('abort', () => resolve(), { once: true });
      });
    } catch (error) {
      if (!this.#stop.signal.aborted) throw error;
    } finally {
      if (resync !== undefined) clearInterval(resync);
      this.serviceQueue.shutDown();
      this.nodeQueue.shutDown();
      await Promise.all(workers);
      signal.removeEventListener('abort', stop);
      this.#logger.info('Shutting down service controller');
    }
  }

  /** Emulates the 30 s handler resync (old == new): only services needing cleanup are re-enqueued. */
  resyncServicesNeedingCleanup(): void {
    for (const service of this.#options.serviceInformer.store.list()) if (needsCleanup(service)) this.enqueueService(service);
  }

  async #loop(step: () => Promise<boolean>): Promise<void> {
    while (!this.#stop.signal.aborted) {
      let more: boolean;
      try {
        more = await step();
      } catch (error) {
        // Like wait.Until: a crashed loop restarts after a second, it never spins.
        this.#logger.error('service controller worker failed', { error: errorMessage(error) });
        await abortableSleep(WORKER_RESTART_DELAY_MS, this.#stop.signal);
        more = true;
      }
      if (!more) return;
    }
  }

  /** Processes one service key; false once the queue shut down. */
  async processNextServiceItem(): Promise<boolean> {
    const key = await this.serviceQueue.get();
    if (key === undefined) return false;
    try {
      if (this.#stop.signal.aborted) return false;
      try {
        await this.syncService(key);
        this.serviceQueue.forget(key);
      } catch (error) {
        const retry = asRetryError(error);
        if (isPermanentInvalidInput(error)) {
          // Input wrong whatever the cloud does: retrying cannot help. The Warning event is already out
          // (SyncLoadBalancerFailed); the service is synced again when it (or a node) changes.
          this.#logger.warn('service has an invalid configuration, not retrying until it changes', { service: key, error: errorMessage(error) });
          this.serviceQueue.forget(key);
        } else if (retry !== undefined) {
          this.#logger.warn('error processing service (retrying after the delay the provider asked for)', {
            service: key,
            retryAfterMs: retry.retryAfterMs,
            error: errorMessage(error),
          });
          this.serviceQueue.addAfter(key, retry.retryAfterMs);
        } else {
          this.#logger.error('error processing service (retrying with exponential backoff)', { service: key, error: errorMessage(error) });
          this.serviceQueue.addRateLimited(key);
        }
      }
      return true;
    } finally {
      this.serviceQueue.done(key);
    }
  }

  /** Processes one node event: a host sync of all cached services. */
  async processNextNodeItem(): Promise<boolean> {
    const key = await this.nodeQueue.get();
    if (key === undefined) return false;
    try {
      if (this.#stop.signal.aborted) return false;
      const servicesToRetry = await this.syncNodes(this.#options.workers);
      for (const serviceToRetry of servicesToRetry) this.serviceQueue.add(serviceToRetry);
      this.nodeQueue.forget(key);
      return true;
    } finally {
      this.nodeQueue.done(key);
    }
  }

  syncNodes(workers: number): Promise<Set<string>> {
    return this.nodeSync.syncNodes(this.cache.allServices(), workers);
  }

  updateLoadBalancerHosts(services: ReadonlyArray<V1Service | undefined>, workers: number): Promise<Set<string>> {
    return this.nodeSync.updateLoadBalancerHosts(services, workers);
  }

  /** Syncs the service with `key` from the informer cache; deleted services are cleaned up. */
  async syncService(key: string): Promise<void> {
    const start = performance.now();
    try {
      const { namespace, name } = splitServiceKey(key);
      const service = this.#options.serviceInformer.store.get(namespace === '' ? name : `${namespace}/${name}`);
      if (service === undefined) await this.processServiceDeletion(key);
      // Never modify informer objects: work on a copy.
      else await this.processServiceCreateOrUpdate(structuredClone(service), key);
    } finally {
      this.#logger.verbose(4, 'Finished syncing service', { service: key, durationMs: performance.now() - start });
    }
  }

  async processServiceCreateOrUpdate(service: V1Service, key: string): Promise<void> {
    const cached = this.cache.getOrCreate(key);
    if (cached.state !== undefined && cached.state.metadata?.uid !== service.metadata?.uid) {
      // Deleted and re-created quickly (possible only without the finalizer): clean up the old one.
      await this.processLoadBalancerDelete(cached.state, key);
    }
    // Always cache: needed to delete the load balancer if the service vanishes without finalizer.
    cached.state = service;
    let operation: LoadBalancerOperation;
    try {
      operation = await this.loadBalancerSync.syncLoadBalancerIfNeeded(service, key);
    } catch (error) {
      this.#options.recorder.event(serviceSubject(service), 'Warning', 'SyncLoadBalancerFailed', `Error syncing load balancer: ${errorMessage(error)}`);
      throw error;
    }
    // Only forget the service once its load balancer was deleted successfully.
    if (operation === 'delete') this.#forget(key);
  }

  async processServiceDeletion(key: string): Promise<void> {
    const cached = this.cache.get(key);
    // Not cached: we never created a load balancer for it, or already deleted it.
    if (cached === undefined) return;
    this.#logger.verbose(2, 'Service has been deleted. Attempting to cleanup load balancer resources', { service: key });
    if (cached.state !== undefined) await this.processLoadBalancerDelete(cached.state, key);
    this.#forget(key);
  }

  async processLoadBalancerDelete(service: V1Service, key: string): Promise<void> {
    if (!wantsLoadBalancer(service)) return;
    const { recorder, loadBalancer, clusterName } = this.#options;
    const subject = serviceSubject(service);
    recorder.event(subject, 'Normal', 'DeletingLoadBalancer', 'Deleting load balancer');
    try {
      await loadBalancer.ensureLoadBalancerDeleted(clusterName, service, { signal: this.#stop.signal });
    } catch (error) {
      recorder.event(subject, 'Warning', 'DeleteLoadBalancerFailed', `Error deleting load balancer: ${errorMessage(error)}`);
      throw error;
    }
    recorder.event(subject, 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer');
    this.#logger.verbose(2, 'Deleted load balancer of deleted service', { service: key });
  }

  #forget(key: string): void {
    this.cache.delete(key);
    this.lastSyncedNodes.delete(key);
  }
}

/**
 * Builds the service controller, or `{ skipped }` when the provider has no LoadBalancer
 * (upstream: `New` fails, the error is logged and the controller is reported as not started).
 */
export const createServiceController: ControllerConstructor = (context: ControllerContext) => {
  const loadBalancer = context.cloud.loadBalancer?.();
  if (loadBalancer === undefined) return { skipped: 'the cloud provider does not support external load balancers' };
  // Upstream's service controller uses only the per-item backoff (5 s .. 300 s), not the default
  // controller rate limiter's overall 10 qps / burst 100 bucket.
  const queueOptions = { baseDelayMs: SERVICE_MIN_RETRY_DELAY_MS, maxDelayMs: SERVICE_MAX_RETRY_DELAY_MS, overallQps: Infinity };
  return new ServiceController({
    loadBalancer,
    providerName: context.cloud.providerName,
    clusterName: context.config.clusterName,
    services: context.kube.services,
    serviceInformer: context.kube.serviceInformer,
    nodeInformer: context.kube.nodeInformer,
    recorder: context.kube.eventRecorder(SERVICE_CONTROLLER_EVENT_COMPONENT),
    serviceQueue: context.createWorkQueue<string>({ name: 'service', ...queueOptions }),
    nodeQueue: context.createWorkQueue<string>({ name: 'node', ...queueOptions }),
    metrics: registerServiceControllerMetrics(context.metrics),
    logger: context.logger.child({ controller: 'service' }),
    workers: Math.max(1, context.config.concurrentServiceSyncs),
  });
};
