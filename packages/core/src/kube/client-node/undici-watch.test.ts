/**
 * The undici watch against client-node's Watch, the transport it replaces: on the same streams
 * they must deliver the same events (type and object) and end the same way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKubeEmulator, type KubeEmulator } from '@ccm/kube-emulator';
import { CoreV1Api, KubeConfig, setHeaderMiddleware } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadKubeConfig } from '../load-kube-config.js';
import { fromWire, type WireModel } from '../wire-format.js';
import type { JsonValue } from '../json-value.js';
import { createUndiciWatch } from './undici-watch.js';
import { createClientNodeWatch, type WatchFunction } from './watch-function.js';

const until = async (condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

interface Recording {
  events: Array<[string, unknown]>;
  done: unknown;
  abort: () => void;
}

async function record(watch: WatchFunction, path: string, query: Record<string, string | number | boolean> = {}): Promise<Recording> {
  const recording: Recording = { events: [], done: 'not called', abort: () => undefined };
  recording.abort = await watch(
    path,
    query,
    (type, object) => recording.events.push([type, object]),
    (error) => (recording.done = error),
  );
  return recording;
}

/** How a watch ended, comparable across transports: null, or the error's class, message, status code and cause. */
const ending = (done: unknown): unknown =>
  done === null || done === 'not called'
    ? done
    : [(done as Error).constructor.name, (done as Error).name, (done as Error).message, (done as { statusCode?: number }).statusCode, ((done as Error).cause as Error | undefined)?.message];

describe('createUndiciWatch against client-node Watch on the kube emulator', () => {
  let emulator: KubeEmulator;
  let directory: string;
  let config: KubeConfig;

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ccm-undici-watch-'));
    emulator = await startKubeEmulator({ bookmarkIntervalMs: 100_000 });
    const path = join(directory, 'kubeconfig');
    await emulator.writeKubeconfig(path);
    config = loadKubeConfig({ kubeconfigPath: path });
  });

  afterEach(async () => {
    await emulator.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('delivers the same Node, Service and Event watch events, decoding to the same models', async () => {
    const core = config.makeApiClient(CoreV1Api);
    const targets: Array<[string, WireModel]> = [
      ['/api/v1/nodes', 'V1Node'],
      ['/api/v1/services', 'V1Service'],
      ['/api/v1/namespaces/default/events', 'CoreV1Event'],
    ];
    const pairs = await Promise.all(
      targets.map(async ([path]) => [await record(createClientNodeWatch(config), path, { allowWatchBookmarks: true }), await record(createUndiciWatch(config), path, { allowWatchBookmarks: true })] as const),
    );
    await core.createNode({
      body: {
        metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1' }, annotations: { 'example.com/note': 'ünïcödé välue €' } },
        spec: { taints: [{ key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' }] },
      },
    });
    await core.patchNodeStatus(
      { name: 'n1', body: { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }], conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: new Date('2026-01-01T00:00:00Z') }] } } },
      { middleware: [setHeaderMiddleware('Content-Type', 'application/strategic-merge-patch+json')], middlewareMergeStrategy: 'append' },
    );
    await core.createNamespacedService({
      namespace: 'default',
      body: { metadata: { name: 's1', annotations: { 'service.beta.kubernetes.io/aws-load-balancer-type': 'nlb' } }, spec: { type: 'LoadBalancer', ports: [{ port: 80, targetPort: 8080 }] } },
    });
    await core.createNamespacedEvent({
      namespace: 'default',
      body: {
        metadata: { name: 'n1.1' },
        involvedObject: { kind: 'Node', name: 'n1', uid: 'n1' },
        reason: 'Synced',
        message: 'Node synced successfully',
        type: 'Normal',
        count: 1,
        firstTimestamp: new Date('2026-01-01T00:00:01Z'),
        lastTimestamp: new Date('2026-01-01T00:00:01Z'),
        source: { component: 'cloud-node-controller' },
      },
    });
    await core.deleteNode({ name: 'n1' });
    const expected = [3, 1, 1];
    try {
      for (const [index, [fetchWatch, undiciWatch]] of pairs.entries()) {
        const count = expected[index] as number;
        const model = (targets[index] as [string, WireModel])[1];
        const changes = (recording: Recording) => recording.events.filter(([type]) => type !== 'BOOKMARK');
        await until(() => changes(fetchWatch).length >= count && changes(undiciWatch).length >= count, `${count} events on ${targets[index]?.[0]}`);
        expect(changes(undiciWatch)).toEqual(changes(fetchWatch));
        expect(changes(undiciWatch).map(([, object]) => fromWire(object as JsonValue, model))).toEqual(changes(fetchWatch).map(([, object]) => fromWire(object as JsonValue, model)));
      }
    } finally {
      for (const pair of pairs) for (const recording of pair) recording.abort();
    }
  });
});

describe('createUndiciWatch against client-node Watch on scripted streams', () => {
  let server: Server;
  let respond: (response: ServerResponse) => void;
  let config: KubeConfig;

  beforeEach(async () => {
    server = createServer((_, response) => respond(response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    config = new KubeConfig();
    config.loadFromOptions({
      clusters: [{ name: 'c', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
      currentContext: 'c',
    });
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const both = async (inactivityTimeoutMs = 10_000): Promise<[Recording, Recording]> => {
    const pair: [Recording, Recording] = [
      await record(createClientNodeWatch(config, inactivityTimeoutMs), '/api/v1/nodes', { resourceVersion: '5' }),
      await record(createUndiciWatch(config, inactivityTimeoutMs), '/api/v1/nodes', { resourceVersion: '5' }),
    ];
    await until(() => pair.every((recording) => recording.done !== 'not called'), 'both watches to end');
    return pair;
  };

  it('splits lines across chunks (a character split between chunks, CRLF, a bad line, a last line without newline) as readline does', async () => {
    const line = (name: string) => JSON.stringify({ type: 'ADDED', object: { metadata: { name } } });
    const stream = Buffer.from(`${line('ä-1')}\n${line('n2')}\r\nnot json\n\n${line('€-3')}\n${line('n4')}`);
    const cuts = [5, stream.indexOf(Buffer.from('ä')) + 1, stream.indexOf(Buffer.from('€')) + 2, stream.length - 3];
    respond = (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      let start = 0;
      const next = (): void => {
        const cut = cuts.shift() ?? stream.length;
        response.write(stream.subarray(start, cut));
        start = cut;
        if (start < stream.length) setTimeout(next, 5);
        else response.end();
      };
      next();
    };
    const [fetchWatch, undiciWatch] = await both();
    expect(fetchWatch.events.map(([, object]) => (object as { metadata: { name: string } }).metadata.name)).toEqual(['ä-1', 'n2', '€-3', 'n4']);
    expect(undiciWatch.events).toEqual(fetchWatch.events);
    expect(ending(undiciWatch.done)).toEqual(ending(fetchWatch.done));
    expect(undiciWatch.done).toBeNull();
  });

  it.each([
    ['an answer other than 200 (410 Gone)', (response: ServerResponse) => response.writeHead(410, { 'content-type': 'application/json' }).end('{"kind":"Status","code":410}')],
    ['a stream the server breaks off', (response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(`${JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'n1' } } })}\n`);
      setTimeout(() => response.destroy(), 20);
    }],
    ['a quiet stream (inactivity timeout)', (response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/json' }).flushHeaders()],
  ])('ends as client-node does on %s', async (_, script) => {
    respond = script;
    const [fetchWatch, undiciWatch] = await both(300);
    expect(undiciWatch.events).toEqual(fetchWatch.events);
    expect(ending(undiciWatch.done)).toEqual(ending(fetchWatch.done));
  });

  it('a server that cannot be reached ends as with client-node (fetch failed)', async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    const [fetchWatch, undiciWatch] = await both();
    expect((ending(fetchWatch.done) as unknown[]).slice(0, 3)).toEqual(['TypeError', 'TypeError', 'fetch failed']);
    expect(ending(undiciWatch.done)).toEqual(ending(fetchWatch.done));
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
});
