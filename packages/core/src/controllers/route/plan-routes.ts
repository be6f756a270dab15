/**
 * The route controller's decision, as a pure function of the nodes, the cloud's routes and the
 * cluster CIDRs (upstream `reconcile` / `getRouteAction` / `isResponsibleForRoute`).
 *
 * Rules:
 * - every pod CIDR of a node (dual-stack included) needs a route to that node; nodes without pod
 *   CIDRs get none; a duplicated pod CIDR entry yields a second create, as upstream;
 * - a matching route is kept, unless the provider reports node addresses
 *   (`enableNodeAddresses`) and they differ set-wise: then it is updated (deleted, then created);
 * - only routes whose first or last address lies in a cluster CIDR are ever deleted; among them
 *   blackhole routes and routes no node CIDR needs are deleted;
 * - the name hint of a created route is the node UID.
 */
import type { NodeAddress } from '../../provider/node-address.js';
import type { Route } from '../../provider/routes.js';
import { cidrContains, firstAddress, lastAddress, tryParseCidr, type Cidr } from '../../net/cidr.js';

export type RouteAction = 'keep' | 'add' | 'update';

/** What the planner needs to know about a node. */
export interface RoutePlanNode {
  name: string;
  uid: string;
  /** `spec.podCIDRs`. */
  podCidrs: readonly string[];
  /** `status.addresses`. */
  addresses: readonly NodeAddress[];
}

export interface PlannedRouteCreation {
  nodeName: string;
  /** The node UID. Providers that use it must derive distinct names per CIDR (dual-stack). */
  nameHint: string;
  route: Route;
  action: 'add' | 'update';
}

export interface PlannedRouteDeletion {
  route: Route;
  reason: 'blackhole' | 'unused' | 'update';
}

export interface RoutePlan {
  /**
   * Pod CIDR -> action, per node that has pod CIDRs or that some route targets. A node with
   * routes but no pod CIDRs has an empty map (its NetworkUnavailable becomes True).
   */
  actions: Map<string, Map<string, RouteAction>>;
  deletions: PlannedRouteDeletion[];
  creations: PlannedRouteCreation[];
  /** Providers that report node addresses need deletes to finish before creates (issue #98359). */
  deleteBeforeCreate: boolean;
  /** Routes ignored because their destination CIDR does not parse. */
  unparsableRoutes: Route[];
}

/** Set-wise equality: same length, every address has an exact match. */
export function equalNodeAddresses(left: readonly NodeAddress[], right: readonly NodeAddress[]): boolean {
  if (left.length !== right.length) return false;
  return left.every((address) => right.some((other) => other.type === address.type && other.address === address.address));
}

/** True when the route's first or last address lies inside one of the cluster CIDRs. */
export function isResponsibleForRoute(route: Route, clusterCidrs: readonly Cidr[]): boolean {
  const cidr = tryParseCidr(route.destinationCidr);
  if (cidr === undefined) return false;
  const first = firstAddress(cidr);
  const last = lastAddress(cidr);
  return clusterCidrs.some((clusterCidr) => cidrContains(clusterCidr, first) || cidrContains(clusterCidr, last));
}

/** keep / update / add for one pod CIDR of a node, given the routes targeting that node. */
export function getRouteAction(nodeRoutes: readonly Route[], cidr: string, addresses: readonly NodeAddress[]): RouteAction {
  const route = nodeRoutes.find((candidate) => candidate.destinationCidr === cidr);
  if (route === undefined) return 'add';
  if (!route.enableNodeAddresses || equalNodeAddresses(addresses, route.targetNodeAddresses ?? [])) return 'keep';
  return 'update';
}

export function planRoutes(nodes: readonly RoutePlanNode[], routes: readonly Route[], clusterCidrs: readonly Cidr[]): RoutePlan {
  const actions = new Map<string, Map<string, RouteAction>>();
  const routesByNode = new Map<string, Route[]>();
  for (const route of routes) {
    if (route.targetNode === '') continue;
    const list = routesByNode.get(route.targetNode) ?? [];
    list.push(route);
    routesByNode.set(route.targetNode, list);
    if (!actions.has(route.targetNode)) actions.set(route.targetNode, new Map());
  }

  for (const node of nodes) {
    if (node.podCidrs.length === 0) continue;
    const nodeActions = actions.get(node.name) ?? new Map<string, RouteAction>();
    actions.set(node.name, nodeActions);
    for (const podCidr of node.podCidrs) nodeActions.set(podCidr, getRouteAction(routesByNode.get(node.name) ?? [], podCidr, node.addresses));
  }

  const deletions: PlannedRouteDeletion[] = [];
  const unparsableRoutes: Route[] = [];
  for (const route of routes) {
    if (tryParseCidr(route.destinationCidr) === undefined) {
      unparsableRoutes.push(route);
      continue;
    }
    if (!isResponsibleForRoute(route, clusterCidrs)) continue;
    if (route.blackhole) {
      deletions.push({ route, reason: 'blackhole' });
      continue;
    }
    const action = actions.get(route.targetNode)?.get(route.destinationCidr);
    if (action === undefined) deletions.push({ route, reason: 'unused' });
    else if (action === 'update') deletions.push({ route, reason: 'update' });
  }

  const creations: PlannedRouteCreation[] = [];
  for (const node of nodes) {
    for (const podCidr of node.podCidrs) {
      const action = actions.get(node.name)?.get(podCidr);
      if (action !== 'add' && action !== 'update') continue;
      creations.push({
        nodeName: node.name,
        nameHint: node.uid,
        action,
        route: { name: '', targetNode: node.name, targetNodeAddresses: node.addresses.map((address) => ({ ...address })), destinationCidr: podCidr },
      });
    }
  }

  return { actions, deletions, creations, deleteBeforeCreate: routes[0]?.enableNodeAddresses === true, unparsableRoutes };
}

/**
 * After the creates: `undefined` when the node needs no condition (no pod CIDRs, no routes),
 * false when it has routes but no pod CIDRs or some route is still missing, true when all exist.
 */
export function routesCreatedForNode(nodeActions: ReadonlyMap<string, RouteAction> | undefined): boolean | undefined {
  if (nodeActions === undefined) return undefined;
  if (nodeActions.size === 0) return false;
  for (const action of nodeActions.values()) if (action === 'add' || action === 'update') return false;
  return true;
}
