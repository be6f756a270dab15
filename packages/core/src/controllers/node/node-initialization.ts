/**
 * The pure part of node initialization (upstream `getNodeModifiersFromCloudProvider` plus the
 * taint removal): validate once, then apply idempotently to whatever copy of the node the current
 * retry attempt read.
 */
import type { V1Node } from '@kubernetes/client-node';
import {
  LABEL_INSTANCE_TYPE,
  LABEL_INSTANCE_TYPE_BETA,
  LABEL_REGION,
  LABEL_REGION_BETA,
  LABEL_ZONE,
  LABEL_ZONE_BETA,
} from '../../api/well-known.js';
import { applyProvidedNodeIp, NodeAddressError } from '../../node-helpers/node-addresses.js';
import { mergeAdditionalLabels, type DiscardedLabel } from '../../node-helpers/node-labels.js';
import { withoutUninitializedTaint } from '../../node-helpers/taints.js';
import type { InstanceMetadata } from '../../provider/instances.js';

export interface NodeInitialization {
  /** A new node: `node` with the cloud's provider ID, labels and without the uninitialized taint. */
  apply(node: V1Node): { node: V1Node; discardedLabels: DiscardedLabel[] };
}

/**
 * Plans the initialization of `node` from `metadata`. Throws NodeAddressError ("provided node ip
 * for node X is not valid") when the provided-node-ip annotation cannot be satisfied by the cloud's
 * addresses: the node then keeps its taint.
 */
export function planNodeInitialization(node: V1Node, metadata: InstanceMetadata): NodeInitialization {
  const nodeName = node.metadata?.name ?? '';
  try {
    applyProvidedNodeIp(node, metadata.nodeAddresses);
  } catch (error) {
    if (!(error instanceof NodeAddressError)) throw error;
    throw new NodeAddressError(error.kind, `provided node ip for node ${JSON.stringify(nodeName)} is not valid: ${error.message}`, { cause: error });
  }
  const setProviderId = (node.spec?.providerID ?? '') === '' && metadata.providerId !== '';

  return {
    apply(current) {
      const next = structuredClone(current);
      next.spec ??= {};
      next.metadata ??= {};
      if (setProviderId && (next.spec.providerID ?? '') === '') next.spec.providerID = metadata.providerId;
      const labels: Record<string, string> = { ...next.metadata.labels };
      if (metadata.instanceType !== '') {
        labels[LABEL_INSTANCE_TYPE_BETA] = metadata.instanceType;
        labels[LABEL_INSTANCE_TYPE] = metadata.instanceType;
      }
      if (metadata.zone !== '') {
        labels[LABEL_ZONE_BETA] = metadata.zone;
        labels[LABEL_ZONE] = metadata.zone;
      }
      if (metadata.region !== '') {
        labels[LABEL_REGION_BETA] = metadata.region;
        labels[LABEL_REGION] = metadata.region;
      }
      const merged = mergeAdditionalLabels(labels, metadata.additionalLabels);
      if (Object.keys(merged.labels).length > 0 || next.metadata.labels !== undefined) next.metadata.labels = merged.labels;
      const taints = withoutUninitializedTaint(next.spec.taints);
      if (taints.length > 0) next.spec.taints = taints;
      else delete next.spec.taints;
      return { node: next, discardedLabels: merged.discarded };
    },
  };
}
