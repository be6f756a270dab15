/**
 * `GET /servers` and `/servers/detail` query handling, pure: which servers a token sees and which
 * match the filters, in Nova's order (created_at desc, then id desc, unless `sort_key`/`sort_dir`),
 * then the page (`limit`, `marker`). A parameter the stand-in does not implement is refused with
 * 400 rather than ignored, so a test never passes on a silently ignored filter.
 */
import { NovaFault } from './nova-fault.js';
import { serverStatus, type ServerRecord } from './nova-server-record.js';

/** The addresses of a server, for the `ip`/`ip6` filters. */
export type AddressLookup = (server: ServerRecord) => readonly string[];

export interface ServerQueryRequester {
  projectId: string;
  admin: boolean;
}

export const MAX_PAGE_SIZE = 1000;

const SUPPORTED_PARAMETERS = new Set([
  'name',
  'status',
  'all_tenants',
  'tenant_id',
  'project_id',
  'ip',
  'ip6',
  'flavor',
  'image',
  'availability_zone',
  'host',
  'changes-since',
  'reservation_id',
  'limit',
  'marker',
  'sort_key',
  'sort_dir',
]);

const SORT_KEYS: Readonly<Record<string, (server: ServerRecord) => string | number>> = {
  created_at: (server) => server.created.getTime(),
  updated_at: (server) => server.updated.getTime(),
  display_name: (server) => server.name,
  uuid: (server) => server.id,
  vm_state: (server) => server.vmState,
  availability_zone: (server) => server.availabilityZone,
};

export interface ServerPage {
  servers: ServerRecord[];
  /** The marker for the next page when this page is full (Nova then gives a `next` link). */
  nextMarker: string | undefined;
  limit: number;
}

/** Whether the value of `all_tenants` turns it on (Nova: present and not false/0/off). */
function truthy(value: string): boolean {
  return !['0', 'false', 'f', 'off', 'n', 'no'].includes(value.trim().toLowerCase());
}

function regexOf(parameter: string, pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch {
    throw new NovaFault(400, `Invalid regular expression for filter ${parameter}: ${pattern}`);
  }
}

export function queryServers(all: readonly ServerRecord[], parameters: URLSearchParams, requester: ServerQueryRequester, addresses: AddressLookup): ServerPage {
  for (const key of parameters.keys()) {
    if (!SUPPORTED_PARAMETERS.has(key)) throw new NovaFault(400, `The Nova stand-in does not implement the servers filter or parameter "${key}"`);
  }
  const allTenants = requester.admin && parameters.has('all_tenants') && truthy(parameters.get('all_tenants') ?? '');
  const projectFilter = parameters.get('project_id') ?? parameters.get('tenant_id');
  let servers = all.filter((server) => {
    if (projectFilter !== null && requester.admin) {
      // Nova honours tenant_id for admins with all_tenants only; without it an admin sees its own project.
      if (allTenants ? server.projectId !== projectFilter : server.projectId !== requester.projectId) return false;
    } else if (!allTenants && server.projectId !== requester.projectId) return false;
    return true;
  });
  const name = parameters.get('name');
  if (name !== null) {
    const pattern = regexOf('name', name);
    servers = servers.filter((server) => pattern.test(server.name));
  }
  const statuses = parameters.getAll('status').map((status) => status.toUpperCase());
  if (statuses.length > 0) servers = servers.filter((server) => statuses.includes(serverStatus(server)));
  for (const [parameter, family] of [['ip', 4], ['ip6', 6]] as const) {
    const value = parameters.get(parameter);
    if (value === null) continue;
    const pattern = regexOf(parameter, value);
    servers = servers.filter((server) => addresses(server).some((address) => address.includes(':') === (family === 6) && pattern.test(address)));
  }
  const flavor = parameters.get('flavor');
  if (flavor !== null) servers = servers.filter((server) => server.flavorId === flavor);
  const image = parameters.get('image');
  if (image !== null) servers = servers.filter((server) => server.imageId === image);
  const reservation = parameters.get('reservation_id');
  if (reservation !== null) servers = servers.filter((server) => server.reservationId === reservation);
  const zone = parameters.get('availability_zone');
  if (zone !== null) servers = servers.filter((server) => server.availabilityZone === zone);
  const host = parameters.get('host');
  if (host !== null && requester.admin) servers = servers.filter((server) => server.host === host);
  const changesSince = parameters.get('changes-since');
  if (changesSince !== null) {
    const since = Date.parse(changesSince);
    if (Number.isNaN(since)) throw new NovaFault(400, `Invalid input for query parameters changes-since. Value: ${changesSince}. ${changesSince} is not a valid date-time`);
    servers = servers.filter((server) => server.updated.getTime() >= since);
  }

  const sortKeys = parameters.getAll('sort_key');
  const sortDirections = parameters.getAll('sort_dir');
  const keys = sortKeys.length === 0 ? ['created_at', 'uuid'] : [...sortKeys];
  for (const key of keys) if (SORT_KEYS[key] === undefined) throw new NovaFault(400, `The Nova stand-in does not sort servers by "${key}"`);
  const directions = keys.map((_, index) => sortDirections[index] ?? sortDirections[0] ?? 'desc');
  for (const direction of directions) if (direction !== 'asc' && direction !== 'desc') throw new NovaFault(400, `Invalid input for query parameters sort_dir. Value: ${direction}. '${direction}' is not one of ['asc', 'desc']`);
  servers = [...servers].sort((left, right) => {
    for (const [index, key] of keys.entries()) {
      const value = SORT_KEYS[key]!;
      const a = value(left);
      const b = value(right);
      if (a === b) continue;
      const order = a < b ? -1 : 1;
      return directions[index] === 'asc' ? order : -order;
    }
    return 0;
  });

  const result = page(servers, parameters, (server) => server.id);
  return { servers: result.items, nextMarker: result.nextMarker, limit: result.limit };
}

/** `limit` (at most MAX_PAGE_SIZE) and `marker` (the last ID of the previous page) over sorted items. */
export function page<T>(items: readonly T[], parameters: URLSearchParams, idOf: (item: T) => string): { items: T[]; nextMarker: string | undefined; limit: number } {
  const limitText = parameters.get('limit');
  let limit = MAX_PAGE_SIZE;
  if (limitText !== null) {
    if (!/^\d+$/.test(limitText)) throw new NovaFault(400, `Invalid input for query parameters limit. Value: ${limitText}. '${limitText}' does not match '^[0-9]*$'`);
    limit = Math.min(Number(limitText), MAX_PAGE_SIZE);
  }
  let start = 0;
  const marker = parameters.get('marker');
  if (marker !== null) {
    const index = items.findIndex((item) => idOf(item) === marker);
    if (index < 0) throw new NovaFault(400, `marker [${marker}] not found`);
    start = index + 1;
  }
  const selected = items.slice(start, start + limit);
  // Nova links the next page whenever a page is full, even when nothing follows it.
  const full = selected.length > 0 && selected.length === limit;
  const nextMarker = full ? idOf(selected[selected.length - 1]!) : undefined;
  return { items: selected, nextMarker, limit };
}
