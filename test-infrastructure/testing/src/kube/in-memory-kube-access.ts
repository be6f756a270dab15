/**
 * An in-memory Kubernetes for controller unit tests: implements every port of KubeAccess over
 * stores that behave like an API server (see InMemoryResource), with informers notified
 * synchronously, a log of API calls (like client-go's fake clientset `Actions()`), error
 * injection and a recording event recorder.
 *
 * @example
 * const kube = new InMemoryKubeAccess();
 * kube.addNode({ metadata: { name: 'n1' }, spec: { taints: [...] } });
 * const controller = createNodeController({ ..., kube });
 * await kube.nodes.patchStatus('n1', { status: { addresses } }, 'strategic');
 * expect(kube.eventLog.find({ reason: 'Synced' })).toHaveLength(1);
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import type { EventRecorder, KubeAccess, NodeApi, PatchType, ServiceApi } from '@ccm/core/kube';
import { NODE_MERGE_SCHEMA, SERVICE_MERGE_SCHEMA } from './apply-patch.js';
import { InMemoryInformer } from './in-memory-informer.js';
import { InMemoryResource } from './in-memory-resource.js';
import { RecordingEventLog } from './recording-event-recorder.js';

/** An API call made through the ports, as recorded in {@link InMemoryKubeAccess.actions}. */
export interface KubeAction {
  verb: 'get' | 'update' | 'patch' | 'delete';
  resource: 'nodes' | 'services';
  /** Set for namespaced resources. */
  namespace?: string;
  name: string;
  /** `status` for calls on the status subresource. */
  subresource?: 'status';
  patchType?: PatchType;
  /** The patch body as sent (for `patch`), or the object (for `update`). */
  body?: unknown;
}

/** Which calls an injected error applies to; omitted fields match anything. */
export type KubeActionMatcher = Partial<Pick<KubeAction, 'verb' | 'resource' | 'namespace' | 'name' | 'subresource'>>;

export interface InMemoryKubeAccessOptions {
  /** Clock for creationTimestamp, deletionTimestamp and event timestamps. Default: real time. */
  now?: () => Date;
}

interface InjectedFailure {
  matcher: KubeActionMatcher;
  error: Error;
  remaining: number;
}

export class InMemoryKubeAccess implements KubeAccess {
  /** Node informer: cache and handlers updated synchronously on every committed write. */
  readonly nodeInformer = new InMemoryInformer<V1Node>();
  /** Service informer (all namespaces), keyed `namespace/name`. */
  readonly serviceInformer = new InMemoryInformer<V1Service>();
  /** Every event recorded through {@link eventRecorder}, by any component. */
  readonly eventLog: RecordingEventLog;
  /** NodeApi over the in-memory store; each call is appended to {@link actions}. */
  readonly nodes: NodeApi;
  /** ServiceApi over the in-memory store; each call is appended to {@link actions}. */
  readonly services: ServiceApi;

  readonly #actions: KubeAction[] = [];
  readonly #failures: InjectedFailure[] = [];
  readonly #nodeStore: InMemoryResource<V1Node>;
  readonly #serviceStore: InMemoryResource<V1Service>;
  #resourceVersion = 0;

  constructor(options: InMemoryKubeAccessOptions = {}) {
    const now = options.now ?? (() => new Date());
    const nextResourceVersion = (): string => String(++this.#resourceVersion);
    this.eventLog = new RecordingEventLog(now);
    this.#nodeStore = new InMemoryResource<V1Node>({
      resource: 'nodes',
      kind: 'Node',
      model: 'V1Node',
      namespaced: false,
      schema: NODE_MERGE_SCHEMA,
      informer: this.nodeInformer,
      nextResourceVersion,
      now,
    });
    this.#serviceStore = new InMemoryResource<V1Service>({
      resource: 'services',
      kind: 'Service',
      model: 'V1Service',
      namespaced: true,
      schema: SERVICE_MERGE_SCHEMA,
      informer: this.serviceInformer,
      nextResourceVersion,
      now,
    });
    this.nodes = this.#createNodeApi();
    this.services = this.#createServiceApi();
  }

  /** A recorder reporting as `component`; its events land in {@link eventLog}. */
  eventRecorder(component: string): EventRecorder {
    return this.eventLog.recorder(component);
  }

  /** The API calls made through `nodes` and `services`, oldest first (a copy). */
  get actions(): KubeAction[] {
    return [...this.#actions];
  }

  /** Forgets the recorded actions (e.g. after test setup). */
  clearActions(): void {
    this.#actions.length = 0;
  }

  /**
   * Makes the next `times` calls matching `matcher` fail with `error` (typically a KubeApiError)
   * before touching the store. The failed calls are still recorded in {@link actions}.
   */
  failNext(matcher: KubeActionMatcher, error: Error, times = 1): void {
    this.#failures.push({ matcher, error, remaining: times });
  }

  /** Creates a node (sets uid, creationTimestamp, resourceVersion); informers see an add. */
  addNode(node: V1Node): V1Node {
    return this.#nodeStore.create(node);
  }

  /** Creates a service (namespace defaults to `default`); informers see an add. */
  addService(service: V1Service): V1Service {
    return this.#serviceStore.create(service);
  }

  /** The stored node (a fresh copy), or undefined. Not recorded as an action. */
  getNode(name: string): V1Node | undefined {
    return this.#nodeStore.peek(name);
  }

  /** The stored service (a fresh copy), or undefined. Not recorded as an action. */
  getService(namespace: string, name: string): V1Service | undefined {
    return this.#serviceStore.peek(`${namespace}/${name}`);
  }

  /** All stored nodes (fresh copies). */
  listNodes(): V1Node[] {
    return this.#nodeStore.list();
  }

  /** All stored services (fresh copies). */
  listServices(): V1Service[] {
    return this.#serviceStore.list();
  }

  /**
   * Deletes a service as `kubectl delete` would: with finalizers it only gets a
   * deletionTimestamp (informers see an update); it disappears once the finalizers are removed.
   */
  deleteService(namespace: string, name: string): void {
    this.#serviceStore.delete(`${namespace}/${name}`, name);
  }

  /** Deletes a node like `kubectl delete node` (finalizers respected). Not recorded as an action. */
  deleteNode(name: string): void {
    this.#nodeStore.delete(name, name);
  }

  /** Removes an object at once, ignoring finalizers; returns false if it did not exist. */
  forceRemoveNode(name: string): boolean {
    return this.#nodeStore.forceRemove(name);
  }

  /** Removes a service at once, ignoring finalizers; returns false if it did not exist. */
  forceRemoveService(namespace: string, name: string): boolean {
    return this.#serviceStore.forceRemove(`${namespace}/${name}`);
  }

  #record(action: KubeAction): void {
    this.#actions.push(action);
    const failure = this.#failures.find((candidate) => candidate.remaining > 0 && matches(candidate.matcher, action));
    if (failure === undefined) return;
    failure.remaining -= 1;
    throw failure.error;
  }

  #createNodeApi(): NodeApi {
    const store = this.#nodeStore;
    const run = async <R>(action: KubeAction, operation: () => R): Promise<R> => {
      this.#record(action);
      return operation();
    };
    return {
      get: (name) => run({ verb: 'get', resource: 'nodes', name }, () => store.get(name, name)),
      update: (node) => run({ verb: 'update', resource: 'nodes', name: node.metadata?.name ?? '', body: structuredClone(node) }, () => store.update(node)),
      patch: (name, patch, type) =>
        run({ verb: 'patch', resource: 'nodes', name, patchType: type, body: structuredClone(patch) }, () => store.patch(name, name, patch, type, 'main')),
      patchStatus: (name, patch, type) =>
        run({ verb: 'patch', resource: 'nodes', name, subresource: 'status', patchType: type, body: structuredClone(patch) }, () =>
          store.patch(name, name, patch, type, 'status'),
        ),
      delete: (name) => run({ verb: 'delete', resource: 'nodes', name }, () => store.delete(name, name)),
    };
  }

  #createServiceApi(): ServiceApi {
    const store = this.#serviceStore;
    const run = async <R>(action: KubeAction, operation: () => R): Promise<R> => {
      this.#record(action);
      return operation();
    };
    return {
      get: (namespace, name) => run({ verb: 'get', resource: 'services', namespace, name }, () => store.get(`${namespace}/${name}`, name)),
      update: (service) => {
        const namespace = service.metadata?.namespace ?? 'default';
        const name = service.metadata?.name ?? '';
        return run({ verb: 'update', resource: 'services', namespace, name, body: structuredClone(service) }, () => store.update(service));
      },
      patch: (namespace, name, patch, type) =>
        run({ verb: 'patch', resource: 'services', namespace, name, patchType: type, body: structuredClone(patch) }, () =>
          store.patch(`${namespace}/${name}`, name, patch, type, 'main'),
        ),
      patchStatus: (namespace, name, patch, type) =>
        run({ verb: 'patch', resource: 'services', namespace, name, subresource: 'status', patchType: type, body: structuredClone(patch) }, () =>
          store.patch(`${namespace}/${name}`, name, patch, type, 'status'),
        ),
    };
  }
}

function matches(matcher: KubeActionMatcher, action: KubeAction): boolean {
  return (
    (matcher.verb === undefined || matcher.verb === action.verb) &&
    (matcher.resource === undefined || matcher.resource === action.resource) &&
    (matcher.namespace === undefined || matcher.namespace === action.namespace) &&
    (matcher.name === undefined || matcher.name === action.name) &&
    (matcher.subresource === undefined || matcher.subresource === action.subresource)
  );
}
