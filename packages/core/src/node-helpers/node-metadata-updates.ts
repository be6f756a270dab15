/**
 * Taint and label writes on a Node (upstream `node/helpers/taints.go` and `labels.go`):
 * get, compute, patch, retried on conflict. The first read comes from the informer cache when one
 * is given (upstream reads with resourceVersion=0 first); every retry reads live from the API.
 */
import type { V1Node, V1Taint } from '@kubernetes/client-node';
import type { NodeApi, ObjectStore } from '../kube/ports.js';
import { errorMessage } from '../util/error-message.js';
import { retryOnConflict, UPDATE_NODE_METADATA_BACKOFF, type RetryOptions } from './conflict-retry.js';
import { addOrUpdateTaint, removeTaint, taintExists } from './taints.js';

export interface NodeAccess {
  nodes: NodeApi;
  /** The informer cache, used for the first (cheap) read. */
  nodeStore?: ObjectStore<V1Node>;
  retry?: RetryOptions;
}

async function readNode(access: NodeAccess, nodeName: string, attemptIndex: number): Promise<V1Node> {
  if (attemptIndex === 0) {
    const cached = access.nodeStore?.get(nodeName);
    if (cached !== undefined) return cached;
  }
  return access.nodes.get(nodeName);
}

/**
 * Upstream `PatchNodeTaints`: replaces `spec.taints` (an atomic list) and carries the read
 * object's resourceVersion so the API server rejects the write with a Conflict if the node changed.
 */
export async function patchNodeTaints(nodes: NodeApi, nodeName: string, oldNode: V1Node, taints: readonly V1Taint[]): Promise<V1Node> {
  const patch: Record<string, unknown> = { spec: { taints: taints.length === 0 ? null : taints } };
  const resourceVersion = oldNode.metadata?.resourceVersion;
  if (resourceVersion !== undefined && resourceVersion !== '') patch['metadata'] = { resourceVersion };
  return nodes.patch(nodeName, patch, 'strategic');
}

/** Upstream `AddOrUpdateTaintOnNode`: no write when the node already has the taint as is. */
export async function addOrUpdateTaintOnNode(access: NodeAccess, nodeName: string, taint: V1Taint): Promise<void> {
  await retryOnConflict(
    UPDATE_NODE_METADATA_BACKOFF,
    async (attemptIndex) => {
      const current = await readNode(access, nodeName, attemptIndex);
      const { node: updatedNode, updated } = addOrUpdateTaint(current, taint);
      if (!updated) return;
      await patchNodeTaints(access.nodes, nodeName, current, updatedNode.spec?.taints ?? []);
    },
    access.retry,
  );
}

/**
 * Upstream `RemoveTaintOffNode`: when `node` is given and lacks the taint (key and effect), no
 * API call is made at all.
 */
export async function removeTaintOffNode(access: NodeAccess, nodeName: string, node: V1Node | undefined, taint: V1Taint): Promise<void> {
  if (node !== undefined && !taintExists(node.spec?.taints, taint)) return;
  await retryOnConflict(
    UPDATE_NODE_METADATA_BACKOFF,
    async (attemptIndex) => {
      const current = await readNode(access, nodeName, attemptIndex);
      const { node: updatedNode, updated } = removeTaint(current, taint);
      if (!updated) return;
      await patchNodeTaints(access.nodes, nodeName, current, updatedNode.spec?.taints ?? []);
    },
    access.retry,
  );
}

/** Upstream `AddOrUpdateLabelsOnNode`: a strategic merge patch of the labels that differ. */
export async function addOrUpdateLabelsOnNode(access: NodeAccess, nodeName: string, labelsToUpdate: Readonly<Record<string, string>>): Promise<void> {
  try {
    await retryOnConflict(
      UPDATE_NODE_METADATA_BACKOFF,
      async (attemptIndex) => {
        const current = await readNode(access, nodeName, attemptIndex);
        const existing = current.metadata?.labels ?? {};
        const changed: Record<string, string> = {};
        for (const [key, value] of Object.entries(labelsToUpdate)) if (existing[key] !== value) changed[key] = value;
        if (Object.keys(changed).length === 0) return;
        await access.nodes.patch(nodeName, { metadata: { labels: changed } }, 'strategic');
      },
      access.retry,
    );
  } catch (error) {
    const reason = errorMessage(error);
    throw new Error(`failed update labels for node ${nodeName}: ${reason}`, { cause: error });
  }
}
