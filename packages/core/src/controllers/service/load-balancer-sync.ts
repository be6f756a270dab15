/**
 * Creates, updates or deletes one service's load balancer (upstream `syncLoadBalancerIfNeeded`,
 * `ensureLoadBalancer`, `addFinalizer`, `removeFinalizer`, `patchStatus`).
 *
 * Ensure path: event EnsuringLoadBalancer, finalizer added BEFORE the cloud call, the stable node
 * set recorded as last synced, EnsureLoadBalancer, event EnsuredLoadBalancer, status patched only
 * if the ingress changed. Delete path: GetLoadBalancer, EnsureLoadBalancerDeleted when it exists,
 * the finalizer removed even when nothing existed, event DeletedLoadBalancer, ingress cleared.
 */
import type { V1LoadBalancerStatus, V1Service } from '@kubernetes/client-node';
import { isKubeNotFound } from '../../kube/kube-api-error.js';
import { isImplementedElsewhere } from '../../provider/cloud-errors.js';
import type { LoadBalancerStatus } from '../../provider/load-balancer.js';
import { errorMessage } from '../../util/error-message.js';
import { filterWithPredicates, stableNodeSetPredicates } from './node-predicates.js';
import { hasLoadBalancerFinalizer, LOAD_BALANCER_CLEANUP_FINALIZER, loadBalancerStatusEqual, patchService } from './service-helpers.js';
import { needsCleanup, wantsLoadBalancer } from './service-predicates.js';
import { serviceKey, serviceSubject, type ServiceSyncContext } from './service-sync-context.js';

export type LoadBalancerOperation = 'ensure' | 'delete';

/** An error wrapping another like Go's `%v` (message only) or `%w` (keeps the cause chain). */
function wrapError(prefix: string, error: unknown, keepCause: boolean): Error {
  return keepCause ? new Error(`${prefix}: ${errorMessage(error)}`, { cause: error }) : new Error(`${prefix}: ${errorMessage(error)}`);
}

export class LoadBalancerSync {
  readonly #context: ServiceSyncContext;

  constructor(context: ServiceSyncContext) {
    this.#context = context;
  }

  /** Returns the operation taken; throws (with upstream's wrapping) when it failed. */
  async syncLoadBalancerIfNeeded(service: V1Service, key: string): Promise<LoadBalancerOperation> {
    const { loadBalancer, clusterName, recorder, logger, signal } = this.#context;
    const previousStatus = structuredClone(service.status?.loadBalancer ?? {});
    let newStatus: LoadBalancerStatus;
    let operation: LoadBalancerOperation;
    const subject = serviceSubject(service);

    if (!wantsLoadBalancer(service) || needsCleanup(service)) {
      operation = 'delete';
      newStatus = {};
      let exists: boolean;
      try {
        ({ exists } = await loadBalancer.getLoadBalancer(clusterName, service, { signal }));
      } catch (error) {
        throw wrapError('failed to check if load balancer exists before cleanup', error, false);
      }
      if (exists) {
        logger.verbose(2, 'Deleting existing load balancer for service', { service: key });
        recorder.event(subject, 'Normal', 'DeletingLoadBalancer', 'Deleting load balancer');
        try {
          await loadBalancer.ensureLoadBalancerDeleted(clusterName, service, { signal });
        } catch (error) {
          if (!isImplementedElsewhere(error)) throw wrapError('failed to delete load balancer', error, false);
          logger.verbose(4, 'Load balancer implemented by a different controller, ignoring error on deletion', {
            service: key,
            provider: this.#context.providerName,
          });
        }
      }
      // Always remove the finalizer once the load balancer is gone, so the service can go.
      try {
        await this.removeFinalizer(service);
      } catch (error) {
        throw wrapError('failed to remove load balancer cleanup finalizer', error, false);
      }
      recorder.event(subject, 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer');
    } else {
      operation = 'ensure';
      logger.verbose(2, 'Ensuring load balancer for service', { service: key });
      recorder.event(subject, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer');
      // Always add the finalizer before creating cloud resources: the service cannot vanish
      // until they are deleted.
      try {
        await this.addFinalizer(service);
      } catch (error) {
        throw wrapError('failed to add load balancer cleanup finalizer', error, false);
      }
      let ensured: LoadBalancerStatus | undefined;
      try {
        ensured = await this.ensureLoadBalancer(service);
      } catch (error) {
        if (isImplementedElsewhere(error)) {
          logger.verbose(4, 'Load balancer implemented by a different controller, ignoring error', { service: key, provider: this.#context.providerName });
          return operation;
        }
        // Keeps the cause so a RetryError stays detectable (upstream `%w`).
        throw wrapError('failed to ensure load balancer', error, true);
      }
      if (ensured === undefined || ensured === null) throw new Error('service status returned by EnsureLoadBalancer is nil');
      newStatus = ensured;
      recorder.event(subject, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer');
    }

    try {
      await this.patchStatus(service, previousStatus, newStatus);
    } catch (error) {
      // NotFound mostly means the service vanished right after the finalizer was removed.
      if (!isKubeNotFound(error)) throw wrapError('failed to update load balancer status', error, false);
    }
    return operation;
  }

  /** EnsureLoadBalancer with the stable node set, which is recorded first as the last synced set. */
  async ensureLoadBalancer(service: V1Service): Promise<LoadBalancerStatus | undefined> {
    const { loadBalancer, clusterName, recorder, lastSyncedNodes, signal } = this.#context;
    const nodes = filterWithPredicates(this.#context.listNodes(), stableNodeSetPredicates);
    if (nodes.length === 0) {
      recorder.event(serviceSubject(service), 'Warning', 'UnAvailableLoadBalancer', 'There are no available nodes for LoadBalancer');
    }
    lastSyncedNodes.set(serviceKey(service), nodes);
    return loadBalancer.ensureLoadBalancer(clusterName, service, nodes, { signal });
  }

  /** Patches in the cleanup finalizer unless present. */
  async addFinalizer(service: V1Service): Promise<void> {
    if (hasLoadBalancerFinalizer(service)) return;
    const updated = structuredClone(service);
    updated.metadata = { ...updated.metadata, finalizers: [...(updated.metadata?.finalizers ?? []), LOAD_BALANCER_CLEANUP_FINALIZER] };
    this.#context.logger.verbose(2, 'Adding finalizer to service', { service: serviceKey(service) });
    await patchService(this.#context.services, service, updated);
  }

  /** Patches out the cleanup finalizer if present. */
  async removeFinalizer(service: V1Service): Promise<void> {
    if (!hasLoadBalancerFinalizer(service)) return;
    const updated = structuredClone(service);
    updated.metadata = { ...updated.metadata, finalizers: (updated.metadata?.finalizers ?? []).filter((item) => item !== LOAD_BALANCER_CLEANUP_FINALIZER) };
    this.#context.logger.verbose(2, 'Removing finalizer from service', { service: serviceKey(service) });
    await patchService(this.#context.services, service, updated);
  }

  /** Patches `status.loadBalancer` through the status subresource, only when the ingress changed. */
  async patchStatus(service: V1Service, previousStatus: LoadBalancerStatus | V1LoadBalancerStatus, newStatus: LoadBalancerStatus | V1LoadBalancerStatus): Promise<void> {
    if (loadBalancerStatusEqual(previousStatus, newStatus)) return;
    const updated = structuredClone(service);
    updated.status = { ...updated.status, loadBalancer: structuredClone(newStatus) as V1LoadBalancerStatus };
    this.#context.logger.verbose(2, 'Patching status for service', { service: serviceKey(service) });
    await patchService(this.#context.services, service, updated);
  }
}
