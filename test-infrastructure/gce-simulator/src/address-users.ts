import type { ComputeState } from './compute-state.js';
import { records } from './references.js';
import { parseResourcePath } from './resource-links.js';

/**
 * Recomputes every address's `users` and `status` (IN_USE / RESERVED) from the forwarding rules
 * and instances that hold its IP in the same region.
 */
export function syncAddressUsers(state: ComputeState): void {
  const holders = new Map<string, string[]>();
  const hold = (ip: unknown, link: string): void => {
    if (typeof ip !== 'string') return;
    holders.set(ip, [...(holders.get(ip) ?? []), link]);
  };
  for (const [path, resource] of state.entries()) {
    const collection = parseResourcePath(path)?.collection;
    if (collection === 'forwardingRules') hold(resource['IPAddress'], state.link(path));
    if (collection === 'instances') {
      for (const nic of records(resource['networkInterfaces'])) {
        hold(nic['networkIP'], state.link(path));
        for (const access of records(nic['accessConfigs'])) hold(access['natIP'], state.link(path));
      }
    }
  }
  for (const [path, address] of state.entries()) {
    if (parseResourcePath(path)?.collection !== 'addresses') continue;
    const users = holders.get(String(address['address'])) ?? [];
    if (users.length > 0) {
      address['users'] = users;
      address['status'] = 'IN_USE';
    } else {
      delete address['users'];
      address['status'] = 'RESERVED';
    }
  }
}
