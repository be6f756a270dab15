/**
 * The Kubernetes ports the controllers own. The runtime implements them over
 * @kubernetes/client-node (see `kube/client-node/`); tests implement them in memory or run
 * the real adapters against @ccm/kube-emulator. Objects are client-node's `V1*` types.
 * Every method may throw `KubeApiError`.
 */
import type { CoreV1Event, V1Node, V1ObjectReference, V1Service } from '@kubernetes/client-node';

/** merge = RFC 7386 merge patch, strategic = strategic merge patch, json = RFC 6902 JSON patch. */
export type PatchType = 'merge' | 'strategic' | 'json';

export interface NodeApi {
  get(name: string): Promise<V1Node>;
  /** PUT of the whole object; conflicts (stale resourceVersion) throw KubeApiError 409. */
  update(node: V1Node): Promise<V1Node>;
  patch(name: string, patch: unknown, type: PatchType): Promise<V1Node>;
  /** Patch of the `status` subresource. */
  patchStatus(name: string, patch: unknown, type: PatchType): Promise<V1Node>;
  delete(name: string): Promise<void>;
}

export interface ServiceApi {
  get(namespace: string, name: string): Promise<V1Service>;
  update(service: V1Service): Promise<V1Service>;
  patch(namespace: string, name: string, patch: unknown, type: PatchType): Promise<V1Service>;
  patchStatus(namespace: string, name: string, patch: unknown, type: PatchType): Promise<V1Service>;
}

/** A read-only local cache kept current by an informer. Keys: `name` (cluster-scoped) or `namespace/name`. */
export interface ObjectStore<T> {
  get(key: string): T | undefined;
  list(): T[];
}

export interface InformerHandlers<T> {
  onAdd?(object: T): void;
  /** Called on every update, including resyncs with identical objects. */
  onUpdate?(oldObject: T, newObject: T): void;
  /** `object` is the last known state. */
  onDelete?(object: T): void;
}

export interface HandlerOptions {
  /** Per-handler resync period in milliseconds; 0 or absent = no resync for these handlers. */
  resyncPeriodMs?: number;
}

/**
 * A shared informer that survives any watch failure: it restarts with backoff, relists on 410
 * and never stops until `stop()`. Handlers added after start receive synthetic adds for the cache.
 */
export interface SharedInformer<T> {
  readonly store: ObjectStore<T>;
  /**
   * Registers handlers. With `options.resyncPeriodMs`, these handlers (only) also receive
   * `onUpdate(object, object)` for every cached object that often (client-go
   * AddEventHandlerWithResyncPeriod; upstream service controller: 30 s services, 100 s nodes).
   */
  addHandlers(handlers: InformerHandlers<T>, options?: HandlerOptions): void;
  hasSynced(): boolean;
  /** Resolves when the first list completed; rejects if `signal` aborts first. */
  waitForSync(signal?: AbortSignal): Promise<void>;
}

export type EventType = 'Normal' | 'Warning';

/** Something an event can be about: a Node, a Service, ... */
export interface EventSubject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string };
}

/**
 * Records events like client-go's recorder: repeats of (object, type, reason, message) are
 * aggregated into one Event with a growing count, and a per-object token bucket keeps a
 * flapping object from flooding the API. Never throws; failures are logged.
 */
export interface EventRecorder {
  event(subject: EventSubject, type: EventType, reason: string, message: string): void;
}

/** What the controllers get from the runtime for Kubernetes access. */
export interface KubeAccess {
  nodes: NodeApi;
  services: ServiceApi;
  nodeInformer: SharedInformer<V1Node>;
  serviceInformer: SharedInformer<V1Service>;
  /** An event recorder reporting as `component` (e.g. `cloud-node-controller`). */
  eventRecorder(component: string): EventRecorder;
}

export type { CoreV1Event, V1Node, V1ObjectReference, V1Service };
