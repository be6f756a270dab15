/**
 * The Kubernetes writes the cloud node controller makes to initialize one node, planned without
 * the CCM: what the plain-client baseline of `pnpm bench node-storm --kube-api real` sends. The
 * same requests the emulator replay test records from the CCM: the initializing update of the
 * Node (provider ID, the cloud's labels, the uninitialized taint gone), the strategic merge patch
 * of its addresses (only when they change) and the `Synced` Event.
 */
import { TAINT_UNINITIALIZED } from './bench-objects.js';

const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';

/** What the cloud says about a node's instance (the CCM's `InstanceMetadata`). */
export interface CloudNodeFacts {
  providerId: string;
  instanceType: string;
  zone: string;
  region: string;
  addresses: ReadonlyArray<{ type: string; address: string }>;
}

/** A Node as the API server answered it (the informer's copy). */
export interface RegisteredNode {
  metadata: { name: string; uid?: string; labels?: Record<string, string>; [key: string]: unknown };
  spec?: { providerID?: string; taints?: Array<{ key?: string; [key: string]: unknown }>; [key: string]: unknown };
  status?: { addresses?: Array<{ type: string; address: string }>; [key: string]: unknown };
  [key: string]: unknown;
}

export interface KubeWrite {
  method: 'PUT' | 'PATCH' | 'POST';
  path: string;
  contentType: string;
  body: object;
}

export interface NodeInitializationWrites {
  update: KubeWrite;
  /** Undefined when the node already has the cloud's addresses. */
  statusPatch: KubeWrite | undefined;
}

const LABELS_FROM_CLOUD: ReadonlyArray<[keyof Pick<CloudNodeFacts, 'instanceType' | 'zone' | 'region'>, string[]]> = [
  ['instanceType', ['beta.kubernetes.io/instance-type', 'node.kubernetes.io/instance-type']],
  ['zone', ['failure-domain.beta.kubernetes.io/zone', 'topology.kubernetes.io/zone']],
  ['region', ['failure-domain.beta.kubernetes.io/region', 'topology.kubernetes.io/region']],
];

/** The update and the address patch that initialize `node` with the cloud's `facts`. */
export function planNodeInitializationWrites(node: RegisteredNode, facts: CloudNodeFacts): NodeInitializationWrites {
  const name = node.metadata.name;
  const nodePath = `/api/v1/nodes/${encodeURIComponent(name)}`;
  const updated = structuredClone(node);
  const spec = (updated.spec ??= {});
  if ((spec.providerID ?? '') === '' && facts.providerId !== '') spec.providerID = facts.providerId;
  const labels = { ...updated.metadata.labels };
  for (const [fact, keys] of LABELS_FROM_CLOUD) {
    if (facts[fact] !== '') for (const key of keys) labels[key] = facts[fact];
  }
  if (Object.keys(labels).length > 0 || updated.metadata.labels !== undefined) updated.metadata.labels = labels;
  const taints = (spec.taints ?? []).filter((taint) => taint.key !== TAINT_UNINITIALIZED);
  if (taints.length > 0) spec.taints = taints;
  else delete spec.taints;

  const addresses = facts.addresses.map(({ type, address }) => ({ type, address }));
  const current = node.status?.addresses ?? [];
  // The kubelet's hostname stays when the cloud reports none.
  if (addresses.length > 0 && !addresses.some((address) => address.type === 'Hostname')) {
    for (const address of current) if (address.type === 'Hostname') addresses.push({ type: address.type, address: address.address });
  }
  const unchanged = addresses.length === 0 || (addresses.length === current.length && addresses.every((address, index) => address.type === current[index]?.type && address.address === current[index]?.address));
  return {
    update: { method: 'PUT', path: nodePath, contentType: 'application/json', body: updated },
    statusPatch: unchanged
      ? undefined
      : { method: 'PATCH', path: `${nodePath}/status`, contentType: STRATEGIC_MERGE_PATCH, body: { status: { addresses: [{ $patch: 'replace' }, ...addresses] } } },
  };
}

/**
 * The `Synced` Event of the cloud node controller for `node`, named as client-go names events
 * (`<object>.<time in nanoseconds, hex>`; `nanos` must grow from one event to the next).
 */
export function nodeSyncedEvent(node: RegisteredNode, now: Date, nanos: bigint): KubeWrite {
  const name = node.metadata.name;
  const component = 'cloud-node-controller';
  return {
    method: 'POST',
    path: '/api/v1/namespaces/default/events',
    contentType: 'application/json',
    body: {
      metadata: { name: `${name}.${nanos.toString(16)}`, namespace: 'default' },
      involvedObject: { apiVersion: 'v1', kind: 'Node', name, ...(node.metadata.uid === undefined ? {} : { uid: node.metadata.uid }) },
      reason: 'Synced',
      message: 'Node synced successfully',
      firstTimestamp: now.toISOString(),
      lastTimestamp: now.toISOString(),
      count: 1,
      type: 'Normal',
      source: { component },
      reportingComponent: component,
      reportingInstance: '',
    },
  };
}

