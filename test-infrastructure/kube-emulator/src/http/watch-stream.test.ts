import { afterEach, describe, expect, it } from 'vitest';
import { startKubeEmulator, type KubeEmulator, type KubeEmulatorOptions } from '../kube-emulator.js';
import { request, WatchReader, type WatchEvent } from '../test-support/http-client.js';

let emulator: KubeEmulator | undefined;
const readers: WatchReader[] = [];

async function start(options: KubeEmulatorOptions = {}): Promise<KubeEmulator> {
  emulator = await startKubeEmulator(options);
  return emulator;
}

async function watch(path: string, headers: Record<string, string> = {}): Promise<WatchReader> {
  const reader = await WatchReader.open(emulator?.url ?? '', path, headers);
  readers.push(reader);
  return reader;
}

const summary = (event: WatchEvent | undefined): string => `${event?.type ?? 'END'} ${String(event?.object.metadata?.['name'] ?? '')}`.trim();

afterEach(async () => {
  for (const reader of readers.splice(0)) reader.close();
  await emulator?.close();
  emulator = undefined;
});

describe('watch over HTTP', () => {
  it('sends the current state when resourceVersion is omitted or 0, then changes', async () => {
    const kube = await start();
    kube.create('nodes', { metadata: { name: 'a' } });
    for (const path of ['/api/v1/nodes?watch=true', '/api/v1/nodes?watch=1&resourceVersion=0', '/api/v1/watch/nodes']) {
      const reader = await watch(path);
      expect(reader.status).toBe(200);
      const first = await reader.next();
      expect(first).toMatchObject({ type: 'ADDED', object: { kind: 'Node', apiVersion: 'v1', metadata: { name: 'a' } } });
    }
    const live = readers[0] as WatchReader;
    kube.patch('nodes', 'a', { metadata: { labels: { x: 'y' } } }, 'merge');
    expect(summary(await live.next())).toBe('MODIFIED a');
    kube.delete('nodes', 'a');
    const deleted = await live.next();
    expect(summary(deleted)).toBe('DELETED a');
    expect(deleted?.object.metadata?.['resourceVersion']).toBe(kube.resourceVersion());
  });

  it('resumes after a resourceVersion by replaying the history, scoped to a namespace', async () => {
    const kube = await start();
    const from = kube.resourceVersion();
    kube.create('configmaps', { metadata: { name: 'one' } }, { namespace: 'default' });
    kube.create('configmaps', { metadata: { name: 'other' } }, { namespace: 'kube-system' });
    kube.patch('configmaps', 'one', { data: { a: 'b' } }, 'merge', { namespace: 'default' });
    const reader = await watch(`/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${from}`);
    expect(summary(await reader.next())).toBe('ADDED one');
    expect(summary(await reader.next())).toBe('MODIFIED one');
    kube.create('configmaps', { metadata: { name: 'two' } }, { namespace: 'default' });
    expect(summary(await reader.next())).toBe('ADDED two');
  });

  it('applies label and field selectors, turning a departure into DELETED', async () => {
    const kube = await start();
    kube.create('nodes', { metadata: { name: 'a', labels: { pool: 'blue' } } });
    kube.create('nodes', { metadata: { name: 'b', labels: { pool: 'green' } } });
    const byLabel = await watch('/api/v1/nodes?watch=true&labelSelector=pool%3Dblue');
    const byField = await watch('/api/v1/nodes?watch=true&fieldSelector=metadata.name%3Db');
    expect(summary(await byLabel.next())).toBe('ADDED a');
    expect(summary(await byField.next())).toBe('ADDED b');
    kube.patch('nodes', 'a', { metadata: { labels: { pool: 'green' } } }, 'merge');
    kube.patch('nodes', 'b', { metadata: { labels: { pool: 'blue' } } }, 'merge');
    const departed = await byLabel.next();
    expect(summary(departed)).toBe('DELETED a');
    expect((departed?.object.metadata?.['labels'] as Record<string, string>)['pool']).toBe('blue');
    expect(summary(await byLabel.next())).toBe('ADDED b');
    expect(summary(await byField.next())).toBe('MODIFIED b');
  });

  it('sends periodic bookmarks with the current resourceVersion when asked', async () => {
    const kube = await start({ bookmarkIntervalMs: 50 });
    const reader = await watch(`/api/v1/nodes?watch=true&allowWatchBookmarks=true&resourceVersion=${kube.resourceVersion()}`);
    kube.create('configmaps', { metadata: { name: 'elsewhere' } });
    const bookmark = await reader.next();
    expect(bookmark).toEqual({ type: 'BOOKMARK', object: { kind: 'Node', apiVersion: 'v1', metadata: { resourceVersion: kube.resourceVersion() } } });
    const plain = await watch(`/api/v1/nodes?watch=true&resourceVersion=${kube.resourceVersion()}`);
    kube.create('nodes', { metadata: { name: 'n' } });
    expect(summary(await plain.next())).toBe('ADDED n');
  });

  it('sends initial events followed by an initial-events-end bookmark', async () => {
    const kube = await start();
    kube.create('nodes', { metadata: { name: 'a' } });
    const reader = await watch('/api/v1/nodes?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true');
    expect(summary(await reader.next())).toBe('ADDED a');
    expect(await reader.next()).toMatchObject({ type: 'BOOKMARK', object: { metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } } });
    expect((await request(kube.url, 'GET', '/api/v1/nodes?watch=true&sendInitialEvents=true')).status).toBe(422);
  });

  it('ends the stream after timeoutSeconds', async () => {
    await start();
    const reader = await watch('/api/v1/nodes?watch=true&timeoutSeconds=1');
    const started = Date.now();
    expect(await reader.ended(3000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('answers an expired resourceVersion with an in-stream ERROR 410 by default', async () => {
    const kube = await start({ watchHistorySize: 2 });
    const from = kube.resourceVersion();
    for (const name of ['a', 'b', 'c']) kube.create('nodes', { metadata: { name } });
    const reader = await watch(`/api/v1/nodes?watch=true&resourceVersion=${from}`);
    expect(reader.status).toBe(200);
    expect(await reader.next()).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: expect.stringMatching(/^too old resource version: \d+ \(\d+\)$/) } });
    expect(await reader.ended()).toBe(true);
  });

  it('answers an expired resourceVersion with HTTP 410 when configured to', async () => {
    const kube = await start({ watchHistorySize: 2, expiredWatchResponse: 'http-status' });
    const from = kube.resourceVersion();
    for (const name of ['a', 'b', 'c']) kube.create('nodes', { metadata: { name } });
    const response = await request(kube.url, 'GET', `/api/v1/nodes?watch=true&resourceVersion=${from}`);
    expect(response.status).toBe(410);
    expect(response.body).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
  });

  it('serves Table events to kubectl-style watches', async () => {
    const kube = await start();
    kube.create('nodes', { metadata: { name: 'a' } });
    const reader = await watch('/api/v1/nodes?watch=true', { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' });
    const event = await reader.next();
    expect(event).toMatchObject({ type: 'ADDED', object: { kind: 'Table', apiVersion: 'meta.k8s.io/v1' } });
    const rows = (event?.object['rows'] ?? []) as Array<{ cells: unknown[] }>;
    expect(rows.map((row) => row.cells.slice(0, 3))).toEqual([['a', 'Unknown', '<none>']]);
  });
});
