/**
 * Watch responses: a chunked stream of JSON lines `{"type":...,"object":...}` with initial
 * state or history replay, periodic BOOKMARKs, `timeoutSeconds`, and 410 for expired versions.
 */
import type { ServerResponse } from 'node:http';
import { fieldErrors } from '../api/field-error.js';
import { KubeStatusError, statusErrors } from '../api/status-error.js';
import type { ExpiredWatchResponse } from '../faults/fault-injector.js';
import type { ResourceDefinition, StoredObject } from '../resources/resource-definition.js';
import type { ChangeType } from '../store/change-event.js';
import { parseResourceVersion } from '../store/list-objects.js';
import type { ObjectStore } from '../store/object-store.js';
import type { WatchTarget } from '../store/watch-subscription.js';
import type { OutputFormat } from './media-type.js';
import type { ListQuery } from './query-options.js';
import { bookmarkJson, renderObject, type IncludeObject } from './representation.js';
import { writeError } from './response.js';

/** A watch whose client reads too slowly is closed once this much output is queued. */
const maxQueuedBytes = 64 * 1024 * 1024;

export interface ActiveWatch {
  close(mode: 'end' | 'reset'): void;
}

export class WatchRegistry {
  private readonly watches = new Set<ActiveWatch>();
  add(watch: ActiveWatch): void {
    this.watches.add(watch);
  }
  remove(watch: ActiveWatch): void {
    this.watches.delete(watch);
  }
  get size(): number {
    return this.watches.size;
  }
  closeAll(mode: 'end' | 'reset'): number {
    const all = [...this.watches];
    for (const watch of all) watch.close(mode);
    return all.length;
  }
}

export interface WatchRequest {
  response: ServerResponse;
  store: ObjectStore;
  target: WatchTarget;
  query: ListQuery;
  format: OutputFormat;
  bookmarkIntervalMs: number;
  expiredResponse: ExpiredWatchResponse;
  registry: WatchRegistry;
}

function invalidWatchOptions(field: string, detail: string): KubeStatusError {
  return statusErrors.invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', [fieldErrors.forbidden(field, detail)]);
}

function startingPoint(query: ListQuery): 'now-with-state' | number | 'now' {
  if (query.sendInitialEvents === true) {
    if (query.resourceVersionMatch !== 'NotOlderThan') throw invalidWatchOptions('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
    if (!query.allowWatchBookmarks) throw invalidWatchOptions('allowWatchBookmarks', 'sendInitialEvents requires setting allowWatchBookmarks to true');
    return 'now-with-state';
  }
  if (query.resourceVersionMatch) throw invalidWatchOptions('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
  const version = query.resourceVersion ?? '';
  if (query.sendInitialEvents === false && (version === '' || version === '0')) return 'now';
  if (version === '' || version === '0') return 'now-with-state';
  return parseResourceVersion(version);
}

export function serveWatch(watch: WatchRequest): void {
  const { response, store, target, query } = watch;
  const definition: ResourceDefinition = target.definition;
  const includeObject: IncludeObject = query.includeObject;
  const render = (object: StoredObject): string => renderObject(definition, object, { format: watch.format, includeObject, now: store.now() });
  const pending: string[] = [];
  let streaming = false;
  let closed = false;
  let unsubscribe: (() => void) | undefined;
  const timers: NodeJS.Timeout[] = [];

  const active: ActiveWatch = {
    close(mode) {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      unsubscribe?.();
      watch.registry.remove(active);
      if (mode === 'reset') {
        response.destroy();
        return;
      }
      const rest = queued.join('');
      queued = [];
      response.end(rest);
    },
  };

  // Lines written in the same tick (a deletecollection, a namespace cascade) go out in one write.
  let queued: string[] = [];
  const flush = (): void => {
    if (queued.length === 0 || closed) return;
    const chunk = queued.join('');
    queued = [];
    response.write(chunk);
    if (response.writableLength > maxQueuedBytes) active.close('reset');
  };
  const write = (line: string): void => {
    if (closed) return;
    if (!streaming) {
      pending.push(line);
      return;
    }
    queued.push(line);
    if (queued.length === 1) process.nextTick(flush);
  };
  const sink = {
    send: (type: ChangeType, object: StoredObject): void => {
      let rendered: string;
      try {
        rendered = render(object);
      } catch (error) {
        // A rendering bug must not fail the write that produced the event: end this watch with an ERROR.
        const failure = statusErrors.internal(error instanceof Error ? error.message : String(error));
        write(`{"type":"ERROR","object":${JSON.stringify(failure.status)}}\n`);
        if (streaming) active.close('end');
        return;
      }
      write(`{"type":"${type}","object":${rendered}}\n`);
    },
  };

  try {
    const from = startingPoint(query);
    unsubscribe = store.watch(target, from === 'now' ? store.resourceVersion : from, sink);
  } catch (error) {
    if (error instanceof KubeStatusError && error.code === 410 && watch.expiredResponse === 'error-event') {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
      response.end(`{"type":"ERROR","object":${JSON.stringify(error.status)}}\n`);
      return;
    }
    writeError(response, error);
    return;
  }

  watch.registry.add(active);
  response.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  response.flushHeaders();
  streaming = true;
  if (pending.length > 0) write(pending.join(''));
  if (query.sendInitialEvents === true) {
    write(`{"type":"BOOKMARK","object":${bookmarkJson(definition, store.resourceVersion, { 'k8s.io/initial-events-end': 'true' })}}\n`);
  }
  if (query.allowWatchBookmarks && watch.bookmarkIntervalMs > 0) {
    const bookmark = setInterval(() => write(`{"type":"BOOKMARK","object":${bookmarkJson(definition, store.resourceVersion)}}\n`), watch.bookmarkIntervalMs);
    bookmark.unref();
    timers.push(bookmark);
  }
  if (query.timeoutSeconds !== undefined && query.timeoutSeconds > 0) {
    const timeout = setTimeout(() => active.close('end'), query.timeoutSeconds * 1000);
    timeout.unref();
    timers.push(timeout);
  }
  const onGone = (): void => {
    if (closed) return;
    closed = true;
    for (const timer of timers) clearTimeout(timer);
    unsubscribe?.();
    watch.registry.remove(active);
  };
  // ServerResponse 'close' fires when the client goes away (IncomingMessage 'close' fires once the request is read).
  response.on('close', onGone);
}
