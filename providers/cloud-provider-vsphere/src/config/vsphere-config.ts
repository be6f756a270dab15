/** The resolved vSphere cloud config: inheritance applied, every value validated. */
import type { Cidr, IpFamily } from '../net/ip-address.js';
import type { ConfigPlace } from './raw-config.js';

/** Where a vCenter's credentials come from. */
export type CredentialsSource =
  /** `user`/`password` in the file or the environment. */
  | { kind: 'inline'; username: string; password: string }
  /** A Kubernetes Secret, watched: keys `<server>.username`/`<server>.password` (or `*_<x>` forms). */
  | { kind: 'secret'; namespace: string; name: string }
  /** A mounted directory with one file per key, read at each login. */
  | { kind: 'directory'; path: string };

export interface VcenterConfig {
  /** The entry name (tenant reference); identifies the vCenter in logs and errors. */
  name: string;
  /** Host name or IP to connect to. */
  server: string;
  port: number;
  insecure: boolean;
  /** Datacenter names or inventory paths; empty = all. */
  datacenters: readonly string[];
  roundTripCount: number;
  caFile: string;
  thumbprint: string;
  credentials: CredentialsSource;
  /** IP families of node addresses, in priority order. */
  ipFamilies: readonly IpFamily[];
  /** Where the entry was declared (for error messages). */
  place: ConfigPlace;
}

export interface NodesConfig {
  internalNetworkSubnets: readonly Cidr[];
  externalNetworkSubnets: readonly Cidr[];
  excludeInternalNetworkSubnets: readonly Cidr[];
  excludeExternalNetworkSubnets: readonly Cidr[];
  internalVmNetworkName: string;
  externalVmNetworkName: string;
}

export interface LabelsConfig {
  /** Tag category of zones; '' = no zones. */
  zone: string;
  /** Tag category of regions; '' = no regions. */
  region: string;
}

export interface VsphereConfig {
  vcenters: readonly VcenterConfig[];
  labels: LabelsConfig;
  nodes: NodesConfig;
}

export const EMPTY_NODES_CONFIG: NodesConfig = {
  internalNetworkSubnets: [],
  externalNetworkSubnets: [],
  excludeInternalNetworkSubnets: [],
  excludeExternalNetworkSubnets: [],
  internalVmNetworkName: '',
  externalVmNetworkName: '',
};
