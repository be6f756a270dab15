import { describe, expect, it } from 'vitest';
import { createObjectStore } from '../kube-emulator.js';
import { nodeResource } from '../resources/node-resource.js';
import type { StoredObject } from '../resources/resource-definition.js';
import { statusOf } from '../test-support/status-of.js';
import type { ChangeType } from './change-event.js';
import { deleteObject } from './delete-operations.js';
import { listObjects, type ListRequest } from './list-objects.js';
import { patchObject } from './patch-operation.js';
import { parseSelectors } from './selector-parsing.js';
import { createObject } from './write-operations.js';

const everything = parseSelectors(nodeResource, undefined, undefined);
const request = (extra: Partial<ListRequest> = {}): ListRequest => ({ ...everything, ...extra });
const names = (items: readonly StoredObject[]): string[] => items.map((item) => item.metadata.name ?? '');

function storeWithNodes(count: number, historySize = 100): ReturnType<typeof createObjectStore> {
  const store = createObjectStore({ watchHistorySize: historySize });
  for (let index = 0; index < count; index++) createObject(store, nodeResource, undefined, { metadata: { name: `n${index}`, labels: { parity: index % 2 === 0 ? 'even' : 'odd' } } });
  return store;
}

function recorder(): { events: string[]; sink: { send(type: ChangeType, object: StoredObject): void } } {
  const events: string[] = [];
  return { events, sink: { send: (type, object) => events.push(`${type} ${object.metadata.name ?? ''}@${object.metadata.resourceVersion ?? ''}`) } };
}

describe('listObjects', () => {
  it('lists in key order with the current resourceVersion', () => {
    const store = storeWithNodes(3);
    const result = listObjects(store, nodeResource, request());
    expect(names(result.items)).toEqual(['n0', 'n1', 'n2']);
    expect(result.metadata).toEqual({ resourceVersion: String(store.resourceVersion) });
  });

  it('paginates with limit/continue from a consistent snapshot', () => {
    const store = storeWithNodes(5);
    const first = listObjects(store, nodeResource, request({ limit: 2 }));
    expect(names(first.items)).toEqual(['n0', 'n1']);
    expect(first.metadata.remainingItemCount).toBe(3);
    createObject(store, nodeResource, undefined, { metadata: { name: 'n15' } });
    deleteObject(store, nodeResource, undefined, 'n3');
    const second = listObjects(store, nodeResource, request({ limit: 2, continueToken: first.metadata.continue ?? '' }));
    expect(names(second.items)).toEqual(['n2', 'n3']);
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    const third = listObjects(store, nodeResource, request({ limit: 2, continueToken: second.metadata.continue ?? '' }));
    expect(names(third.items)).toEqual(['n4']);
    expect(third.metadata.continue).toBeUndefined();
  });

  it('answers 410 for a continue token older than the history', () => {
    const store = storeWithNodes(4, 2);
    const first = listObjects(store, nodeResource, request({ limit: 1 }));
    for (let index = 0; index < 3; index++) patchObject(store, nodeResource, undefined, 'n0', 'merge', { metadata: { labels: { touch: String(index) } } });
    const status = statusOf(() => listObjects(store, nodeResource, request({ continueToken: first.metadata.continue ?? '' })));
    expect(status).toMatchObject({ code: 410, reason: 'Expired' });
    expect(statusOf(() => listObjects(store, nodeResource, request({ continueToken: 'garbage' }))).code).toBe(400);
  });

  it('filters with selectors and serves resourceVersionMatch=Exact from the history', () => {
    const store = storeWithNodes(4);
    const odd = parseSelectors(nodeResource, 'parity=odd', 'metadata.name!=n3');
    expect(names(listObjects(store, nodeResource, { ...odd }).items)).toEqual(['n1']);
    const before = String(store.resourceVersion);
    deleteObject(store, nodeResource, undefined, 'n0');
    expect(names(listObjects(store, nodeResource, request({ resourceVersion: before, resourceVersionMatch: 'Exact' })).items)).toEqual(['n0', 'n1', 'n2', 'n3']);
    expect(names(listObjects(store, nodeResource, request({ resourceVersion: before })).items)).toEqual(['n1', 'n2', 'n3']);
    expect(statusOf(() => listObjects(store, nodeResource, request({ resourceVersion: '999999' }))).code).toBe(504);
    expect(statusOf(() => listObjects(store, nodeResource, request({ resourceVersionMatch: 'Exact' }))).code).toBe(422);
  });
});

describe('ObjectStore.watch', () => {
  it('sends the current state as ADDED, then live changes', () => {
    const store = storeWithNodes(2);
    const { events, sink } = recorder();
    const stop = store.watch({ definition: nodeResource, ...everything }, 'now-with-state', sink);
    patchObject(store, nodeResource, undefined, 'n1', 'merge', { metadata: { labels: { x: 'y' } } });
    deleteObject(store, nodeResource, undefined, 'n0');
    stop();
    createObject(store, nodeResource, undefined, { metadata: { name: 'after' } });
    // rv 1-4 are the pre-created namespaces.
    expect(events).toEqual(['ADDED n0@5', 'ADDED n1@6', 'MODIFIED n1@7', 'DELETED n0@8']);
  });

  it('replays history after a resourceVersion and answers 410 once it is evicted', () => {
    const store = storeWithNodes(3, 3);
    const from = store.resourceVersion - 2;
    const { events, sink } = recorder();
    store.watch({ definition: nodeResource, ...everything }, from, sink);
    expect(events).toEqual(['ADDED n1@6', 'ADDED n2@7']);
    for (let index = 0; index < 3; index++) patchObject(store, nodeResource, undefined, 'n0', 'merge', { metadata: { labels: { touch: String(index) } } });
    expect(statusOf(() => store.watch({ definition: nodeResource, ...everything }, from, recorder().sink))).toMatchObject({ code: 410, reason: 'Expired' });
    store.compactHistory();
    expect(statusOf(() => store.watch({ definition: nodeResource, ...everything }, store.resourceVersion - 1, recorder().sink)).code).toBe(410);
    expect(() => store.watch({ definition: nodeResource, ...everything }, store.resourceVersion, recorder().sink)).not.toThrow();
  });

  it('turns objects entering and leaving a selection into ADDED and DELETED', () => {
    const store = storeWithNodes(1);
    const { events, sink } = recorder();
    store.watch({ definition: nodeResource, ...parseSelectors(nodeResource, 'watched=yes', undefined) }, store.resourceVersion, sink);
    patchObject(store, nodeResource, undefined, 'n0', 'merge', { metadata: { labels: { watched: 'yes' } } });
    patchObject(store, nodeResource, undefined, 'n0', 'merge', { metadata: { annotations: { a: 'b' } } });
    patchObject(store, nodeResource, undefined, 'n0', 'merge', { metadata: { labels: { watched: 'no' } } });
    expect(events).toEqual(['ADDED n0@6', 'MODIFIED n0@7', 'DELETED n0@8']);
  });
});
