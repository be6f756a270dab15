import type { V1Node } from '@kubernetes/client-node';
import type { NodeAddress } from './node-address.js';

/** Result of `InstancesV2.instanceMetadata` (upstream `cloudprovider.InstanceMetadata`). */
export interface InstanceMetadata {
  /** Written to `spec.providerID` only when the node has none. Format `<provider>://<id>`. */
  providerId: string;
  /** Becomes `node.kubernetes.io/instance-type` and `beta.kubernetes.io/instance-type`. */
  instanceType: string;
  /** Becomes `status.addresses`. */
  nodeAddresses: NodeAddress[];
  /** Becomes `topology.kubernetes.io/zone` and `failure-domain.beta.kubernetes.io/zone`. */
  zone: string;
  /** Becomes `topology.kubernetes.io/region` and `failure-domain.beta.kubernetes.io/region`. */
  region: string;
  /** Extra labels; never overwrite existing labels, never under k8s.io / kubernetes.io prefixes. */
  additionalLabels?: Record<string, string>;
}

/** Options every cloud call accepts. */
export interface CloudCallOptions {
  signal?: AbortSignal;
}

/**
 * InstancesV2: the interface for external providers. Implementations look at
 * `node.spec.providerID` first and may fall back to name, labels or annotations.
 */
export interface InstancesV2 {
  /** False (no error) means the instance is gone and the Node may be deleted. True for stopped instances. */
  instanceExists(node: V1Node, options?: CloudCallOptions): Promise<boolean>;
  /** True when the instance exists but is shut down. */
  instanceShutdown(node: V1Node, options?: CloudCallOptions): Promise<boolean>;
  /** `undefined` means "skip this node without requeue" (upstream nil metadata). */
  instanceMetadata(node: V1Node, options?: CloudCallOptions): Promise<InstanceMetadata | undefined>;
}

/** Legacy Instances (v1). Methods throw `InstanceNotFoundError` / `NotImplementedError` as upstream. */
export interface Instances {
  nodeAddresses(nodeName: string, options?: CloudCallOptions): Promise<NodeAddress[]>;
  nodeAddressesByProviderId(providerId: string, options?: CloudCallOptions): Promise<NodeAddress[]>;
  /** Instance id without the `<provider>://` prefix. Throws InstanceNotFoundError when missing. */
  instanceId(nodeName: string, options?: CloudCallOptions): Promise<string>;
  instanceType(nodeName: string, options?: CloudCallOptions): Promise<string>;
  instanceTypeByProviderId(providerId: string, options?: CloudCallOptions): Promise<string>;
  addSshKeyToAllInstances(user: string, keyData: Uint8Array, options?: CloudCallOptions): Promise<void>;
  currentNodeName(hostname: string, options?: CloudCallOptions): Promise<string>;
  instanceExistsByProviderId(providerId: string, options?: CloudCallOptions): Promise<boolean>;
  instanceShutdownByProviderId(providerId: string, options?: CloudCallOptions): Promise<boolean>;
}

export interface Zone {
  failureDomain: string;
  region: string;
}

/** Deprecated Zones, used only on the Instances v1 path. */
export interface Zones {
  getZone(options?: CloudCallOptions): Promise<Zone>;
  getZoneByProviderId(providerId: string, options?: CloudCallOptions): Promise<Zone>;
  getZoneByNodeName(nodeName: string, options?: CloudCallOptions): Promise<Zone>;
}
