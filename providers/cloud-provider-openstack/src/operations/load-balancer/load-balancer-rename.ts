/**
 * A load balancer made under another `--cluster-name` (upstream `loadbalancer_rename.go`): found by
 * the Service's `load-balancer-id` annotation, it is renamed to the current cluster's name, its
 * children first (each listener's pool's monitor, the pool, the listener with its tags), the load
 * balancer with its tags last, so that a failure is retried by the next sync. Descriptions and
 * floating IPs are left as they are, as upstream leaves them.
 */
import type { CallOptions } from '@ccm/core/cloud';
import type { OctaviaLoadBalancer } from '../../ports/octavia-port.js';
import { changeLoadBalancer, type LoadBalancerContext } from './load-balancer-context.js';
import { cutTo255, SERVICE_PREFIX } from './load-balancer-names.js';

const CHILD_PREFIXES = { listener: 'listener_', pool: 'pool_', monitor: 'monitor_' } as const;

/**
 * The cluster-name part of a name upstream gave (`getClusterName`): `kube_service_<cluster>_<ns>_<name>`,
 * after `<child>_<index>_` for a child; the shortest cluster that leaves one or two `_`-free parts
 * (a name cut at 255 may have lost its `_<name>`); a cluster name with `_` is read wrong, as upstream.
 * Undefined when the name is not of that form.
 */
export function clusterNameOf(objectName: string, child?: keyof typeof CHILD_PREFIXES): string | undefined {
  const prefix = child === undefined ? '' : `${CHILD_PREFIXES[child]}[0-9]+_`;
  const match = new RegExp(`${prefix}${SERVICE_PREFIX}(.+?)_[^_]+(_[^_]+)?$`).exec(objectName);
  return match?.[1];
}

/** Upstream `replaceClusterName`: the first occurrence of the old cluster name replaced (after a leading `kube_service_`), cut to 255. */
export function replaceClusterName(oldClusterName: string, clusterName: string, objectName: string): string {
  const prefixed = objectName.startsWith(SERVICE_PREFIX);
  const rest = prefixed ? objectName.slice(SERVICE_PREFIX.length) : objectName;
  const replaced = rest.replace(oldClusterName, () => clusterName);
  return cutTo255(prefixed ? `${SERVICE_PREFIX}${replaced}` : replaced);
}

/** Upstream `lbHasOldClusterName`: a load balancer the CCM named, under another cluster name. */
export function hasOldClusterName(loadBalancerName: string, clusterName: string): boolean {
  if (!loadBalancerName.startsWith(SERVICE_PREFIX)) return false;
  return (clusterNameOf(loadBalancerName) ?? '') !== clusterName;
}

/**
 * Whether a load balancer name is `name` (the Service's under `clusterName`) with another cluster
 * name. Upstream renames whatever CCM-named load balancer the `load-balancer-id` annotation names;
 * here only the Service's own (its namespace and name), so that a copied annotation cannot rename
 * another Service's or another cluster's load balancer.
 */
export function isServiceNameUnderOldClusterName(loadBalancerName: string, clusterName: string, name: string): boolean {
  if (!hasOldClusterName(loadBalancerName, clusterName)) return false;
  const oldClusterName = clusterNameOf(loadBalancerName);
  return oldClusterName !== undefined && replaceClusterName(oldClusterName, clusterName, loadBalancerName) === name;
}

/** Tags naming a load balancer of another cluster name, renamed (tags of other Services sharing it too). */
function renamedTags(tags: readonly string[], clusterName: string): string[] {
  return tags.map((tag) => {
    const old = clusterNameOf(tag);
    return old !== undefined && old !== clusterName ? replaceClusterName(old, clusterName, tag) : tag;
  });
}

/** Upstream `renameLoadBalancer`: the children named after an old cluster name, then the load balancer as `name`. */
export async function renameLoadBalancer(context: LoadBalancerContext, loadBalancer: OctaviaLoadBalancer, name: string, clusterName: string, options?: CallOptions): Promise<OctaviaLoadBalancer> {
  const { octavia } = context;
  const change = <T>(run: () => Promise<T>): Promise<T> => changeLoadBalancer(context, loadBalancer.id, run, options);
  const pools = await octavia.listPools(loadBalancer.id, options);
  for (const listener of await octavia.listListeners(loadBalancer.id, options)) {
    // A listener not named by a CCM is not ours to rename.
    if (!listener.name.startsWith(CHILD_PREFIXES.listener)) continue;
    let oldClusterName = clusterNameOf(listener.name, 'listener') ?? '';
    if (oldClusterName === clusterName) continue;
    const pool = pools.find((candidate) => candidate.id === listener.defaultPoolId) ?? pools.find((candidate) => candidate.listenerIds.includes(listener.id));
    if (pool !== undefined) {
      // As upstream, the listener is then renamed with the cluster name its pool's name carried.
      oldClusterName = clusterNameOf(pool.name, 'pool') ?? '';
      if (oldClusterName !== clusterName) {
        const monitor = pool.healthMonitorId === undefined ? undefined : await octavia.getHealthMonitor(pool.healthMonitorId, options);
        const monitorCluster = monitor === undefined ? undefined : (clusterNameOf(monitor.name, 'monitor') ?? '');
        if (monitor !== undefined && monitorCluster !== undefined && monitorCluster !== clusterName) {
          const renamed = { ...monitor, name: replaceClusterName(monitorCluster, clusterName, monitor.name) };
          await change(() => octavia.updateHealthMonitor(monitor.id, renamed, options));
        }
        const poolName = replaceClusterName(oldClusterName, clusterName, pool.name);
        await change(() => octavia.renamePool(pool.id, poolName, options));
      }
    }
    const listenerName = replaceClusterName(oldClusterName, clusterName, listener.name);
    const tags = renamedTags(listener.tags, clusterName);
    await change(() => octavia.renameListener(listener.id, listenerName, tags, options));
  }
  const tags = renamedTags(loadBalancer.tags, clusterName);
  await change(() => octavia.renameLoadBalancer(loadBalancer.id, name, tags, options));
  return { ...loadBalancer, name, tags };
}
