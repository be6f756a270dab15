/**
 * Keeps load balancer backends in step with the node set (upstream `syncNodes`,
 * `updateLoadBalancerHosts`, `nodeSyncService`, `lockedUpdateLoadBalancerHosts`).
 *
 * Every relevant node event compares, for ALL cached load balancer services and with bounded
 * parallelism, the stable node set against the set last sent to the cloud; only services whose
 * name -> providerID map changed get UpdateLoadBalancer. The new set is recorded before the
 * cloud call; a failed update is retried through the service queue (a full Ensure).
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { isImplementedElsewhere } from '../../provider/cloud-errors.js';
import { errorMessage } from '../../util/error-message.js';
import { filterWithPredicates, loggableNodeNames, nodesSufficientlyEqual, stableNodeSetPredicates } from './node-predicates.js';
import { parallelizeUntil } from './parallelize.js';
import { wantsLoadBalancer } from './service-predicates.js';
import { goStringList, serviceKey, serviceSubject, type ServiceSyncContext } from './service-sync-context.js';

const secondsSince = (startMs: number): number => (performance.now() - startMs) / 1000;

export class NodeSync {
  readonly #context: ServiceSyncContext;

  constructor(context: ServiceSyncContext) {
    this.#context = context;
  }

  /** Syncs the hosts of every service in `services`; returns the keys to retry via the service queue. */
  async syncNodes(services: ReadonlyArray<V1Service | undefined>, workers: number): Promise<Set<string>> {
    const start = performance.now();
    try {
      this.#context.logger.verbose(2, 'Syncing backends for all LB services');
      const servicesToRetry = await this.updateLoadBalancerHosts(services, workers);
      this.#context.logger.verbose(2, 'Successfully updated load balancers to direct traffic to the updated set of nodes', {
        updated: services.length - servicesToRetry.size,
        total: services.length,
      });
      return servicesToRetry;
    } finally {
      this.#context.metrics.nodeSyncLatency.observe(secondsSince(start));
    }
  }

  /** nodeSyncService for every service, `workers` at a time. */
  async updateLoadBalancerHosts(services: ReadonlyArray<V1Service | undefined>, workers: number): Promise<Set<string>> {
    const servicesToRetry = new Set<string>();
    await parallelizeUntil(
      workers,
      services.length,
      async (piece) => {
        const service = services[piece];
        if (service !== undefined && (await this.nodeSyncService(service))) servicesToRetry.add(serviceKey(service));
      },
      this.#context.signal,
    );
    return servicesToRetry;
  }

  /** Returns true when the service must be retried. */
  async nodeSyncService(service: V1Service | undefined): Promise<boolean> {
    if (service === undefined || service === null || !wantsLoadBalancer(service)) return false;
    const { logger, metrics, lastSyncedNodes } = this.#context;
    const key = serviceKey(service);
    let allNodes: V1Node[];
    try {
      allNodes = this.#context.listNodes();
    } catch (error) {
      logger.error('failed to retrieve node list', { service: key, error: errorMessage(error) });
      metrics.nodeSyncErrorCount.inc();
      return true;
    }
    const newNodes = filterWithPredicates(allNodes, stableNodeSetPredicates);
    const oldNodes = filterWithPredicates(lastSyncedNodes.get(key) ?? [], stableNodeSetPredicates);
    // Stored before the cloud call: failures are retried through the service queue, and storing
    // now avoids a second, redundant update from the service sync.
    lastSyncedNodes.set(key, newNodes);
    if (nodesSufficientlyEqual(oldNodes, newNodes)) return false;
    logger.verbose(4, 'nodeSyncService started', { service: key });
    try {
      await this.lockedUpdateLoadBalancerHosts(service, newNodes);
    } catch (error) {
      logger.error('failed to update load balancer hosts', { service: key, error: errorMessage(error) });
      metrics.nodeSyncErrorCount.inc();
      return true;
    }
    logger.verbose(4, 'nodeSyncService finished successfully', { service: key });
    return false;
  }

  /** UpdateLoadBalancer with `hosts`; throws only when the update failed and the LB still exists. */
  async lockedUpdateLoadBalancerHosts(service: V1Service, hosts: V1Node[]): Promise<void> {
    const { loadBalancer, clusterName, recorder, logger, metrics } = this.#context;
    const start = performance.now();
    metrics.loadBalancerSyncCount.inc();
    const subject = serviceSubject(service);
    try {
      logger.verbose(2, 'Updating backends for load balancer', { service: serviceKey(service), nodeCount: hosts.length, nodes: loggableNodeNames(hosts) });
      try {
        // Upstream uses context.TODO() here: a host update is not cut short by shutdown.
        await loadBalancer.updateLoadBalancer(clusterName, service, hosts);
      } catch (error) {
        if (isImplementedElsewhere(error)) return;
        // Only an error if the load balancer still exists.
        try {
          const { exists } = await loadBalancer.getLoadBalancer(clusterName, service);
          if (!exists) return;
        } catch (getError) {
          logger.error('failed to check if load balancer exists for service', { service: serviceKey(service), error: errorMessage(getError) });
        }
        recorder.event(
          subject,
          'Warning',
          'UpdateLoadBalancerFailed',
          `Error updating load balancer with new hosts ${goStringList(loggableNodeNames(hosts))} [node names limited, total number of nodes: ${hosts.length}], error: ${errorMessage(error)}`,
        );
        throw error;
      }
      if (hosts.length === 0) recorder.event(subject, 'Warning', 'UnAvailableLoadBalancer', 'There are no available nodes for LoadBalancer');
      else recorder.event(subject, 'Normal', 'UpdatedLoadBalancer', 'Updated load balancer with new hosts');
    } finally {
      metrics.updateLoadBalancerHostLatency.observe(secondsSince(start));
    }
  }
}
