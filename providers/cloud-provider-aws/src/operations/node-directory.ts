/**
 * What the provider may know about Nodes (upstream: the Node informer and its `instanceID`
 * index). Optional: without it, lookups fall back to resource-based names and private DNS names.
 */
export interface NodeDirectory {
  /** `spec.providerID` of the Node with this name, when known and set. */
  providerIdOfNode(nodeName: string): string | undefined;
  /** Name of the Node whose provider ID points at this instance, when known. */
  nodeNameOfInstance(instanceId: string): string | undefined;
}
