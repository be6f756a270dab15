/**
 * Kubernetes access for providers and test kits: `V1Node`/`V1Service`, the ports and informer
 * handlers the controllers use, the wire format, the work queue and kubeconfig loading. The
 * in-memory implementation for tests is `@ccm/testing/kube`.
 */
export {
  jsonEqual,
  type JsonObject,
  type JsonValue,
} from './json-value.js';
export {
  KubeApiError,
} from './kube-api-error.js';
export {
  KubeConfigError,
  loadKubeConfig,
} from './load-kube-config.js';
export {
  eventNamespaceFor,
  objectReferenceFor,
} from './object-reference.js';
export {
  type EventRecorder,
  type EventSubject,
  type EventType,
  type HandlerOptions,
  type InformerHandlers,
  type KubeAccess,
  type NodeApi,
  type ObjectStore,
  type PatchType,
  type ServiceApi,
  type SharedInformer,
  type V1Node,
  type V1Service,
} from './ports.js';
export {
  createWorkQueue,
} from './rate-limited-work-queue.js';
export {
  TokenBucket,
} from './token-bucket.js';
export {
  fromWire,
  toJson,
  toWire,
  type WireModel,
} from './wire-format.js';
export {
  type WorkQueueOptions,
} from './work-queue.js';
