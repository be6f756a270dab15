/**
 * How many node names or server IDs one batched list may carry: as many as keep its query string
 * within `MAX_LIST_QUERY_LENGTH` characters, as the client writes it (URLSearchParams,
 * `application/x-www-form-urlencoded`). Pure: the lengths are exact, the groups greedy in order.
 *
 * The bound: Nova's and Neutron's own servers (eventlet) refuse a request line over 8,192 bytes
 * (python-neutronclient's `MAX_URI_LEN`), Apache over 8,190 (`LimitRequestLine`), nginx over its
 * 8 KiB header buffer. A request line is `GET <path>?<query> HTTP/1.1\r\n`: with a query of at most
 * 7,168 characters it stays under 8,190 bytes while the endpoint path and the resource path
 * (`/v2.1/servers/detail`, `/compute/v2.1/servers/detail`, `/v2.0/ports`, with a page marker)
 * take at most 1,000 characters. A uWSGI front needs `buffer-size` above its 4 KiB default for
 * the whole request head (devstack sets 65535); when a list is refused anyway, the lookups fall
 * back to one call per key.
 */
import { exactNameFilter } from 'openstack-client-ts';

/** At most this many characters of query string per batched list (7 KiB). */
export const MAX_LIST_QUERY_LENGTH = 7_168;

/** The length of `text` once form-encoded (as `URLSearchParams` writes a key or a value). */
export function formEncodedLength(text: string): number {
  return new URLSearchParams([['', text]]).toString().length - 1;
}

/** `^(a|b|c)$` with each name escaped: one Nova name filter for many nodes (`^a$` for one). */
export function serverNamesFilter(names: readonly string[]): string {
  if (names.length === 1) return exactNameFilter(names[0] as string);
  return `^(${names.map((name) => exactNameFilter(name).slice(1, -1)).join('|')})$`;
}

/**
 * `items` in order, cut into groups whose cost is within `budget`: `fixed` once per group plus
 * each item's cost. An item that alone exceeds the budget still gets a group of its own.
 */
export function groupsWithinBudget<T>(items: readonly T[], costOf: (item: T) => number, budget: number, fixed = 0): T[][] {
  const groups: T[][] = [];
  let group: T[] = [];
  let used = fixed;
  for (const item of items) {
    const cost = costOf(item);
    if (group.length > 0 && used + cost > budget) {
      groups.push(group);
      group = [];
      used = fixed;
    }
    group.push(item);
    used += cost;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/**
 * Names in groups whose `name=^(a|b|...)$` stays within the budget: exactly its length for two
 * names or more (per name its escaped, encoded text and an encoded `|`, one `|` fewer in all),
 * an upper bound for one (`^a$`).
 */
export function serverNameGroups(names: readonly string[], budget = MAX_LIST_QUERY_LENGTH): string[][] {
  const separator = formEncodedLength('|');
  const fixed = formEncodedLength('name') + 1 + formEncodedLength('^()$') - separator;
  return groupsWithinBudget(names, (name) => formEncodedLength(exactNameFilter(name).slice(1, -1)) + separator, budget, fixed);
}

/** Whether `device_id=a&device_id=b...` of these IDs fits in one query. */
export function deviceIdsFitOneQuery(deviceIds: readonly string[], budget = MAX_LIST_QUERY_LENGTH): boolean {
  let length = -1;
  for (const deviceId of deviceIds) length += formEncodedLength('device_id') + 1 + formEncodedLength(deviceId) + 1;
  return length <= budget;
}
