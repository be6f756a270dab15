import type { CloudCallOptions } from './instances.js';
import type { NodeAddress } from './node-address.js';

/** Upstream `cloudprovider.Route`. */
export interface Route {
  /** Ignored on create. */
  name: string;
  targetNode: string;
  /** Per-provider switch: when false, `targetNodeAddresses` is ignored. */
  enableNodeAddresses?: boolean;
  targetNodeAddresses?: NodeAddress[];
  destinationCidr: string;
  /** Blackhole routes inside the cluster CIDR are deleted by the route controller. */
  blackhole?: boolean;
}

export interface Routes {
  listRoutes(clusterName: string, options?: CloudCallOptions): Promise<Route[]>;
  /** `nameHint` is the node UID. */
  createRoute(clusterName: string, nameHint: string, route: Route, options?: CloudCallOptions): Promise<void>;
  /** `route` is one returned by `listRoutes`. */
  deleteRoute(clusterName: string, route: Route, options?: CloudCallOptions): Promise<void>;
}
