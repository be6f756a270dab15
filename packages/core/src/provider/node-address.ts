/** A node address as in core/v1 `NodeAddress`. */
export type NodeAddressType = 'Hostname' | 'InternalIP' | 'ExternalIP' | 'InternalDNS' | 'ExternalDNS';

export interface NodeAddress {
  type: NodeAddressType;
  address: string;
}
