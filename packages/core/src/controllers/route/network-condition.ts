/**
 * The NetworkUnavailable node condition the route controller owns (upstream
 * `updateNetworkingCondition` and component-helpers `SetNodeCondition`). Pure functions.
 *
 * The update is skipped only when the condition already has the wanted status AND reason, so a
 * CNI's own False condition (e.g. Calico's `CalicoIsUp`) is overwritten with `RouteCreated`
 * (v1.36, PR #136561).
 */
import type { V1Node } from '@kubernetes/client-node';
import {
  NETWORK_UNAVAILABLE_MESSAGE_NO_ROUTE_CREATED,
  NETWORK_UNAVAILABLE_MESSAGE_ROUTE_CREATED,
  NETWORK_UNAVAILABLE_REASON_NO_ROUTE_CREATED,
  NETWORK_UNAVAILABLE_REASON_ROUTE_CREATED,
} from '../../api/well-known.js';
import type { JsonObject } from '../../kube/json-value.js';

export const NETWORK_UNAVAILABLE_CONDITION = 'NetworkUnavailable';

/** True when the node already carries the wanted NetworkUnavailable status and reason. */
export function networkConditionUpToDate(node: V1Node, routesCreated: boolean): boolean {
  const condition = (node.status?.conditions ?? []).find((candidate) => candidate.type === NETWORK_UNAVAILABLE_CONDITION);
  if (condition === undefined) return false;
  if (routesCreated) return condition.status === 'False' && condition.reason === NETWORK_UNAVAILABLE_REASON_ROUTE_CREATED;
  return condition.status === 'True' && condition.reason === NETWORK_UNAVAILABLE_REASON_NO_ROUTE_CREATED;
}

/** Go's `metav1.Time` JSON form: RFC 3339, whole seconds, UTC. */
export function formatKubeTime(time: Date): string {
  return time.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The strategic merge patch of `status.conditions` (merged by `type`) that sets
 * NetworkUnavailable; both timestamps are `now`, as upstream.
 */
export function networkConditionPatch(routesCreated: boolean, now: Date): JsonObject {
  const time = formatKubeTime(now);
  return {
    status: {
      conditions: [
        {
          type: NETWORK_UNAVAILABLE_CONDITION,
          status: routesCreated ? 'False' : 'True',
          lastHeartbeatTime: time,
          lastTransitionTime: time,
          reason: routesCreated ? NETWORK_UNAVAILABLE_REASON_ROUTE_CREATED : NETWORK_UNAVAILABLE_REASON_NO_ROUTE_CREATED,
          message: routesCreated ? NETWORK_UNAVAILABLE_MESSAGE_ROUTE_CREATED : NETWORK_UNAVAILABLE_MESSAGE_NO_ROUTE_CREATED,
        },
      ],
    },
  };
}
