import { CoreV1Api, Watch, type V1Node, type V1Service } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger, type Logger } from '../../logging/logger.js';
import { KubeApiError } from '../kube-api-error.js';
import { FakeApiServer, status, type OpenWatch, type RecordedRequest } from './test-support/fake-api-server.js';
import { listNodes, listServicesInAllNamespaces } from './list-functions.js';
import { RequestExecutor } from './request-executor.js';
import { ResilientInformer, type ListPage } from './resilient-informer.js';
import { createClientNodeWatch, type WatchFunction } from './watch-function.js';

const wireNode = (name: string, resourceVersion: string, labels: Record<string, string> = {}) => ({
  metadata: { name, resourceVersion, labels, creationTimestamp: '2026-01-01T00:00:00Z' },
});

const until = async (condition: () => boolean, timeoutMs = 3000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

const recordingLogger = (): Logger & { warnings: string[]; errors: string[] } => {
  const warnings: string[] = [];
  const errors: string[] = [];
  const logger = {
    warnings,
    errors,
    error: (message: string) => void errors.push(message),
    warn: (message: string) => void warnings.push(message),
    info: () => {},
    verbose: () => {},
    child: () => logger,
  };
  return logger;
};

describe('ResilientInformer against a fake API server', () => {
  let server: FakeApiServer;
  let informer: ResilientInformer<V1Node> | undefined;
  let events: string[];
  let listPages: Array<() => { status?: number; body: unknown }>;

  const createInformer = (logger: Logger = silentLogger): ResilientInformer<V1Node> => {
    const config = server.kubeConfig();
    const executor = new RequestExecutor({ userAgent: 'test', logger });
    informer = new ResilientInformer<V1Node>({
      resource: 'nodes',
      apiVersion: 'v1',
      kind: 'Node',
      model: 'V1Node',
      watchPath: '/api/v1/nodes',
      list: listNodes(config.makeApiClient(CoreV1Api), executor),
      watch: createClientNodeWatch(config),
      logger,
      initialBackoffMs: 10,
      maxBackoffMs: 40,
      relistBackoffMs: 10,
      random: () => 0,
      pageSize: 2,
    });
    informer.addHandlers({
      onAdd: (node) => events.push(`add ${node.metadata?.name}@${node.metadata?.resourceVersion}`),
      onUpdate: (old, next) => events.push(`update ${next.metadata?.name} ${old.metadata?.resourceVersion}->${next.metadata?.resourceVersion}`),
      onDelete: (node) => events.push(`delete ${node.metadata?.name}@${node.metadata?.resourceVersion}`),
    });
    return informer;
  };

  beforeEach(async () => {
    server = new FakeApiServer();
    await server.start();
    events = [];
    listPages = [];
    server.on('GET', /^\/api\/v1\/nodes$/, () => {
      const next = listPages.shift();
      if (next === undefined) return { status: 500, body: status(500, 'InternalError', 'no list scripted') };
      return next();
    });
    server.onWatch(/^\/api\/v1\/nodes$/);
  });

  afterEach(async () => {
    await informer?.stop();
    informer = undefined;
    await server.close();
  });

  const scriptList = (items: unknown[], resourceVersion: string): void => {
    listPages.push(() => ({ body: { kind: 'NodeList', apiVersion: 'v1', metadata: { resourceVersion }, items } }));
  };

  it('lists all pages, syncs, then watches from the list resourceVersion with bookmarks', async () => {
    listPages.push(() => ({ body: { metadata: { resourceVersion: '10', continue: 'page2' }, items: [wireNode('n1', '5'), wireNode('n2', '6')] } }));
    scriptList([wireNode('n3', '7')], '10');
    const nodes = createInformer();
    expect(nodes.hasSynced()).toBe(false);
    nodes.start();
    await nodes.waitForSync();
    expect(nodes.hasSynced()).toBe(true);
    expect(events).toEqual(['add n1@5', 'add n2@6', 'add n3@7']);
    expect(nodes.store.list()).toHaveLength(3);
    const cached = nodes.store.get('n1');
    expect(cached?.kind).toBe('Node');
    expect(cached?.apiVersion).toBe('v1');
    expect(cached?.metadata?.creationTimestamp).toEqual(new Date('2026-01-01T00:00:00Z'));
    const lists = server.requestsTo('GET', /^\/api\/v1\/nodes$/).filter((request) => request.query.get('watch') !== 'true');
    expect(lists.map((request) => [request.query.get('limit'), request.query.get('continue')])).toEqual([
      ['2', null],
      ['2', 'page2'],
    ]);
    const watch = await server.waitForWatches(1);
    expect(watch.request.query.get('resourceVersion')).toBe('10');
    expect(watch.request.query.get('allowWatchBookmarks')).toBe('true');
    const timeout = Number(watch.request.query.get('timeoutSeconds'));
    expect(timeout).toBeGreaterThanOrEqual(300);
    expect(timeout).toBeLessThan(600);
  });

  it('delivers watch events with the previous cached object, deletes with the last state, and follows bookmarks', async () => {
    scriptList([wireNode('n1', '5')], '10');
    const nodes = createInformer();
    nodes.start();
    const watch = await server.waitForWatches(1);
    watch.send('MODIFIED', wireNode('n1', '11', { a: 'b' }));
    watch.send('ADDED', wireNode('n2', '12'));
    watch.send('DELETED', wireNode('n2', '13'));
    watch.send('BOOKMARK', { kind: 'Node', apiVersion: 'v1', metadata: { resourceVersion: '20' } });
    await until(() => events.length === 4);
    expect(events).toEqual(['add n1@5', 'update n1 5->11', 'add n2@12', 'delete n2@13']);
    expect(nodes.store.get('n1')?.metadata?.labels).toEqual({ a: 'b' });
    await until(() => nodes.lastSyncResourceVersion() === '20');
    watch.end();
    const second = await server.waitForWatches(2);
    expect(second.request.query.get('resourceVersion')).toBe('20');
    expect(server.requestsTo('GET', /nodes$/).filter((request) => request.query.get('watch') !== 'true')).toHaveLength(1);
  });

  it('relists on an in-stream 410 and reports objects that vanished as deletes (last known state)', async () => {
    scriptList([wireNode('n1', '5'), wireNode('n2', '6')], '10');
    scriptList([wireNode('n1', '30'), wireNode('n3', '31')], '40');
    const nodes = createInformer();
    nodes.start();
    const watch = await server.waitForWatches(1);
    watch.send('ERROR', status(410, 'Expired', 'too old resource version: 10 (25)'));
    const second = await server.waitForWatches(2);
    expect(second.request.query.get('resourceVersion')).toBe('40');
    expect(events).toEqual(['add n1@5', 'add n2@6', 'update n1 5->30', 'add n3@31', 'delete n2@6']);
    expect(nodes.store.list().map((node) => node.metadata?.name).sort()).toEqual(['n1', 'n3']);
  });

  it('relists on an HTTP 410 answer to the watch', async () => {
    scriptList([wireNode('n1', '5')], '10');
    scriptList([wireNode('n1', '5')], '50');
    let watches = 0;
    server.onWatch(/^\/api\/v1\/nodes$/, () => (++watches === 1 ? { status: 410, body: status(410, 'Expired', 'gone') } : undefined));
    const nodes = createInformer();
    nodes.start();
    const watch = await server.waitForWatches(1);
    expect(watch.request.query.get('resourceVersion')).toBe('50');
    expect(events).toEqual(['add n1@5', 'update n1 5->5']);
  });

  it('backs off before relisting when the server answers 410 again and again (no tight loop)', async () => {
    const goneInformer = new ResilientInformer<V1Node>({
      resource: 'nodes',
      apiVersion: 'v1',
      kind: 'Node',
      model: 'V1Node',
      watchPath: '/api/v1/nodes',
      list: listNodes(server.kubeConfig().makeApiClient(CoreV1Api), new RequestExecutor({ userAgent: 'test', logger: silentLogger })),
      watch: createClientNodeWatch(server.kubeConfig()),
      logger: silentLogger,
      relistBackoffMs: 100,
      maxBackoffMs: 1_000,
      random: () => 0,
    });
    informer = goneInformer;
    server.on('GET', /^\/api\/v1\/nodes$/, () => ({ body: { kind: 'NodeList', apiVersion: 'v1', metadata: { resourceVersion: '10' }, items: [wireNode('n1', '5')] } }));
    server.onWatch(/^\/api\/v1\/nodes$/, () => ({ status: 410, body: status(410, 'Expired', 'too old resource version') }));
    goneInformer.start();
    await goneInformer.waitForSync();
    // Relists after 100, 200 and 400 ms: four lists within ~700 ms, then the next only at ~1.5 s.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const lists = server.requestsTo('GET', /nodes$/).filter((request) => request.query.get('watch') !== 'true').length;
    expect(lists).toBeGreaterThanOrEqual(3);
    expect(lists).toBeLessThanOrEqual(5);
  });

  it('keeps going after HTTP 500 on the watch and after connection resets, re-watching from the same resourceVersion', async () => {
    scriptList([wireNode('n1', '5')], '10');
    let watches = 0;
    server.onWatch(/^\/api\/v1\/nodes$/, () => (++watches <= 2 ? { status: 500, body: status(500, 'InternalError', 'etcd unavailable') } : undefined));
    const logger = recordingLogger();
    const nodes = createInformer(logger);
    nodes.start();
    const first = await server.waitForWatches(1);
    expect(first.request.query.get('resourceVersion')).toBe('10');
    first.send('MODIFIED', wireNode('n1', '15'));
    await until(() => events.length === 2);
    first.destroy();
    const second = await server.waitForWatches(2);
    expect(second.request.query.get('resourceVersion')).toBe('15');
    second.send('ADDED', wireNode('n2', '16'));
    await until(() => events.length === 3);
    expect(events).toEqual(['add n1@5', 'update n1 5->15', 'add n2@16']);
    expect(logger.warnings.filter((warning) => warning === 'Watch failed, retrying').length).toBeGreaterThanOrEqual(3);
    expect(server.requestsTo('GET', /nodes$/).filter((request) => request.query.get('watch') !== 'true')).toHaveLength(1);
  });

  it('retries a failing list until it succeeds', async () => {
    listPages.push(() => ({ status: 503, body: status(503, 'ServiceUnavailable', 'starting') }));
    listPages.push(() => ({ status: 500, body: 'not json' }));
    scriptList([wireNode('n1', '5')], '10');
    const logger = recordingLogger();
    const nodes = createInformer(logger);
    nodes.start();
    expect(nodes.syncProblem()).toBe('no answer yet');
    await until(() => nodes.syncProblem() !== 'no answer yet' || nodes.hasSynced());
    if (!nodes.hasSynced()) expect(nodes.syncProblem()).toMatch(/starting|not json|JSON/);
    await nodes.waitForSync();
    expect(nodes.syncProblem()).toBeUndefined();
    expect(events).toEqual(['add n1@5']);
    expect(logger.warnings).toEqual(['Listing failed, retrying', 'Listing failed, retrying']);
  });

  it('synthesises adds for handlers added after sync, and survives a throwing handler', async () => {
    scriptList([wireNode('n1', '5'), wireNode('n2', '6')], '10');
    const logger = recordingLogger();
    const nodes = createInformer(logger);
    nodes.addHandlers({
      onAdd: () => {
        throw new Error('handler bug');
      },
    });
    nodes.start();
    await nodes.waitForSync();
    const late: string[] = [];
    nodes.addHandlers({ onAdd: (node) => late.push(node.metadata?.name ?? '') });
    expect(late.sort()).toEqual(['n1', 'n2']);
    expect(logger.errors).toEqual(['Informer handler failed', 'Informer handler failed']);
    const watch = await server.waitForWatches(1);
    watch.send('ADDED', wireNode('n3', '11'));
    await until(() => late.length === 3);
  });

  it('resync re-delivers onUpdate(object, object), periodically when configured', async () => {
    scriptList([wireNode('n1', '5')], '10');
    const config = server.kubeConfig();
    const executor = new RequestExecutor({ userAgent: 'test', logger: silentLogger });
    informer = new ResilientInformer<V1Node>({
      resource: 'nodes',
      apiVersion: 'v1',
      kind: 'Node',
      model: 'V1Node',
      watchPath: '/api/v1/nodes',
      list: listNodes(config.makeApiClient(CoreV1Api), executor),
      watch: createClientNodeWatch(config),
      logger: silentLogger,
      resyncPeriodMs: 30,
    });
    const pairs: Array<[V1Node, V1Node]> = [];
    informer.addHandlers({ onUpdate: (old, next) => pairs.push([old, next]) });
    informer.start();
    await informer.waitForSync();
    await until(() => pairs.length >= 2);
    expect(pairs.every(([old, next]) => old === next)).toBe(true);
  });

  it('per-handler resync periods only resync those handlers', async () => {
    scriptList([wireNode('n1', '5'), wireNode('n2', '6')], '10');
    const nodes = createInformer();
    const resynced: string[] = [];
    nodes.addHandlers({ onUpdate: (old, next) => void (old === next && resynced.push(next.metadata?.name ?? '')) }, { resyncPeriodMs: 20 });
    nodes.start();
    await nodes.waitForSync();
    await until(() => resynced.length >= 4);
    expect(events.filter((event) => event.startsWith('update'))).toEqual([]);
  });

  it('stop ends the watch; waitForSync rejects when stopped or aborted before sync', async () => {
    const nodes = createInformer();
    nodes.start();
    const controller = new AbortController();
    const aborted = nodes.waitForSync(controller.signal);
    controller.abort(new Error('shutting down'));
    await expect(aborted).rejects.toThrow('shutting down');
    const pending = expect(nodes.waitForSync()).rejects.toThrow(/stopped before it synced/);
    await nodes.stop();
    await pending;
    await expect(nodes.waitForSync()).rejects.toThrow(/stopped before it synced/);
  });

  it('stop closes an open watch stream', async () => {
    scriptList([], '10');
    const nodes = createInformer();
    nodes.start();
    const watch: OpenWatch = await server.waitForWatches(1);
    await nodes.stop();
    await until(() => watch.closed);
    expect(server.watches).toHaveLength(1);
  });

  it('watches services in all namespaces keyed namespace/name', async () => {
    server.on('GET', /^\/api\/v1\/services$/, () => ({
      body: { metadata: { resourceVersion: '3' }, items: [{ metadata: { namespace: 'ns', name: 's1', resourceVersion: '2' } }] },
    }));
    server.onWatch(/^\/api\/v1\/services$/);
    const config = server.kubeConfig();
    const executor = new RequestExecutor({ userAgent: 'test', logger: silentLogger });
    const services = new ResilientInformer<V1Service>({
      resource: 'services',
      apiVersion: 'v1',
      kind: 'Service',
      model: 'V1Service',
      watchPath: '/api/v1/services',
      list: listServicesInAllNamespaces(config.makeApiClient(CoreV1Api), executor),
      watch: createClientNodeWatch(config),
      logger: silentLogger,
    });
    services.start();
    await services.waitForSync();
    expect(services.store.get('ns/s1')?.kind).toBe('Service');
    const watch = await server.waitForWatches(1);
    expect(watch.request.path).toBe('/api/v1/services');
    await services.stop();
  });
});

describe('ResilientInformer backoff', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('backs off exponentially from 200 ms to 30 s and resets after a healthy minute', async () => {
    const attempts: number[] = [];
    let failing = true;
    const list = async (): Promise<ListPage<V1Node>> => {
      attempts.push(Date.now());
      if (failing) throw new KubeApiError('boom', 500, 'InternalError');
      return { items: [], resourceVersion: '1' };
    };
    let watchDone: ((error: unknown) => void) | undefined;
    const watch: WatchFunction = async (_path, _query, _onEvent, onDone) => {
      watchDone = onDone;
      return () => {};
    };
    const informer = new ResilientInformer<V1Node>({
      resource: 'nodes',
      apiVersion: 'v1',
      kind: 'Node',
      model: 'V1Node',
      watchPath: '/api/v1/nodes',
      list,
      watch,
      logger: silentLogger,
      random: () => 0,
    });
    const start = Date.now();
    informer.start();
    await vi.advanceTimersByTimeAsync(120_000);
    const gaps = attempts.map((at, index) => at - (attempts[index - 1] ?? start));
    expect(gaps.slice(0, 10)).toEqual([0, 200, 400, 800, 1600, 3200, 6400, 12800, 25600, 30000]);
    failing = false;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(informer.hasSynced()).toBe(true);
    await vi.advanceTimersByTimeAsync(61_000);
    const before = attempts.length;
    watchDone?.(new Error('connection reset'));
    await vi.advanceTimersByTimeAsync(199);
    expect(attempts.length).toBe(before);
    await informer.stop();
  });
});

describe('ResilientInformer relist backoff after 410 Gone', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits 800 ms before relisting, doubling up to 30 s while 410s keep coming (client-go reflector)', async () => {
    const lists: number[] = [];
    const list = async (): Promise<ListPage<V1Node>> => {
      lists.push(Date.now());
      return { items: [], resourceVersion: String(lists.length) };
    };
    const watch: WatchFunction = async (_path, _query, _onEvent, onDone) => {
      onDone(new KubeApiError('too old resource version', 410, 'Expired'));
      return () => {};
    };
    const informer = new ResilientInformer<V1Node>({ resource: 'nodes', apiVersion: 'v1', kind: 'Node', model: 'V1Node', watchPath: '/api/v1/nodes', list, watch, logger: silentLogger, random: () => 0 });
    const start = Date.now();
    informer.start();
    await vi.advanceTimersByTimeAsync(120_000);
    const gaps = lists.map((at, index) => at - (lists[index - 1] ?? start));
    expect(gaps.slice(0, 9)).toEqual([0, 800, 1600, 3200, 6400, 12800, 25600, 30000, 30000]);
    await informer.stop();
  });

  it('jitters the relist delay by up to 100%', async () => {
    const lists: number[] = [];
    const list = async (): Promise<ListPage<V1Node>> => {
      lists.push(Date.now());
      return { items: [], resourceVersion: '1' };
    };
    let watches = 0;
    const watch: WatchFunction = async (_path, _query, _onEvent, onDone) => {
      watches += 1;
      if (watches === 1) onDone(new KubeApiError('gone', 410, 'Expired'));
      return () => {};
    };
    const informer = new ResilientInformer<V1Node>({ resource: 'nodes', apiVersion: 'v1', kind: 'Node', model: 'V1Node', watchPath: '/api/v1/nodes', list, watch, logger: silentLogger, random: () => 0.5, watchTimeoutSeconds: () => 300 });
    const start = Date.now();
    informer.start();
    await vi.advanceTimersByTimeAsync(1_199);
    expect(lists).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(lists.map((at) => at - start)).toEqual([0, 1_200]);
    await informer.stop();
  });
});

describe('createClientNodeWatch', () => {
  it('client-node Watch still has the private inactivity timeout we adjust', () => {
    const watch = new Watch(new FakeApiServer().kubeConfig());
    expect(Reflect.get(watch, 'requestTimeoutMs')).toBe(30_000);
  });

  it('sends the query and decodes events', async () => {
    const server = new FakeApiServer();
    await server.start();
    try {
      server.onWatch(/^\/api\/v1\/nodes$/);
      const received: Array<[string, unknown]> = [];
      let doneWith: unknown = 'not called';
      const abort = await createClientNodeWatch(server.kubeConfig())('/api/v1/nodes', { resourceVersion: '5', allowWatchBookmarks: true }, (type, object) => received.push([type, object]), (error) => (doneWith = error));
      const watch = await server.waitForWatches(1);
      const request: RecordedRequest = watch.request;
      expect(request.query.get('watch')).toBe('true');
      expect(request.query.get('resourceVersion')).toBe('5');
      watch.send('ADDED', { metadata: { name: 'n1' } });
      await until(() => received.length === 1);
      expect(received).toEqual([['ADDED', { metadata: { name: 'n1' } }]]);
      watch.end();
      await until(() => doneWith !== 'not called');
      expect(doneWith).toBeNull();
      abort();
    } finally {
      await server.close();
    }
  });
});
