/**
 * A shared informer (client-go `SharedIndexInformer` semantics) that never gives up: it lists
 * (paginated), then watches from the list's resourceVersion with bookmarks. A 410 Gone (HTTP or
 * in-stream) relists after a jittered backoff like client-go's reflector (800 ms doubling to
 * 30 s, jitter up to 100%, reset after two healthy minutes), so a server answering 410 again and
 * again cannot cause a tight list loop; any other failure (HTTP 5xx, connection reset, list
 * error, bad event) is logged and retried with exponential backoff (200 ms .. 30 s, reset after a
 * healthy minute). Unlike client-node's ListWatch, it hands handlers the previous cached object on
 * updates, the last known state on deletes, synthesises adds for late handlers, and can resync.
 */
import type { Logger } from '../../logging/logger.js';
import { abortableSleep } from '../../util/abortable-sleep.js';
import { errorMessage } from '../../util/error-message.js';
import { ExponentialBackoff } from '../exponential-backoff.js';
import { KubeApiError } from '../kube-api-error.js';
import type { HandlerOptions, InformerHandlers, ObjectStore, SharedInformer } from '../ports.js';
import { fromWire, type WireModel } from '../wire-format.js';
import { toKubeApiError } from './to-kube-api-error.js';
import type { WatchFunction } from './watch-function.js';

/** One page of a list call. */
export interface ListPage<T> {
  items: T[];
  resourceVersion: string;
  /** Set when more pages follow. */
  continueToken?: string;
}

interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
}

export interface ResilientInformerOptions<T> {
  /** Plural resource name for logs (`nodes`). */
  resource: string;
  /** Stamped on cached objects (lists omit it); event recorders rely on it. */
  apiVersion: string;
  kind: string;
  /** client-node model used to decode watch events. */
  model: WireModel;
  /** Collection path to watch (`/api/v1/nodes`, `/api/v1/services`). */
  watchPath: string;
  /** Extra query of the watch request, e.g. the `fieldSelector` the list function uses too. */
  watchQuery?: Readonly<Record<string, string>>;
  /** Lists one page; throws. Expected to apply the client-side rate limit itself. */
  list(page: { limit: number; continueToken?: string }): Promise<ListPage<T>>;
  watch: WatchFunction;
  /** Called before each watch request (client-side rate limit). */
  throttle?: () => Promise<void>;
  logger: Logger;
  /** Re-deliver `onUpdate(object, object)` for every cached object this often; 0 = never. */
  resyncPeriodMs?: number;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** A failure after this long without one starts again from the initial backoff. */
  backoffResetMs?: number;
  /** First wait before relisting after a 410 Gone; default 800 ms (client-go reflector). Doubles up to maxBackoffMs. */
  relistBackoffMs?: number;
  /** Server-side watch timeout; default random in [300, 600) s like client-go. */
  watchTimeoutSeconds?: () => number;
  pageSize?: number;
  random?: () => number;
}

/** `namespace/name` for namespaced objects, `name` otherwise (client-go MetaNamespaceKeyFunc). */
export function objectKey(object: KubeObject): string {
  const name = object.metadata?.name ?? '';
  const namespace = object.metadata?.namespace;
  return namespace ? `${namespace}/${name}` : name;
}

class GoneError extends Error {}

/** client-go reflector backoff manager: 800 ms initial, reset after 2 minutes without a failure. */
const RELIST_INITIAL_BACKOFF_MS = 800;
const RELIST_BACKOFF_RESET_MS = 120_000;

export class ResilientInformer<T extends KubeObject> implements SharedInformer<T> {
  readonly #options: ResilientInformerOptions<T>;
  readonly #objects = new Map<string, T>();
  readonly #handlers: Array<InformerHandlers<T>> = [];
  readonly #syncWaiters = new Set<{ resolve: () => void; reject: (error: unknown) => void }>();
  readonly #stopController = new AbortController();
  #resourceVersion = '';
  #synced = false;
  /** Why the last list or watch attempt failed; undefined after a success. */
  #lastFailure: string | undefined;
  /** A list page has been received at least once (the server answers). */
  #answered = false;
  #started = false;
  #abortWatch: (() => void) | undefined;
  #resyncTimer: NodeJS.Timeout | undefined;
  readonly #handlerTimers: NodeJS.Timeout[] = [];
  readonly #backoff: ExponentialBackoff;
  readonly #relistBackoff: ExponentialBackoff;
  #loop: Promise<void> | undefined;

  /** The cache: `name` or `namespace/name` keys. Objects are shared with handlers: do not mutate. */
  readonly store: ObjectStore<T> = {
    get: (key) => this.#objects.get(key),
    list: () => [...this.#objects.values()],
  };

  constructor(options: ResilientInformerOptions<T>) {
    this.#options = options;
    this.#backoff = new ExponentialBackoff({
      initialMs: options.initialBackoffMs ?? 200,
      maxMs: options.maxBackoffMs ?? 30_000,
      resetAfterMs: options.backoffResetMs ?? 60_000,
      jitter: 0.2,
      ...(options.random ? { random: options.random } : {}),
    });
    this.#relistBackoff = new ExponentialBackoff({
      initialMs: options.relistBackoffMs ?? RELIST_INITIAL_BACKOFF_MS,
      maxMs: options.maxBackoffMs ?? 30_000,
      resetAfterMs: RELIST_BACKOFF_RESET_MS,
      jitter: 1.0,
      ...(options.random ? { random: options.random } : {}),
    });
  }

  addHandlers(handlers: InformerHandlers<T>, options: HandlerOptions = {}): void {
    this.#handlers.push(handlers);
    const period = options.resyncPeriodMs ?? 0;
    if (period > 0 && !this.#stopped) {
      const timer = setInterval(() => {
        if (!this.#synced) return;
        for (const object of this.#objects.values()) this.#call('onUpdate', () => handlers.onUpdate?.(object, object));
      }, period);
      timer.unref();
      this.#handlerTimers.push(timer);
    }
    if (!this.#synced) return;
    for (const object of this.#objects.values()) this.#call('onAdd', () => handlers.onAdd?.(object));
  }

  hasSynced(): boolean {
    return this.#synced;
  }

  waitForSync(signal?: AbortSignal): Promise<void> {
    if (this.#synced) return Promise.resolve();
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.#stopController.signal.aborted) return Promise.reject(new Error(`${this.#options.resource} informer stopped before it synced`));
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (error: unknown) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error as Error);
        },
      };
      const onAbort = (): void => {
        this.#syncWaiters.delete(waiter);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#syncWaiters.add(waiter);
    });
  }

  /** Starts listing and watching (once); runs until `stop()`. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#loop = this.#run();
    const period = this.#options.resyncPeriodMs ?? 0;
    if (period > 0) {
      this.#resyncTimer = setInterval(() => this.resync(), period);
      this.#resyncTimer.unref();
    }
  }

  /** Stops watching; resolves when the loop has ended. The cache keeps its last content. */
  async stop(): Promise<void> {
    this.#stopController.abort();
    this.#abortWatch?.();
    if (this.#resyncTimer !== undefined) clearInterval(this.#resyncTimer);
    for (const timer of this.#handlerTimers.splice(0)) clearInterval(timer);
    for (const waiter of this.#syncWaiters) waiter.reject(new Error(`${this.#options.resource} informer stopped before it synced`));
    this.#syncWaiters.clear();
    await this.#loop;
  }

  /** Delivers `onUpdate(object, object)` for every cached object (periodic resync). */
  resync(): void {
    if (!this.#synced) return;
    for (const object of this.#objects.values()) this.#notify('onUpdate', (handlers) => handlers.onUpdate?.(object, object));
  }

  /**
   * Why the informer has not synced yet, or undefined when it has synced or is still listing
   * normally: the last list/watch failure, or a note that the server never answered.
   */
  syncProblem(): string | undefined {
    if (this.#synced) return undefined;
    if (this.#lastFailure !== undefined) return this.#lastFailure;
    return this.#answered ? undefined : 'no answer yet';
  }

  /** The resourceVersion the next watch starts from. */
  lastSyncResourceVersion(): string {
    return this.#resourceVersion;
  }

  get #stopped(): boolean {
    return this.#stopController.signal.aborted;
  }

  async #run(): Promise<void> {
    let needList = true;
    while (!this.#stopped) {
      try {
        if (needList) {
          await this.#list();
          needList = false;
        }
        const startedAt = Date.now();
        const outcome = await this.#watchOnce();
        if (outcome.kind === 'closed' && outcome.events === 0 && Date.now() - startedAt < 1000) {
          // A server that closes watches at once would make us spin; treat it as a failure.
          throw new Error(`watch of ${this.#options.resource} closed immediately`);
        }
      } catch (error) {
        if (this.#stopped) break;
        this.#lastFailure = errorMessage(error);
        if (error instanceof GoneError || (error instanceof KubeApiError && error.isGone)) {
          const delay = this.#relistBackoff.next();
          this.#options.logger.verbose(2, 'Watch expired, relisting', { resource: this.#options.resource, resourceVersion: this.#resourceVersion, relistInMs: delay });
          needList = true;
          await abortableSleep(delay, this.#stopController.signal);
          continue;
        }
        const delay = this.#backoff.next();
        this.#options.logger.warn(needList ? 'Listing failed, retrying' : 'Watch failed, retrying', {
          resource: this.#options.resource,
          error: errorMessage(error),
          retryInMs: delay,
        });
        await abortableSleep(delay, this.#stopController.signal);
      }
    }
  }

  async #list(): Promise<void> {
    const listed = new Map<string, T>();
    let continueToken: string | undefined;
    let resourceVersion = '';
    do {
      if (this.#stopped) return;
      const page = await this.#options.list({ limit: this.#options.pageSize ?? 500, ...(continueToken ? { continueToken } : {}) });
      this.#answered = true;
      this.#lastFailure = undefined;
      for (const item of page.items) {
        const object = this.#stamp(item);
        listed.set(objectKey(object), object);
      }
      resourceVersion = page.resourceVersion;
      continueToken = page.continueToken || undefined;
    } while (continueToken !== undefined);
    if (this.#stopped) return;
    this.#replace(listed, resourceVersion);
  }

  /** client-go Replace: adds/updates for listed objects, deletes (last known state) for vanished ones. */
  #replace(listed: Map<string, T>, resourceVersion: string): void {
    const previous = new Map(this.#objects);
    this.#objects.clear();
    for (const [key, object] of listed) this.#objects.set(key, object);
    this.#resourceVersion = resourceVersion;
    for (const [key, object] of listed) {
      const old = previous.get(key);
      if (old === undefined) this.#notify('onAdd', (handlers) => handlers.onAdd?.(object));
      else this.#notify('onUpdate', (handlers) => handlers.onUpdate?.(old, object));
    }
    for (const [key, old] of previous) {
      if (!listed.has(key)) this.#notify('onDelete', (handlers) => handlers.onDelete?.(old));
    }
    if (!this.#synced) {
      this.#synced = true;
      for (const waiter of this.#syncWaiters) waiter.resolve();
      this.#syncWaiters.clear();
      this.#options.logger.verbose(2, 'Informer synced', { resource: this.#options.resource, objects: listed.size, resourceVersion });
    }
  }

  async #watchOnce(): Promise<{ kind: 'closed'; events: number }> {
    await this.#options.throttle?.();
    if (this.#stopped) return { kind: 'closed', events: 1 };
    const timeoutSeconds = this.#options.watchTimeoutSeconds?.() ?? Math.floor(300 * (1 + (this.#options.random ?? Math.random)()));
    const description = `watch ${this.#options.resource}`;
    return new Promise((resolve, reject) => {
      let settled = false;
      let events = 0;
      let abort: (() => void) | undefined;
      const finish = (outcome: () => void): void => {
        if (settled) return;
        settled = true;
        this.#abortWatch = undefined;
        abort?.();
        outcome();
      };
      const onEvent = (type: string, raw: unknown): void => {
        if (settled) return;
        events += 1;
        try {
          this.#handleEvent(type, raw);
        } catch (error) {
          finish(() => reject(error));
        }
      };
      const onDone = (error: unknown): void => {
        finish(() => (error ? reject(toKubeApiError(error, description)) : resolve({ kind: 'closed', events })));
      };
      this.#abortWatch = () => finish(() => resolve({ kind: 'closed', events: events + 1 }));
      this.#options
        .watch(
          this.#options.watchPath,
          { ...this.#options.watchQuery, resourceVersion: this.#resourceVersion, allowWatchBookmarks: true, timeoutSeconds },
          onEvent,
          onDone,
        )
        .then(
          (abortStream) => {
            abort = abortStream;
            if (settled) abortStream();
          },
          (error: unknown) => finish(() => reject(toKubeApiError(error, description))),
        );
    });
  }

  #handleEvent(type: string, raw: unknown): void {
    if (type === 'ERROR') {
      const status = (raw ?? {}) as { code?: number; reason?: string; message?: string };
      if (status.code === 410) throw new GoneError(status.message ?? 'resource version too old');
      throw new KubeApiError(`watch ${this.#options.resource}: ${status.message ?? 'error event'}`, status.code ?? 0, status.reason ?? '');
    }
    if (typeof raw !== 'object' || raw === null) throw new Error(`watch ${this.#options.resource}: ${type} event without an object`);
    const resourceVersion = (raw as KubeObject).metadata?.resourceVersion;
    if (type === 'BOOKMARK') {
      if (resourceVersion) this.#resourceVersion = resourceVersion;
      return;
    }
    const object = this.#stamp(fromWire<T>(raw as never, this.#options.model));
    const key = objectKey(object);
    const old = this.#objects.get(key);
    switch (type) {
      case 'ADDED':
      case 'MODIFIED':
        this.#objects.set(key, object);
        if (old === undefined) this.#notify('onAdd', (handlers) => handlers.onAdd?.(object));
        else this.#notify('onUpdate', (handlers) => handlers.onUpdate?.(old, object));
        break;
      case 'DELETED':
        this.#objects.delete(key);
        this.#notify('onDelete', (handlers) => handlers.onDelete?.(object));
        break;
      default:
        throw new Error(`watch ${this.#options.resource}: unknown event type ${type}`);
    }
    if (resourceVersion) this.#resourceVersion = resourceVersion;
  }

  #stamp(object: T): T {
    if (object.apiVersion === undefined) object.apiVersion = this.#options.apiVersion;
    if (object.kind === undefined) object.kind = this.#options.kind;
    return object;
  }

  #notify(method: keyof InformerHandlers<T>, deliver: (handlers: InformerHandlers<T>) => void): void {
    for (const handlers of this.#handlers) this.#call(method, () => deliver(handlers));
  }

  #call(method: string, deliver: () => void): void {
    try {
      deliver();
    } catch (error) {
      this.#options.logger.error('Informer handler failed', {
        resource: this.#options.resource,
        handler: method,
        error: errorMessage(error),
      });
    }
  }
}
