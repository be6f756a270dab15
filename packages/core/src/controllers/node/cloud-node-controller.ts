/**
 * The cloud node controller (upstream `controllers/node/node_controller.go`): initializes nodes
 * that carry the `node.cloudprovider.kubernetes.io/uninitialized` taint with the cloud's provider
 * ID, instance type, topology labels and addresses, then removes the taint; keeps beta/GA labels
 * consistent; and refreshes the addresses of initialized nodes every
 * `--node-status-update-frequency`.
 */
import type { V1Node } from '@kubernetes/client-node';
import type { EventRecorder, ObjectStore } from '../../kube/ports.js';
import type { WorkQueue } from '../../kube/work-queue.js';
import type { Logger } from '../../logging/logger.js';
import { CLOUD_NODE_CONTROLLER } from '../../names/controller-names.js';
import { forEachConcurrently, runUntilAborted } from '../../node-helpers/async-helpers.js';
import { retryOnConflict, UPDATE_NODE_SPEC_BACKOFF, type RetryOptions } from '../../node-helpers/conflict-retry.js';
import { NodeAddressError } from '../../node-helpers/node-addresses.js';
import { planLabelReconcile } from '../../node-helpers/node-labels.js';
import { addOrUpdateLabelsOnNode } from '../../node-helpers/node-metadata-updates.js';
import { hasUninitializedTaint } from '../../node-helpers/taints.js';
import type { NodeAddress } from '../../provider/node-address.js';
import { errorMessage } from '../../util/error-message.js';
import type { Controller, ControllerConfig, ControllerConstructor, ControllerContext } from '../controller.js';
import { getInstanceMetadata, getInstanceNodeAddresses } from './instance-metadata.js';
import { buildNodeAddressesPatch, planNodeAddressUpdate } from './node-address-update.js';
import { nodeControllerMetrics, type NodeControllerMetrics } from './node-controller-metrics.js';
import { planNodeInitialization } from './node-initialization.js';

/** The event source component (upstream). */
export const CLOUD_NODE_CONTROLLER_EVENT_COMPONENT = 'cloud-node-controller';
export const NODE_SYNCED_REASON = 'Synced';
export const NODE_SYNCED_MESSAGE = 'Node synced successfully';
/**
 * Warning event when the provided-node-ip annotation cannot be satisfied (not upstream: upstream
 * only logs; we also tell the node's owner why the node stays tainted).
 */
export const INVALID_PROVIDED_NODE_IP_REASON = 'InvalidProvidedNodeIP';
export const INSTANCES_NOT_SUPPORTED = 'cloud provider does not support instances';

export interface CloudNodeControllerOptions {
  /** Current time in ms (metrics); defaults to Date.now. */
  now?: () => number;
  /** Conflict-retry sleep/random injection for tests. */
  retry?: RetryOptions;
}


const nodeSubject = (node: V1Node) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: node.metadata?.name ?? '', ...(node.metadata?.uid === undefined ? {} : { uid: node.metadata.uid }) },
});

function secondsSinceCreation(node: V1Node, now: number): number | undefined {
  const created = node.metadata?.creationTimestamp;
  if (created === undefined) return undefined;
  const time = new Date(created).getTime();
  return Number.isNaN(time) ? undefined : (now - time) / 1000;
}

/** `--concurrent-node-status-updates`, falling back to `--concurrent-node-syncs` when 0. */
export function statusUpdateWorkerCount(config: Pick<ControllerConfig, 'concurrentNodeStatusUpdates' | 'concurrentNodeSyncs'>): number {
  return Math.max(1, config.concurrentNodeStatusUpdates > 0 ? config.concurrentNodeStatusUpdates : config.concurrentNodeSyncs);
}

export class CloudNodeController implements Controller {
  readonly name = CLOUD_NODE_CONTROLLER;
  readonly #context: ControllerContext;
  readonly #logger: Logger;
  readonly #recorder: EventRecorder;
  readonly #queue: WorkQueue<string>;
  readonly #metrics: NodeControllerMetrics;
  readonly #now: () => number;
  readonly #retry: RetryOptions | undefined;

  constructor(context: ControllerContext, options: CloudNodeControllerOptions = {}) {
    if (context.cloud.instances?.() === undefined && context.cloud.instancesV2?.() === undefined) throw new Error(INSTANCES_NOT_SUPPORTED);
    this.#context = context;
    this.#logger = context.logger.child({ controller: CLOUD_NODE_CONTROLLER });
    this.#recorder = context.kube.eventRecorder(CLOUD_NODE_CONTROLLER_EVENT_COMPONENT);
    this.#queue = context.createWorkQueue<string>({ name: 'Nodes' });
    this.#metrics = nodeControllerMetrics(context.metrics);
    this.#now = options.now ?? Date.now;
    this.#retry = options.retry;
    // Nodes that exist before the controller starts arrive as adds. There is no delete handler.
    context.kube.nodeInformer.addHandlers({
      onAdd: (node) => this.#enqueueNode(node),
      onUpdate: (_oldNode, newNode) => this.#enqueueNode(newNode),
    });
  }

  get #store(): ObjectStore<V1Node> {
    return this.#context.kube.nodeInformer.store;
  }

  /** The work queue (exposed for tests and diagnostics). */
  get queue(): WorkQueue<string> {
    return this.#queue;
  }

  /**
   * Upstream enqueues every add/update and lets `syncNode` decide; a node only has work when it
   * is still tainted or its beta/GA labels disagree, so only those are enqueued (same outcome,
   * no queue churn on every status heartbeat).
   */
  #enqueueNode(node: V1Node): void {
    const name = node.metadata?.name;
    if (name === undefined || name === '') {
      this.#logger.error('dropping a node event without a name');
      return;
    }
    if (hasUninitializedTaint(node) || Object.keys(planLabelReconcile(node.metadata?.labels)).length > 0) this.#queue.add(name);
  }

  async run(signal: AbortSignal): Promise<void> {
    try {
      await this.#context.kube.nodeInformer.waitForSync(signal);
    } catch (error) {
      this.#queue.shutDown();
      if (signal.aborted) return;
      throw error;
    }
    const statusLoop = runUntilAborted(() => this.updateNodeStatus(signal), this.#context.config.nodeStatusUpdateFrequencyMs, signal, (error) =>
      this.#logger.error(`failed to update node status: ${errorMessage(error)}`),
    );
    const workers = Array.from({ length: Math.max(1, this.#context.config.concurrentNodeSyncs) }, () => this.#runWorker(signal));
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    this.#queue.shutDown();
    await Promise.all([statusLoop, ...workers]);
  }

  async #runWorker(signal: AbortSignal): Promise<void> {
    for (;;) {
      const key = await this.#queue.get();
      if (key === undefined) return;
      try {
        await this.syncNode(key, signal);
        this.#queue.forget(key);
      } catch (error) {
        this.#queue.addRateLimited(key);
        this.#logger.error(`error syncing '${key}': ${errorMessage(error)}, requeuing`, { node: key });
      } finally {
        this.#queue.done(key);
      }
    }
  }

  /**
   * Upstream `syncNode`: initializes a tainted node, or reconciles the labels of an initialized one.
   * Throws to request a rate-limited requeue.
   */
  async syncNode(nodeName: string, signal?: AbortSignal): Promise<void> {
    const cached = this.#store.get(nodeName);
    if (cached === undefined) return;
    if (!hasUninitializedTaint(cached)) {
      await this.reconcileNodeLabels(nodeName);
      return;
    }
    this.#logger.info(`Initializing node ${nodeName} with cloud provider`, { node: nodeName });
    const callOptions = signal === undefined ? undefined : { signal };

    let metadata;
    try {
      metadata = await getInstanceMetadata(this.#context.cloud, cached, this.#logger, callOptions);
    } catch (error) {
      throw new Error(`failed to get instance metadata for node ${nodeName}: ${errorMessage(error)}`, { cause: error });
    }
    if (metadata === undefined) {
      this.#logger.info(`Skip sync node ${nodeName} because cloud provided nil metadata`, { node: nodeName });
      return;
    }

    let initialization;
    try {
      initialization = planNodeInitialization(cached, metadata);
    } catch (error) {
      if (error instanceof NodeAddressError) this.#recorder.event(nodeSubject(cached), 'Warning', INVALID_PROVIDED_NODE_IP_REASON, error.message);
      throw new Error(`failed to get node modifiers from cloud provider: ${errorMessage(error)}`, { cause: error });
    }

    const nodeAddresses = metadata.nodeAddresses;
    const initializedNode = await retryOnConflict(
      UPDATE_NODE_SPEC_BACKOFF,
      async (attemptIndex) => {
        // The first attempt uses the informer's copy; after a conflict, read the current object.
        const current = attemptIndex === 0 ? cached : await this.#context.kube.nodes.get(nodeName);
        // A deliberate difference from upstream (which re-applies its modifiers to whatever it
        // reads): when the conflict came from this node's own initialization finishing (a sync
        // queued from a stale cache), writing again would put the cloud's labels back over any
        // change made since. The node is initialized: nothing to do.
        if (attemptIndex > 0 && !hasUninitializedTaint(current)) {
          this.#logger.info(`Node ${nodeName} was initialized meanwhile; skipping its initialization`, { node: nodeName });
          return undefined;
        }
        const { node: newNode, discardedLabels } = initialization.apply(current);
        await this.#context.kube.nodes.update(newNode);
        const delay = secondsSinceCreation(newNode, this.#now());
        if (delay !== undefined) this.#metrics.taintRemovalDelay.observe(delay);
        for (const label of discardedLabels) {
          if (!label.warn) continue;
          this.#logger.warn(
            label.reason === 'ReservedPrefix'
              ? `Discarding node label ${label.key} with kubernetes namespace`
              : `Discarding node label ${label.key} that is already present`,
            { node: nodeName },
          );
        }
        // Patch the addresses right away, so they lag the taint removal as little as possible.
        await this.#updateNodeAddress(newNode, nodeAddresses);
        this.#logger.info(`Successfully initialized node ${nodeName} with cloud provider`, { node: nodeName });
        return newNode;
      },
      this.#retry,
    );
    if (initializedNode === undefined) return;

    this.#recorder.event(nodeSubject(initializedNode), 'Normal', NODE_SYNCED_REASON, NODE_SYNCED_MESSAGE);
    const delay = secondsSinceCreation(initializedNode, this.#now());
    if (delay !== undefined) this.#metrics.initialNodeSyncDelay.observe(delay);
  }

  /** Upstream `reconcileNodeLabels`: the GA labels follow the beta labels. */
  async reconcileNodeLabels(nodeName: string): Promise<void> {
    const node = this.#store.get(nodeName);
    if (node === undefined) return;
    const labelsToUpdate = planLabelReconcile(node.metadata?.labels);
    if (Object.keys(labelsToUpdate).length === 0) return;
    await addOrUpdateLabelsOnNode({ nodes: this.#context.kube.nodes, nodeStore: this.#store, ...(this.#retry === undefined ? {} : { retry: this.#retry }) }, nodeName, labelsToUpdate);
  }

  /**
   * Upstream `UpdateNodeStatus`: refreshes the addresses of every initialized node (one cloud call
   * per node) with at most `statusUpdateWorkerCount` nodes in flight, and reconciles beta/GA labels.
   */
  async updateNodeStatus(signal?: AbortSignal): Promise<void> {
    const nodes = this.#store.list();
    const started = this.#now();
    const callOptions = signal === undefined ? undefined : { signal };
    await forEachConcurrently(
      nodes,
      statusUpdateWorkerCount(this.#context.config),
      async (node) => {
        const nodeName = node.metadata?.name ?? '';
        if (hasUninitializedTaint(node)) {
          this.#logger.verbose(5, `This node ${nodeName} is still tainted. Will not process.`, { node: nodeName });
          return;
        }
        try {
          await this.reconcileNodeLabels(nodeName);
        } catch (error) {
          this.#logger.error(errorMessage(error), { node: nodeName });
        }
        let addresses: NodeAddress[] | undefined;
        try {
          addresses = await getInstanceNodeAddresses(this.#context.cloud, node, callOptions);
        } catch (error) {
          this.#logger.error(`Error getting instance metadata for node addresses: ${errorMessage(error)}`, { node: nodeName });
          return;
        }
        if (addresses === undefined) {
          this.#logger.verbose(2, `Skipping node address update for node ${nodeName}: cloud provided nil metadata`, { node: nodeName });
          return;
        }
        await this.#updateNodeAddress(node, addresses);
      },
      signal === undefined ? {} : { signal },
    );
    this.#logger.verbose(2, `Update ${nodes.length} nodes status took ${this.#now() - started}ms.`);
  }

  /** Upstream `updateNodeAddress`; never throws (errors are logged and the patch skipped). */
  async #updateNodeAddress(node: V1Node, cloudAddresses: readonly NodeAddress[]): Promise<void> {
    const nodeName = node.metadata?.name ?? '';
    const plan = planNodeAddressUpdate(node, cloudAddresses);
    switch (plan.action) {
      case 'skip':
        this.#logger.verbose(
          5,
          plan.reason === 'Tainted'
            ? `This node ${nodeName} is still tainted. Will not process.`
            : `Skipping node address update for node ${JSON.stringify(nodeName)} since cloud provider did not return any`,
          { node: nodeName },
        );
        return;
      case 'error':
        this.#logger.error(`Failed to update node addresses for node ${JSON.stringify(nodeName)}: ${plan.error.message}`, { node: nodeName });
        return;
      case 'unchanged':
        return;
      case 'patch':
        try {
          await this.#context.kube.nodes.patchStatus(nodeName, buildNodeAddressesPatch(plan.addresses), 'strategic');
        } catch (error) {
          this.#logger.error(`Error patching node with cloud ip addresses = [${errorMessage(error)}]`, { node: nodeName });
        }
    }
  }
}

/** Builds the cloud node controller, or skips it when the cloud supports neither Instances nor InstancesV2. */
export const createCloudNodeController: ControllerConstructor = (context) => {
  if (context.cloud.instances?.() === undefined && context.cloud.instancesV2?.() === undefined) {
    return { skipped: INSTANCES_NOT_SUPPORTED };
  }
  return new CloudNodeController(context);
};
