/**
 * The cloud node lifecycle controller (upstream `controllers/nodelifecycle`): every
 * `--node-monitor-period` it looks at every node that is not Ready and deletes the Node when the
 * cloud says its instance no longer exists, or taints it `node.cloudprovider.kubernetes.io/shutdown`
 * when the instance is shut down. Ready nodes are never deleted; their shutdown taint is removed.
 * There are no exclusions (control-plane nodes and nodes without a provider ID are checked too).
 */
import type { V1Node } from '@kubernetes/client-node';
import type { EventRecorder } from '../../kube/ports.js';
import type { Logger } from '../../logging/logger.js';
import { CLOUD_NODE_LIFECYCLE_CONTROLLER } from '../../names/controller-names.js';
import { forEachConcurrently, runUntilAborted } from '../../node-helpers/async-helpers.js';
import type { RetryOptions } from '../../node-helpers/conflict-retry.js';
import { getInstanceProviderId } from '../../node-helpers/instance-provider-id.js';
import { getNodeReadyStatus } from '../../node-helpers/node-conditions.js';
import { addOrUpdateTaintOnNode, removeTaintOffNode, type NodeAccess } from '../../node-helpers/node-metadata-updates.js';
import { SHUTDOWN_TAINT } from '../../node-helpers/taints.js';
import { isInstanceNotFound, isNotImplemented } from '../../provider/cloud-errors.js';
import type { CloudCallOptions } from '../../provider/instances.js';
import { errorMessage } from '../../util/error-message.js';
import type { Controller, ControllerConstructor, ControllerContext } from '../controller.js';

export const CLOUD_NODE_LIFECYCLE_CONTROLLER_EVENT_COMPONENT = 'cloud-node-lifecycle-controller';
export const DELETING_NODE_REASON = 'DeletingNode';
export const DELETING_NODE_FAILED_REASON = 'DeletingNodeFailed';

/**
 * How many nodes are checked at once in one monitoring pass. Upstream checks nodes one after
 * another; we overlap the per-node cloud calls (each node's calls are independent, so a provider
 * that batches lookups can coalesce them) but bound them so a mass NotReady event (e.g. a zone
 * outage) cannot burst the cloud API. Not a flag: ControllerConfig stays upstream-shaped.
 */
export const NODE_LIFECYCLE_CHECK_CONCURRENCY = 10;

export interface CloudNodeLifecycleControllerOptions {
  /** Overrides NODE_LIFECYCLE_CHECK_CONCURRENCY (tests). */
  concurrency?: number;
  retry?: RetryOptions;
}


export class CloudNodeLifecycleController implements Controller {
  readonly name = CLOUD_NODE_LIFECYCLE_CONTROLLER;
  readonly #context: ControllerContext;
  readonly #logger: Logger;
  readonly #recorder: EventRecorder;
  readonly #concurrency: number;
  readonly #nodeAccess: NodeAccess;

  constructor(context: ControllerContext, options: CloudNodeLifecycleControllerOptions = {}) {
    const problem = lifecycleConstructionProblem(context);
    if (problem !== undefined) throw new Error(problem);
    this.#context = context;
    this.#logger = context.logger.child({ controller: CLOUD_NODE_LIFECYCLE_CONTROLLER });
    this.#recorder = context.kube.eventRecorder(CLOUD_NODE_LIFECYCLE_CONTROLLER_EVENT_COMPONENT);
    this.#concurrency = Math.max(1, options.concurrency ?? NODE_LIFECYCLE_CHECK_CONCURRENCY);
    this.#nodeAccess = {
      nodes: context.kube.nodes,
      nodeStore: context.kube.nodeInformer.store,
      ...(options.retry === undefined ? {} : { retry: options.retry }),
    };
  }

  /** Upstream runs `MonitorNodes` in a sliding loop without waiting for the cache to sync. */
  async run(signal: AbortSignal): Promise<void> {
    await runUntilAborted(() => this.monitorNodes(signal), this.#context.config.nodeMonitorPeriodMs, signal, (error) =>
      this.#logger.error(`error monitoring nodes: ${errorMessage(error)}`),
    );
  }

  /** One pass over every cached node (upstream `MonitorNodes`). Never throws for a single node. */
  async monitorNodes(signal?: AbortSignal): Promise<void> {
    const callOptions = signal === undefined ? undefined : { signal };
    await forEachConcurrently(this.#context.kube.nodeInformer.store.list(), this.#concurrency, (node) => this.#monitorNode(node, callOptions), {
      ...(signal === undefined ? {} : { signal }),
      onError: (error, node) => this.#logger.error(`error monitoring node ${node.metadata?.name ?? ''}: ${errorMessage(error)}`),
    });
  }

  async #monitorNode(node: V1Node, callOptions: CloudCallOptions | undefined): Promise<void> {
    const nodeName = node.metadata?.name ?? '';
    if (getNodeReadyStatus(node) === 'True') {
      try {
        await removeTaintOffNode(this.#nodeAccess, nodeName, node, SHUTDOWN_TAINT);
      } catch (error) {
        this.#logger.error(`error patching node taints: ${errorMessage(error)}`, { node: nodeName });
      }
      return;
    }

    let exists: boolean;
    try {
      exists = await this.ensureNodeExistsByProviderId(node, callOptions);
    } catch (error) {
      this.#logger.error(`error checking if node ${nodeName} exists: ${errorMessage(error)}`, { node: nodeName });
      return;
    }

    if (!exists) {
      this.#logger.verbose(2, `deleting node since it is no longer present in cloud provider: ${nodeName}`, { node: nodeName });
      const subject = {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: nodeName, namespace: '', ...(node.metadata?.uid === undefined ? {} : { uid: node.metadata.uid }) },
      };
      this.#recorder.event(subject, 'Normal', DELETING_NODE_REASON, `Deleting node ${nodeName} because it does not exist in the cloud provider`);
      try {
        await this.#context.kube.nodes.delete(nodeName);
      } catch (error) {
        this.#logger.error(`unable to delete node ${JSON.stringify(nodeName)}: ${errorMessage(error)}`, { node: nodeName });
        this.#recorder.event(subject, 'Warning', DELETING_NODE_FAILED_REASON, `Failed deleting node ${nodeName}: ${errorMessage(error)}`);
      }
      return;
    }

    let shutdown = false;
    try {
      shutdown = await this.shutdownInCloudProvider(node, callOptions);
    } catch (error) {
      this.#logger.error(`error checking if node ${nodeName} is shutdown: ${errorMessage(error)}`, { node: nodeName });
      return;
    }
    if (!shutdown) return;
    try {
      await addOrUpdateTaintOnNode(this.#nodeAccess, nodeName, SHUTDOWN_TAINT);
    } catch (error) {
      this.#logger.error(`failed to apply shutdown taint to node ${nodeName}, it may have been deleted: ${errorMessage(error)}`, { node: nodeName });
    }
  }

  /**
   * Upstream `getProviderID`: `spec.providerID`, else the V2 metadata's provider ID, else the V1
   * `<provider>://<instanceId(name)>` (InstanceNotFound and NotImplemented pass through).
   */
  async getProviderId(node: V1Node, callOptions?: CloudCallOptions): Promise<string> {
    const providerId = node.spec?.providerID ?? '';
    if (providerId !== '') return providerId;
    const instancesV2 = this.#context.cloud.instancesV2?.();
    if (instancesV2 !== undefined) return (await instancesV2.instanceMetadata(node, callOptions))?.providerId ?? '';
    return getInstanceProviderId(this.#context.cloud, node.metadata?.name ?? '', callOptions);
  }

  /**
   * V2: `instanceExists(node)` (an InstanceNotFound *error* is an error, not "gone"). V1: by provider
   * ID, where an InstanceNotFound while resolving the provider ID means the instance is gone.
   */
  async ensureNodeExistsByProviderId(node: V1Node, callOptions?: CloudCallOptions): Promise<boolean> {
    const instancesV2 = this.#context.cloud.instancesV2?.();
    if (instancesV2 !== undefined) return instancesV2.instanceExists(node, callOptions);
    const instances = this.#context.cloud.instances?.();
    if (instances === undefined) throw new Error('instances interface not supported in the cloud provider');
    const providerId = await this.#providerIdUnlessGone(node, callOptions);
    if (providerId === undefined) return false;
    return instances.instanceExistsByProviderId(providerId, callOptions);
  }

  /** V1 path: the provider ID, or `undefined` when resolving it says the instance is gone (InstanceNotFound). */
  async #providerIdUnlessGone(node: V1Node, callOptions?: CloudCallOptions): Promise<string | undefined> {
    try {
      return await this.getProviderId(node, callOptions);
    } catch (error) {
      if (isInstanceNotFound(error)) return undefined;
      throw error;
    }
  }

  /** V2: `instanceShutdown(node)`. V1: InstanceNotFound and NotImplemented mean "not shut down". */
  async shutdownInCloudProvider(node: V1Node, callOptions?: CloudCallOptions): Promise<boolean> {
    const instancesV2 = this.#context.cloud.instancesV2?.();
    if (instancesV2 !== undefined) return instancesV2.instanceShutdown(node, callOptions);
    const instances = this.#context.cloud.instances?.();
    if (instances === undefined) throw new Error('cloud provider does not support instances');
    const providerId = await this.#providerIdUnlessGone(node, callOptions);
    if (providerId === undefined) return false;
    try {
      return await instances.instanceShutdownByProviderId(providerId, callOptions);
    } catch (error) {
      if (isNotImplemented(error)) return false;
      throw error;
    }
  }
}

/** Upstream construction errors, reported as "not started" (never fatal). */
function lifecycleConstructionProblem(context: ControllerContext): string | undefined {
  if ((context.kube as unknown) === undefined || (context.kube as unknown) === null) return 'kubernetes client is nil';
  if ((context.cloud as unknown) === undefined || (context.cloud as unknown) === null) return 'no cloud provider provided';
  if (context.cloud.instances?.() === undefined && context.cloud.instancesV2?.() === undefined) return 'cloud provider does not support instances';
  return undefined;
}

export const createCloudNodeLifecycleController: ControllerConstructor = (context) => {
  const problem = lifecycleConstructionProblem(context);
  if (problem !== undefined) return { skipped: problem };
  return new CloudNodeLifecycleController(context);
};
