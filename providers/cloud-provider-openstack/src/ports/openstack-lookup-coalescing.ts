/**
 * The coalesce stages of the Compute and Network ports (core's `composeCloudPort({ coalesce })`):
 * concurrent per-node lookups become batched lists, every call of which goes through the rest
 * of the pipeline (retries, budget, observer).
 *
 * - `serversNamed(name)`: the names queued together go out as `GET /servers/detail?name=^(a|b|...)$`,
 *   as many names per list as `MAX_LIST_QUERY_LENGTH` allows (upstream: one `^name$` per node).
 * - `portsOfDevice(serverId)`: the servers queued together go out as one
 *   `GET /v2.0/ports?device_id=a&device_id=b...` (Neutron ORs the values of one field) when the
 *   IDs fit in one query, else as one `GET /v2.0/ports` of every port the user sees, kept for the
 *   queued servers only (upstream: one `device_id` list per server). Either way each server gets
 *   exactly the ports whose `device_id` is its ID, in Neutron's order.
 *
 * A failed batch falls back to one call per key, unless the cloud throttled it.
 */
import { coalesceBy, Coalescer, notThrottled, type CoalescedMethods, type CoalescerObserver } from '@ccm/core/cloud';
import type { ComputePort, OpenStackServer } from './compute-port.js';
import { deviceIdsFitOneQuery, MAX_LIST_QUERY_LENGTH, serverNameGroups } from './sdk/list-query-budget.js';
import type { NetworkPort, NeutronPort } from './network-port.js';

/**
 * Window, concurrency and batch size of the lookup coalescers. A batch waits for 50 ms without a
 * new key (at most 1 s after its first): the lookups of a storm reach the provider over hundreds
 * of milliseconds on a busy machine, and a fixed 20 ms window sent the first few in a list of
 * their own (measured: two server lists and two port lists for 200 nodes). Keys that queue while
 * a list is in flight go together in the next one; the query budget, not the batch size, decides
 * the calls.
 */
export const LOOKUP_COALESCING = { idleMs: 50, windowMs: 1_000, maxConcurrentBatches: 1, maxBatchSize: 1_000 } as const;

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string, wanted?: ReadonlySet<string>): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (wanted !== undefined && !wanted.has(key)) continue;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  return groups;
}

/** A coalescer of lists by key: a key missing from the answer has none; a failed list is asked key by key unless throttled. */
function listCoalescer<Value>(
  name: string,
  observer: CoalescerObserver | undefined,
  batchLoad: (keys: readonly string[], signal: AbortSignal) => Promise<ReadonlyMap<string, Value[]>>,
  singleLoad: (key: string, signal: AbortSignal) => Promise<Value[]>,
): Coalescer<string, Value[]> {
  return new Coalescer<string, Value[]>({
    name,
    ...LOOKUP_COALESCING,
    batchLoad: (keys, { signal }) => batchLoad(keys, signal),
    shouldFallBack: notThrottled,
    singleLoad: (key, { signal }) => singleLoad(key, signal),
    resolveMissing: () => [],
    ...(observer === undefined ? {} : { observer }),
  });
}

/** `serversNamed` through a coalescer over `listServersByName`, one list per query budget's worth of names. */
export function coalesceServerLookups(options: { observer?: CoalescerObserver; queryBudget?: number } = {}): (compute: ComputePort) => CoalescedMethods<ComputePort> {
  const budget = options.queryBudget ?? MAX_LIST_QUERY_LENGTH;
  return (compute) => ({
    serversNamed: coalesceBy(
      (name: string) => name,
      listCoalescer<OpenStackServer>(
        'ServersListByName',
        options.observer,
        async (names, signal) => {
          const servers: OpenStackServer[] = [];
          for (const group of serverNameGroups(names, budget)) servers.push(...(await compute.listServersByName(group, { signal })));
          return groupBy(servers, (server) => server.name);
        },
        (name, signal) => compute.listServersByName([name], { signal }),
      ),
    ),
  });
}

/** `portsOfDevice` through a coalescer over `listPorts`: one list of the queued servers' ports. */
export function coalescePortLookups(options: { observer?: CoalescerObserver; queryBudget?: number } = {}): (network: NetworkPort) => CoalescedMethods<NetworkPort> {
  const budget = options.queryBudget ?? MAX_LIST_QUERY_LENGTH;
  return (network) => ({
    portsOfDevice: coalesceBy(
      (deviceId: string) => deviceId,
      listCoalescer<NeutronPort>(
        'PortsListByDevice',
        options.observer,
        async (deviceIds, signal) => {
          const filter = deviceIdsFitOneQuery(deviceIds, budget) ? { deviceIds } : {};
          return groupBy(await network.listPorts(filter, { signal }), (port) => port.deviceId, new Set(deviceIds));
        },
        (deviceId, signal) => network.listPorts({ deviceIds: [deviceId] }, { signal }),
      ),
    ),
  });
}
