/**
 * The AWS tagging controller (upstream cloud-provider-aws `pkg/controllers/tagging`, registered
 * as `tagging`, off unless `--controllers` names it): puts the `--tags` on the EC2 instance of
 * every Node (CreateTags) and takes them off when the Node is deleted (DeleteTags). A tagged Node
 * gets the label `k8s.io/cloud-provider-aws=<md5 of the sorted key=value pairs>`, so a restart or
 * an update tags again only when the tags changed.
 *
 * One worker drains a rate-limited work queue: a failed item is requeued with the per-item
 * backoff (5 ms doubling to 1000 s, and the overall bucket) at most 9 times, then dropped with an
 * error line and `cloudprovider_aws_tagging_controller_work_item_errors_total`. With
 * `--tagging-controller-rate-limit` and `--tagging-controller-burst-limit` both > 0, every item
 * waits for that bucket (upstream `AddRateLimited`). A missing instance is retried while the Node
 * is younger than 5 minutes (CreateTags is eventually consistent), then skipped; untagging an
 * instance that is gone succeeds. Fargate nodes are skipped.
 */
import { createHash } from 'node:crypto';
import { prometheusMetricsSink } from '@ccm/core/app';
import type { Controller, ControllerContext } from '@ccm/core/controllers';
import type { CounterMetric } from '@ccm/core/metrics';
import type { V1Node } from '@kubernetes/client-node';
import { errorMessage } from '@ccm/core/util';
import type { InstanceTagOperations } from '../operations/instance-tags.js';
import { isFargateProviderId, parseAwsProviderId } from '../provider-id.js';
import type { Tags } from '../tags.js';
import { taggingSettingsProblems, type TaggingSettings } from './tagging-flags.js';

/** Upstream `TaggingControllerKey`: the name `--controllers` uses. */
export const TAGGING_CONTROLLER_NAME = 'tagging';
/** Upstream `TaggingControllerClientName`: the work queue's name. */
export const TAGGING_CONTROLLER_CLIENT_NAME = 'tagging-controller';
/** Upstream `taggingControllerLabelKey`. */
export const TAGGING_CONTROLLER_LABEL = 'k8s.io/cloud-provider-aws';
/** Upstream `maxRequeuingCount`: requeues after the first attempt. */
export const TAGGING_MAX_REQUEUES = 9;
/** Upstream `newNodeEventualConsistencyGracePeriod`. */
export const NEW_NODE_EVENTUAL_CONSISTENCY_GRACE_MS = 5 * 60_000;
export const TAGGING_WORK_ITEM_ERRORS_METRIC = 'cloudprovider_aws_tagging_controller_work_item_errors_total';

/** What the controller needs of the AWS provider (`AwsCloud.instanceTags()`). */
export interface TaggableCloud {
  instanceTags(): InstanceTagOperations;
}

function isTaggableCloud(cloud: unknown): cloud is TaggableCloud {
  return typeof (cloud as Partial<TaggableCloud>).instanceTags === 'function';
}

/** Upstream `getChecksumOfTags`: md5 hex of the sorted `key=value` pairs joined with commas. */
export function checksumOfTags(tags: Tags): string {
  const pairs = Object.entries(tags)
    .map(([key, value]) => `${key}=${value}`)
    .sort();
  return createHash('md5').update(pairs.join(',')).digest('hex');
}

type Action = 'tag' | 'untag';

interface WorkItem {
  action: Action;
  node: V1Node;
}

export interface TaggingControllerOptions {
  now?: () => number;
}

/** The constructor core's runtime calls for `tagging` (skipped, with the reason, on a cloud that is not AWS). */
export function createTaggingController(context: ControllerContext, settings: TaggingSettings, options: TaggingControllerOptions = {}): Controller | { skipped: string } {
  if (!isTaggableCloud(context.cloud)) return { skipped: `the tagging controller does not support the ${JSON.stringify(context.cloud.providerName)} provider` };
  const problems = taggingSettingsProblems(settings);
  if (problems.length > 0) throw new Error(`tagging controller inputs are not properly set: ${problems.join('; ')}`);
  return new TaggingController(context, settings, context.cloud.instanceTags(), options);
}

export class TaggingController implements Controller {
  readonly name = TAGGING_CONTROLLER_NAME;
  readonly #context: ControllerContext;
  readonly #settings: TaggingSettings;
  readonly #instanceTags: InstanceTagOperations;
  readonly #now: () => number;
  readonly #checksum: string;
  readonly #rateLimited: boolean;
  readonly #errors: CounterMetric<'error_type' | 'instance_id'>;
  /** The latest Node seen for each queued key (`tag/<node>`, `untag/<node>`). */
  readonly #items = new Map<string, WorkItem>();

  constructor(context: ControllerContext, settings: TaggingSettings, instanceTags: InstanceTagOperations, options: TaggingControllerOptions = {}) {
    this.#context = context;
    this.#settings = settings;
    this.#instanceTags = instanceTags;
    this.#now = options.now ?? Date.now;
    this.#checksum = checksumOfTags(settings.tags);
    this.#rateLimited = settings.rateLimit > 0 && settings.burstLimit > 0;
    this.#errors = prometheusMetricsSink(context.metrics).counter({
      name: TAGGING_WORK_ITEM_ERRORS_METRIC,
      help: 'any error in dequeueing the work queue and processing workItem',
      labelNames: ['error_type', 'instance_id'],
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    const { kube, logger } = this.#context;
    const queue = this.#context.createWorkQueue<string>({
      name: TAGGING_CONTROLLER_CLIENT_NAME,
      ...(this.#rateLimited ? { overallQps: this.#settings.rateLimit, overallBurst: this.#settings.burstLimit } : {}),
    });
    logger.info(this.#rateLimited ? 'rate limit enabled on the tagging controller' : 'rate limit disabled on the tagging controller', {
      rate: this.#settings.rateLimit,
      burst: this.#settings.burstLimit,
    });
    const enqueue = (action: Action, node: V1Node): void => {
      const name = node.metadata?.name;
      if (name === undefined) return;
      const key = `${action}/${name}`;
      // A deleted Node is not tagged any more, even by an item still queued or backing off.
      if (action === 'untag') this.#items.delete(`tag/${name}`);
      this.#items.set(key, { action, node });
      if (this.#rateLimited) queue.addRateLimited(key);
      else queue.add(key);
    };
    kube.nodeInformer.addHandlers({
      onAdd: (node) => enqueue('tag', node),
      onUpdate: (_old, node) => {
        if (this.#taggingRequired(node)) enqueue('tag', node);
      },
      onDelete: (node) => enqueue('untag', node),
    });
    signal.addEventListener('abort', () => queue.shutDown(), { once: true });
    logger.info('Starting the tagging controller', { tags: Object.keys(this.#settings.tags), resources: this.#settings.resources });
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      try {
        await this.#process(key, queue);
      } finally {
        queue.done(key);
      }
    }
  }

  async #process(key: string, queue: { addRateLimited(key: string): void; forget(key: string): void; numRequeues(key: string): number }): Promise<void> {
    const { logger } = this.#context;
    const item = this.#items.get(key);
    if (item === undefined) return;
    const nodeName = item.node.metadata?.name ?? '';
    const providerId = item.node.spec?.providerID ?? '';
    const finish = (): void => {
      queue.forget(key);
      if (this.#items.get(key) === item) this.#items.delete(key);
    };
    if (providerId !== '' && isFargateProviderId(providerId)) {
      logger.verbose(2, 'skipping a Fargate node', { node: nodeName });
      finish();
      return;
    }
    let instanceId: string;
    try {
      instanceId = parseAwsProviderId(providerId);
    } catch (error) {
      logger.error('error in getting the instance ID of a node', { node: nodeName, providerID: providerId, err: errorMessage(error) });
      finish();
      return;
    }
    // Tag the Node as the cache has it now (it may carry the label by now), and not at all once deleted.
    const current = item.action === 'tag' ? this.#context.kube.nodeInformer.store.get(nodeName) : item.node;
    if (current === undefined) {
      logger.verbose(2, 'skip tagging a node that was deleted', { node: nodeName });
      finish();
      return;
    }
    try {
      if (item.action === 'tag') await this.#tag(current, instanceId);
      else await this.#untag(instanceId);
      finish();
    } catch (error) {
      const requeues = queue.numRequeues(key);
      if (requeues < TAGGING_MAX_REQUEUES) {
        queue.addRateLimited(key);
        this.#errors.inc({ error_type: 'total_errors', instance_id: instanceId });
        logger.error(`error processing work item, requeuing`, { node: nodeName, action: item.action, instanceId, requeuingCount: requeues + 1, err: errorMessage(error) });
        return;
      }
      this.#errors.inc({ error_type: 'errors_after_retries_exhausted', instance_id: instanceId });
      logger.error('error processing work item, requeuing count exceeded', { node: nodeName, action: item.action, instanceId, err: errorMessage(error) });
      finish();
    }
  }

  #taggingRequired(node: V1Node): boolean {
    return node.metadata?.labels?.[TAGGING_CONTROLLER_LABEL] !== this.#checksum;
  }

  async #tag(node: V1Node, instanceId: string): Promise<void> {
    const { kube, logger } = this.#context;
    const nodeName = node.metadata?.name ?? '';
    if (!this.#taggingRequired(node)) {
      logger.verbose(2, 'skip tagging a node tagged earlier', { node: nodeName });
      return;
    }
    for (const resource of this.#settings.resources) {
      if (resource !== 'instance') continue;
      const outcome = await this.#instanceTags.tag(instanceId, this.#settings.tags);
      if (outcome === 'instance-not-found') {
        const created = Date.parse(String(node.metadata?.creationTimestamp ?? ''));
        if (Number.isFinite(created) && this.#now() - created < NEW_NODE_EVENTUAL_CONSISTENCY_GRACE_MS) {
          throw new Error(`EC2 instance ${instanceId} for node ${nodeName} does not exist, but the node is within the eventual consistency grace period`);
        }
        logger.info('skip tagging since the EC2 instance of the node does not exist', { node: nodeName, instanceId });
        return;
      }
    }
    await kube.nodes.patch(nodeName, { metadata: { labels: { [TAGGING_CONTROLLER_LABEL]: this.#checksum } } }, 'strategic');
    logger.info('tagged the instance of a node and labeled the node', { node: nodeName, instanceId, tags: Object.keys(this.#settings.tags) });
  }

  async #untag(instanceId: string): Promise<void> {
    for (const resource of this.#settings.resources) {
      if (resource === 'instance') await this.#instanceTags.untag(instanceId, this.#settings.tags);
    }
    this.#context.logger.info('untagged the instance of a deleted node', { instanceId, tags: Object.keys(this.#settings.tags) });
  }
}
