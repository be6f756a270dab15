/**
 * The hosts of a load balancer (upstream `getFoundInstanceByNames` and `GetNodeTags`): the
 * instances of the nodes, looked up through the coalescing locator (one list call for many
 * nodes), and the network tags the firewalls target.
 */
import type { V1Node } from '@kubernetes/client-node';
import { GceCloudStateError } from '../../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { GceInstance } from '../../ports/compute-port.js';
import type { InstanceLocator } from '../instance-locator.js';

/**
 * The instances of `nodes` that exist; an error when nodes were given and none is found. No nodes
 * at all gives an empty target pool (the firewalls then need `node-tags`, see `hostTags`).
 */
export async function hostInstances(locator: InstanceLocator, nodes: readonly V1Node[], options?: CallOptions): Promise<GceInstance[]> {
  if (nodes.length === 0) return [];
  const found = await Promise.all(nodes.map((node) => locator.instanceOfNode(node, options)));
  const hosts = found.filter((instance): instance is GceInstance => instance !== undefined);
  if (hosts.length === 0) throw new GceCloudStateError(`none of the ${nodes.length} nodes has an instance in the managed zones`);
  const seen = new Set<string>();
  return hosts.filter((host) => (seen.has(`${host.zone}/${host.name}`) ? false : (seen.add(`${host.zone}/${host.name}`), true)));
}

/**
 * The configured `node-tags`, else per host the longest instance tag that is a prefix of its name
 * (upstream `computeHostTags`); a host without such a tag is an error.
 */
export function hostTags(configured: readonly string[], hosts: readonly GceInstance[]): string[] {
  if (configured.length > 0) return [...new Set(configured)].sort();
  if (hosts.length === 0) throw new GceCloudStateError('cannot build a load balancer without nodes unless node-tags is set in the cloud config (the firewalls target the node tags)');
  const tags = new Set<string>();
  for (const host of hosts) {
    const longest = host.tags.filter((tag) => host.name.startsWith(tag)).sort((a, b) => b.length - a.length)[0];
    if (longest === undefined) throw new GceCloudStateError(`could not find any tag that is a prefix of instance name for instance ${host.name}; set node-tags in the cloud config`);
    tags.add(longest);
  }
  return [...tags].sort();
}
