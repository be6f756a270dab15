/**
 * What the parts of the service controller share: the cloud, the API, the recorder, the metrics
 * and the per-service record of the node set last sent to the cloud.
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import type { EventRecorder, EventSubject, ServiceApi } from '../../kube/ports.js';
import type { Logger } from '../../logging/logger.js';
import type { LoadBalancer } from '../../provider/load-balancer.js';
import type { ServiceControllerMetrics } from './service-metrics.js';

export interface ServiceSyncContext {
  readonly clusterName: string;
  readonly providerName: string;
  readonly loadBalancer: LoadBalancer;
  readonly services: ServiceApi;
  readonly recorder: EventRecorder;
  readonly logger: Logger;
  readonly metrics: ServiceControllerMetrics;
  /** All nodes of the informer cache (may throw, like a lister). */
  listNodes(): V1Node[];
  /** The node set last handed to the cloud, per service key (upstream `lastSyncedNodes`). */
  readonly lastSyncedNodes: Map<string, V1Node[]>;
  /** Aborted when the controller stops; passed to cloud calls. */
  readonly signal: AbortSignal;
}

/** `namespace/name`, or `name` without a namespace (client-go `MetaNamespaceKeyFunc`). */
export function serviceKey(service: V1Service): string {
  const namespace = service.metadata?.namespace ?? '';
  const name = service.metadata?.name ?? '';
  return namespace === '' ? name : `${namespace}/${name}`;
}

/** client-go `SplitMetaNamespaceKey`: `name` or `namespace/name`; anything else is an error. */
export function splitServiceKey(key: string): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: parts[0] as string };
  if (parts.length === 2) return { namespace: parts[0] as string, name: parts[1] as string };
  throw new Error(`unexpected key format: ${JSON.stringify(key)}`);
}

/** The ObjectReference source for events about a service (objects from informers lack kind). */
export function serviceSubject(service: V1Service): EventSubject {
  const metadata: NonNullable<EventSubject['metadata']> = {};
  if (service.metadata?.name !== undefined) metadata.name = service.metadata.name;
  if (service.metadata?.namespace !== undefined) metadata.namespace = service.metadata.namespace;
  if (service.metadata?.uid !== undefined) metadata.uid = service.metadata.uid;
  if (service.metadata?.resourceVersion !== undefined) metadata.resourceVersion = service.metadata.resourceVersion;
  return { apiVersion: 'v1', kind: 'Service', metadata };
}

/** Go's `%v` of a string slice: `[a b c]`. */
export function goStringList(items: readonly string[]): string {
  return `[${items.join(' ')}]`;
}
