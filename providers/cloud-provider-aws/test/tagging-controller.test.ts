/** The tagging controller over the fake EC2 port and the in-memory Kubernetes API. */
import { createHash } from 'node:crypto';
import { createMetricsRegistry } from '@ccm/core/app';
import type { ControllerContext } from '@ccm/core/controllers';
import { createWorkQueue, type WorkQueueOptions } from '@ccm/core/kube';
import { InMemoryKubeAccess } from '@ccm/testing/kube';
import type { V1Node } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { awsError } from './fakes/fake-errors.js';
import { createHarness, RecordingLogger, type Harness } from './helpers.js';
import {
  checksumOfTags,
  createTaggingController,
  NEW_NODE_EVENTUAL_CONSISTENCY_GRACE_MS,
  TAGGING_CONTROLLER_LABEL,
  TAGGING_MAX_REQUEUES,
  TAGGING_WORK_ITEM_ERRORS_METRIC,
  TaggingController,
} from '../src/tagging/tagging-controller.js';
import type { TaggingSettings } from '../src/tagging/tagging-flags.js';

const TAGS = { team: 'blue', 'cost-center': '42' };
const SETTINGS: TaggingSettings = { tags: TAGS, resources: ['instance'], rateLimit: 0, burstLimit: 0 };

interface Setup {
  harness: Harness;
  kube: InMemoryKubeAccess;
  context: ControllerContext;
  logger: RecordingLogger;
  queues: WorkQueueOptions[];
  stop: AbortController;
  running?: Promise<void>;
}

const stops: AbortController[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop.abort();
});

async function setup(retryDelayMs = 1): Promise<Setup> {
  const harness = await createHarness();
  const kube = new InMemoryKubeAccess();
  const logger = new RecordingLogger();
  const queues: WorkQueueOptions[] = [];
  const metrics = createMetricsRegistry();
  const context: ControllerContext = {
    cloud: harness.cloud,
    kube,
    config: {} as ControllerContext['config'],
    metrics,
    logger,
    // Backoff of `retryDelayMs` (1 ms: retries happen at once); the rest as the runtime's queue.
    createWorkQueue: <K extends string>(options: WorkQueueOptions) => {
      queues.push(options);
      return createWorkQueue<K>({ ...options, baseDelayMs: retryDelayMs, maxDelayMs: retryDelayMs }, metrics);
    },
  };
  const stop = new AbortController();
  stops.push(stop);
  return { harness, kube, context, logger, queues, stop };
}

function node(name: string, instanceId: string, extra: { labels?: Record<string, string>; created?: Date } = {}): V1Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: extra.labels ?? {}, ...(extra.created ? { creationTimestamp: extra.created } : {}) },
    spec: { providerID: `aws:///us-west-2a/${instanceId}` },
  };
}

function start(state: Setup, settings: TaggingSettings = SETTINGS, now?: () => number): TaggingController {
  const built = createTaggingController(state.context, settings, now ? { now } : {});
  if ('skipped' in built) throw new Error(built.skipped);
  state.running = built.run(state.stop.signal);
  return built as TaggingController;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 3_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('tagging controller', () => {
  it('tags the instance of a new node, labels the node with the checksum, and untags on delete', async () => {
    const state = await setup();
    state.harness.ec2.addInstance({ instanceId: 'i-0aaa', tags: { Name: 'keep' } });
    start(state);
    state.kube.addNode(node('n1', 'i-0aaa'));
    await until(() => (state.kube.getNode('n1')?.metadata?.labels ?? {})[TAGGING_CONTROLLER_LABEL] !== undefined, 'the label');
    expect(state.harness.ec2.instances.get('i-0aaa')?.tags).toEqual({ Name: 'keep', ...TAGS });
    expect(state.kube.getNode('n1')?.metadata?.labels?.[TAGGING_CONTROLLER_LABEL]).toBe(checksumOfTags(TAGS));

    state.kube.deleteNode('n1');
    await until(() => state.harness.ec2.instances.get('i-0aaa')?.tags.team === undefined, 'the untag');
    expect(state.harness.ec2.instances.get('i-0aaa')?.tags).toEqual({ Name: 'keep' });
  });

  it('the checksum is upstream md5 of the sorted key=value pairs', () => {
    expect(checksumOfTags(TAGS)).toBe(createHash('md5').update('cost-center=42,team=blue').digest('hex'));
    expect(checksumOfTags({ b: '2', a: '1' })).toBe(checksumOfTags({ a: '1', b: '2' }));
    expect(checksumOfTags({ a: '1' })).not.toBe(checksumOfTags({ a: '2' }));
  });

  it('does not call EC2 for a node already labeled with the same tags, and tags again when the tags changed', async () => {
    const state = await setup();
    state.harness.ec2.addInstance({ instanceId: 'i-0bbb' });
    start(state);
    state.harness.clearLogs();
    state.kube.addNode(node('same', 'i-0bbb', { labels: { [TAGGING_CONTROLLER_LABEL]: checksumOfTags(TAGS) } }));
    state.kube.addNode(node('changed', 'i-0bbb', { labels: { [TAGGING_CONTROLLER_LABEL]: checksumOfTags({ old: 'x' }) } }));
    await until(() => state.kube.getNode('changed')?.metadata?.labels?.[TAGGING_CONTROLLER_LABEL] === checksumOfTags(TAGS), 'the relabel');
    expect(state.harness.operations().filter((operation) => operation === 'ec2.createTags')).toHaveLength(1);
  });

  it('retries a failed CreateTags with backoff and succeeds', async () => {
    const state = await setup();
    state.harness.ec2.addInstance({ instanceId: 'i-0ccc' });
    state.harness.ec2.log.failNext('ec2.createTags', awsError('ec2.createTags', 'UnauthorizedOperation', 'not allowed', 403), 3);
    start(state);
    state.kube.addNode(node('n1', 'i-0ccc'));
    await until(() => state.harness.ec2.instances.get('i-0ccc')?.tags.team === 'blue', 'the tags');
    expect(state.harness.ec2.log.count('ec2.createTags')).toBe(4);
    const metric = await state.context.metrics.getSingleMetricAsString(TAGGING_WORK_ITEM_ERRORS_METRIC);
    expect(metric).toContain('error_type="total_errors",instance_id="i-0ccc"} 3');
  });

  it(`gives up after ${TAGGING_MAX_REQUEUES} requeues with one error line and the exhausted metric`, async () => {
    const state = await setup();
    state.harness.ec2.addInstance({ instanceId: 'i-0ddd' });
    state.harness.ec2.log.failNext('ec2.createTags', awsError('ec2.createTags', 'UnauthorizedOperation', 'not allowed', 403), 50);
    start(state);
    state.kube.addNode(node('n1', 'i-0ddd'));
    await until(() => state.logger.lines.some((line) => line.message.includes('requeuing count exceeded')), 'giving up');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(state.harness.ec2.log.count('ec2.createTags')).toBe(TAGGING_MAX_REQUEUES + 1);
    const metric = await state.context.metrics.getSingleMetricAsString(TAGGING_WORK_ITEM_ERRORS_METRIC);
    expect(metric).toContain('error_type="errors_after_retries_exhausted",instance_id="i-0ddd"} 1');
  });

  it('retries a missing instance while the node is new, skips it once the node is older than the grace period', async () => {
    const young = await setup();
    const created = new Date('2026-01-01T00:00:00Z');
    start(young, SETTINGS, () => created.getTime() + 1_000);
    young.kube.addNode(node('n1', 'i-0404', { created }));
    await until(() => young.logger.lines.some((line) => line.message.includes('requeuing count exceeded')), 'the retries of a young node');
    expect(young.harness.ec2.log.count('ec2.createTags')).toBe(TAGGING_MAX_REQUEUES + 1);

    const old = await setup();
    start(old, SETTINGS, () => created.getTime() + NEW_NODE_EVENTUAL_CONSISTENCY_GRACE_MS + 1);
    old.kube.addNode(node('n1', 'i-0404', { created }));
    await until(() => old.logger.lines.some((line) => line.message.includes('does not exist')), 'the skip');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(old.harness.ec2.log.count('ec2.createTags')).toBe(1);
    expect(old.kube.getNode('n1')?.metadata?.labels?.[TAGGING_CONTROLLER_LABEL]).toBeUndefined();
  });

  it('untagging an instance that is gone succeeds without retries; Fargate and provider-less nodes are skipped', async () => {
    const state = await setup();
    start(state);
    state.kube.addNode(node('gone', 'i-0dead', { labels: { [TAGGING_CONTROLLER_LABEL]: checksumOfTags(TAGS) } }));
    state.kube.deleteNode('gone');
    state.kube.addNode({ metadata: { name: 'fargate' }, spec: { providerID: 'aws:///us-west-2a/fargate-ip-10-0-0-1' } });
    state.kube.addNode({ metadata: { name: 'bare' }, spec: {} });
    await until(() => state.harness.ec2.log.count('ec2.deleteTags') === 1, 'the untag');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(state.harness.ec2.log.count('ec2.deleteTags')).toBe(1);
    expect(state.harness.ec2.log.count('ec2.createTags')).toBe(0);
    expect(state.logger.lines.filter((line) => line.level === 'error').map((line) => line.message)).toEqual(['error in getting the instance ID of a node']);
  });

  it('names its queue as upstream and rate-limits it only when both limits are above zero', async () => {
    const plain = await setup();
    start(plain);
    const limited = await setup();
    start(limited, { ...SETTINGS, rateLimit: 5, burstLimit: 2 });
    expect(plain.queues).toEqual([{ name: 'tagging-controller' }]);
    expect(limited.queues).toEqual([{ name: 'tagging-controller', overallQps: 5, overallBurst: 2 }]);
  });

  it('refuses to start without tags or resources, and is skipped on a cloud that is not AWS', async () => {
    const state = await setup();
    expect(() => createTaggingController(state.context, { ...SETTINGS, tags: {} })).toThrow('--tags must not be empty');
    expect(() => createTaggingController(state.context, { ...SETTINGS, resources: [] })).toThrow('--resources must not be empty');
    const other = { ...state.context, cloud: { providerName: 'gce', hasClusterId: () => true } };
    expect(createTaggingController(other, SETTINGS)).toEqual({ skipped: 'the tagging controller does not support the "gce" provider' });
  });
});

describe('tagging controller: a node deleted while its tagging is queued or backing off', () => {
  it('is not tagged again after the untag', async () => {
    const state = await setup(300);
    state.harness.ec2.addInstance({ instanceId: 'i-0eee' });
    // The label patch fails, so the tag item backs off; the node is deleted meanwhile.
    state.kube.failNext({ verb: 'patch', resource: 'nodes', name: 'n1' }, new Error('conflict'), 1);
    start(state);
    state.kube.addNode(node('n1', 'i-0eee'));
    await until(() => state.logger.lines.some((line) => line.message.includes('requeuing')), 'the first failure');
    state.kube.deleteNode('n1');
    await until(() => state.harness.ec2.log.count('ec2.deleteTags') === 1, 'the untag');
    // Past the backoff of the failed tag item.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(state.harness.ec2.log.count('ec2.createTags')).toBe(1);
    expect(state.harness.ec2.instances.get('i-0eee')?.tags.team).toBeUndefined();
  });
});
