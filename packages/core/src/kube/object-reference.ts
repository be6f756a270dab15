/**
 * ObjectReferences for events, as client-go's `reference.GetReference` builds them: apiVersion,
 * kind, namespace, name, uid and resourceVersion of the subject. Objects read from lists and
 * informers may lack apiVersion/kind; core kinds get `v1` (upstream fixed empty apiVersion in
 * node events in v1.35 and asserts it).
 */
import type { V1ObjectReference } from '@kubernetes/client-node';
import type { EventSubject } from './ports.js';

/** Kinds of the core (`v1`) API group the controllers record events about. */
const CORE_KINDS = new Set(['Node', 'Service', 'Pod', 'Endpoints', 'Namespace', 'ConfigMap', 'Secret']);

export function objectReferenceFor(subject: EventSubject): V1ObjectReference {
  const reference: V1ObjectReference = {};
  const kind = subject.kind;
  const apiVersion = subject.apiVersion ?? (kind !== undefined && CORE_KINDS.has(kind) ? 'v1' : undefined);
  if (apiVersion !== undefined) reference.apiVersion = apiVersion;
  if (kind !== undefined) reference.kind = kind;
  const metadata = subject.metadata ?? {};
  if (metadata.namespace) reference.namespace = metadata.namespace;
  if (metadata.name !== undefined) reference.name = metadata.name;
  if (metadata.uid !== undefined) reference.uid = metadata.uid;
  if (metadata.resourceVersion !== undefined) reference.resourceVersion = metadata.resourceVersion;
  return reference;
}

/** Events live in the object's namespace, `default` for cluster-scoped objects (client-go). */
export function eventNamespaceFor(reference: V1ObjectReference): string {
  return reference.namespace ? reference.namespace : 'default';
}
