import type { CoreV1Event } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { silentLogger, type Logger } from '../logging/logger.js';
import { COMBINED_MESSAGE_PREFIX } from './event-correlator.js';
import { EventBroadcaster, type EventSink } from './event-recorder.js';
import { KubeApiError } from './kube-api-error.js';

interface SinkCall {
  verb: 'create' | 'patch';
  namespace: string;
  name: string;
  body: unknown;
}

/** An EventSink keeping Events in memory, with scripted failures. */
class MemorySink implements EventSink {
  readonly calls: SinkCall[] = [];
  readonly events = new Map<string, CoreV1Event>();
  readonly failures: Error[] = [];
  #resourceVersion = 0;

  async create(namespace: string, event: CoreV1Event): Promise<CoreV1Event> {
    const name = event.metadata?.name ?? '';
    this.calls.push({ verb: 'create', namespace, name, body: structuredClone(event) });
    const failure = this.failures.shift();
    if (failure) throw failure;
    const key = `${namespace}/${name}`;
    if (this.events.has(key)) throw new KubeApiError(`events "${name}" already exists`, 409, 'AlreadyExists');
    const stored = { ...structuredClone(event), metadata: { ...event.metadata, resourceVersion: String(++this.#resourceVersion) } };
    this.events.set(key, stored);
    return stored;
  }

  async patch(namespace: string, name: string, patch: { count: number; lastTimestamp: string; message: string }): Promise<CoreV1Event> {
    this.calls.push({ verb: 'patch', namespace, name, body: structuredClone(patch) });
    const failure = this.failures.shift();
    if (failure) throw failure;
    const key = `${namespace}/${name}`;
    const existing = this.events.get(key);
    if (!existing) throw new KubeApiError(`events "${name}" not found`, 404, 'NotFound');
    const stored = { ...existing, count: patch.count, lastTimestamp: new Date(patch.lastTimestamp), message: patch.message, metadata: { ...existing.metadata, resourceVersion: String(++this.#resourceVersion) } };
    this.events.set(key, stored);
    return stored;
  }
}

const logMessages = (): Logger & { lines: string[] } => {
  const lines: string[] = [];
  const logger = {
    lines,
    error: (message: string) => void lines.push(`error ${message}`),
    warn: (message: string) => void lines.push(`warn ${message}`),
    info: (message: string) => void lines.push(`info ${message}`),
    verbose: () => {},
    child: () => logger,
  };
  return logger;
};

const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'uid-1', resourceVersion: '5' } };
const service = { kind: 'Service', metadata: { namespace: 'shop', name: 'web', uid: 'uid-2' } };

const setup = (options: { sleeps?: number[] } = {}) => {
  let now = new Date('2026-03-01T00:00:00.000Z').getTime();
  const sink = new MemorySink();
  const logger = logMessages();
  const broadcaster = new EventBroadcaster({
    sink,
    logger,
    now: () => new Date(now),
    sleep: async (ms) => {
      options.sleeps?.push(ms);
    },
  });
  return {
    sink,
    logger,
    broadcaster,
    advance: (ms: number) => {
      now += ms;
    },
  };
};

describe('EventBroadcaster', () => {
  it('writes a client-go shaped Event in the object namespace (default for nodes)', async () => {
    const { sink, broadcaster } = setup();
    broadcaster.recorder('cloud-node-controller').event(node, 'Normal', 'Synced', 'Node synced successfully');
    broadcaster.recorder('service-controller').event(service, 'Warning', 'SyncLoadBalancerFailed', 'Error syncing load balancer: boom');
    await broadcaster.flush();
    expect(sink.calls.map((call) => [call.verb, call.namespace])).toEqual([
      ['create', 'default'],
      ['create', 'shop'],
    ]);
    const synced = sink.calls[0]?.body as CoreV1Event;
    expect(synced).toEqual({
      metadata: { name: `n1.${(BigInt(Date.parse('2026-03-01T00:00:00.000Z')) * 1_000_000n).toString(16)}`, namespace: 'default' },
      involvedObject: { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'uid-1', resourceVersion: '5' },
      reason: 'Synced',
      message: 'Node synced successfully',
      firstTimestamp: new Date('2026-03-01T00:00:00.000Z'),
      lastTimestamp: new Date('2026-03-01T00:00:00.000Z'),
      count: 1,
      type: 'Normal',
      source: { component: 'cloud-node-controller' },
      reportingComponent: 'cloud-node-controller',
      reportingInstance: '',
    });
    const failed = sink.calls[1]?.body as CoreV1Event;
    expect(failed.involvedObject).toEqual({ apiVersion: 'v1', kind: 'Service', namespace: 'shop', name: 'web', uid: 'uid-2' });
    expect(failed.metadata?.name).not.toBe(synced.metadata?.name);
  });

  it('aggregates identical events into one Event whose count and lastTimestamp grow', async () => {
    const { sink, broadcaster, advance } = setup();
    const recorder = broadcaster.recorder('cloud-node-lifecycle-controller');
    recorder.event(node, 'Normal', 'DeletingNode', 'Deleting node n1 because it does not exist in the cloud provider');
    await broadcaster.flush();
    advance(1000);
    recorder.event(node, 'Normal', 'DeletingNode', 'Deleting node n1 because it does not exist in the cloud provider');
    advance(1000);
    recorder.event(node, 'Normal', 'DeletingNode', 'Deleting node n1 because it does not exist in the cloud provider');
    await broadcaster.flush();
    expect(sink.calls.map((call) => call.verb)).toEqual(['create', 'patch', 'patch']);
    const name = sink.calls[0]?.name;
    expect(sink.calls.every((call) => call.name === name)).toBe(true);
    expect(sink.calls[2]?.body).toEqual({ count: 3, lastTimestamp: '2026-03-01T00:00:02.000Z', message: 'Deleting node n1 because it does not exist in the cloud provider' });
    const stored = [...sink.events.values()];
    expect(stored).toHaveLength(1);
    expect(stored[0]?.count).toBe(3);
    expect(stored[0]?.firstTimestamp).toEqual(new Date('2026-03-01T00:00:00.000Z'));
  });

  it('re-creates the Event when the patched one is gone (events expire)', async () => {
    const { sink, broadcaster, advance } = setup();
    const recorder = broadcaster.recorder('cloud-node-controller');
    recorder.event(node, 'Normal', 'Synced', 'Node synced successfully');
    await broadcaster.flush();
    sink.events.clear();
    advance(5000);
    recorder.event(node, 'Normal', 'Synced', 'Node synced successfully');
    await broadcaster.flush();
    expect(sink.calls.map((call) => call.verb)).toEqual(['create', 'patch', 'create']);
    const recreated = sink.calls[2]?.body as CoreV1Event;
    expect(recreated.count).toBe(2);
    expect(recreated.metadata?.resourceVersion).toBeUndefined();
    expect(recreated.lastTimestamp).toEqual(new Date('2026-03-01T00:00:05.000Z'));
  });

  it('different messages or reasons are different Events', async () => {
    const { sink, broadcaster } = setup();
    const recorder = broadcaster.recorder('service-controller');
    recorder.event(service, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer');
    recorder.event(service, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer');
    recorder.event(service, 'Warning', 'SyncLoadBalancerFailed', 'Error syncing load balancer: a');
    recorder.event(service, 'Warning', 'SyncLoadBalancerFailed', 'Error syncing load balancer: b');
    await broadcaster.flush();
    expect(sink.calls.map((call) => call.verb)).toEqual(['create', 'create', 'create', 'create']);
    expect(new Set(sink.calls.map((call) => call.name)).size).toBe(4);
  });

  it('spam filter: a flapping object gets 25 events, then one per 5 minutes', async () => {
    const { sink, broadcaster, advance } = setup();
    const recorder = broadcaster.recorder('service-controller');
    for (let index = 0; index < 40; index += 1) recorder.event(service, 'Warning', 'SyncLoadBalancerFailed', `attempt ${index % 3}`);
    await broadcaster.flush();
    expect(sink.calls).toHaveLength(25);
    recorder.event({ ...service, metadata: { ...service.metadata, name: 'other', uid: 'uid-3' } }, 'Warning', 'SyncLoadBalancerFailed', 'x');
    await broadcaster.flush();
    expect(sink.calls).toHaveLength(26);
    advance(299_000);
    recorder.event(service, 'Warning', 'SyncLoadBalancerFailed', 'attempt 0');
    await broadcaster.flush();
    expect(sink.calls).toHaveLength(26);
    advance(1000);
    recorder.event(service, 'Warning', 'SyncLoadBalancerFailed', 'attempt 0');
    await broadcaster.flush();
    expect(sink.calls).toHaveLength(27);
  });

  it('combines similar events once 10 distinct messages were seen within 10 minutes', async () => {
    const { sink, broadcaster } = setup();
    const recorder = broadcaster.recorder('route_controller');
    for (let index = 0; index < 11; index += 1) recorder.event(node, 'Warning', 'FailedToCreateRoute', `Could not create route ${index}`);
    await broadcaster.flush();
    const messages = sink.calls.map((call) => (call.verb === 'create' ? (call.body as CoreV1Event).message : (call.body as { message: string }).message));
    expect(messages.slice(0, 9)).toEqual(Array.from({ length: 9 }, (_, index) => `Could not create route ${index}`));
    expect(messages[9]).toBe(`${COMBINED_MESSAGE_PREFIX}Could not create route 9`);
    expect(sink.calls[9]?.verb).toBe('create');
    expect(messages[10]).toBe(`${COMBINED_MESSAGE_PREFIX}Could not create route 10`);
    expect(sink.calls[10]?.verb).toBe('patch');
    expect(sink.calls[10]?.name).toBe(sink.calls[9]?.name);
  });

  it('retries transport errors (10 s apart, 12 tries) and drops API rejections, never throwing', async () => {
    const sleeps: number[] = [];
    const { sink, broadcaster, logger } = setup({ sleeps });
    sink.failures.push(new KubeApiError('connect ECONNREFUSED', 0), new KubeApiError('connect ECONNREFUSED', 0));
    const recorder = broadcaster.recorder('cloud-node-controller');
    expect(() => recorder.event(node, 'Normal', 'Synced', 'Node synced successfully')).not.toThrow();
    await broadcaster.flush();
    expect(sink.calls.map((call) => call.verb)).toEqual(['create', 'create', 'create']);
    expect(sleeps).toEqual([10_000, 10_000]);
    expect(sink.events.size).toBe(1);

    sink.failures.push(new KubeApiError('events is forbidden', 403, 'Forbidden'));
    recorder.event(node, 'Warning', 'Other', 'x');
    await broadcaster.flush();
    expect(sink.calls).toHaveLength(4);
    expect(logger.lines).toContain('error Server rejected event (will not retry!)');

    for (let index = 0; index < 12; index += 1) sink.failures.push(new KubeApiError('socket hang up', 0));
    recorder.event(node, 'Warning', 'Third', 'y');
    await broadcaster.flush();
    expect(sink.calls).toHaveLength(16);
    expect(logger.lines).toContain('error Unable to write event (retry limit exceeded!)');
  });

  it('drops events when the queue is full and after shutdown', async () => {
    const sink = new MemorySink();
    const logger = logMessages();
    const broadcaster = new EventBroadcaster({ sink, logger, queueLength: 2 });
    const recorder = broadcaster.recorder('c');
    for (let index = 0; index < 5; index += 1) recorder.event({ kind: 'Node', metadata: { name: `n${index}` } }, 'Normal', 'R', 'm');
    await broadcaster.flush();
    expect(sink.calls.length).toBeLessThan(5);
    expect(logger.lines).toContain('warn Event queue full, dropping event');
    broadcaster.shutdown();
    recorder.event(node, 'Normal', 'R', 'after shutdown');
    await broadcaster.flush();
    expect(sink.calls.some((call) => (call.body as CoreV1Event).message === 'after shutdown')).toBe(false);
  });

  it('works with the silent logger and an object without kind', async () => {
    const sink = new MemorySink();
    const broadcaster = new EventBroadcaster({ sink, logger: silentLogger });
    broadcaster.recorder('c').event({ metadata: { name: 'x' } }, 'Normal', 'R', 'm');
    await broadcaster.flush();
    expect((sink.calls[0]?.body as CoreV1Event).involvedObject).toEqual({ name: 'x' });
  });
});
