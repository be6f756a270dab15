/**
 * Maps a request path to what it addresses: discovery documents or a resource
 * (collection, object or subresource), including the legacy `/watch/` prefix.
 */
import { findResource } from '../resources/resource-table.js';
import type { ResourceDefinition } from '../resources/resource-definition.js';

export type Route =
  | { kind: 'api-versions' }
  | { kind: 'api-groups' }
  | { kind: 'api-group'; group: string }
  | { kind: 'resource-list'; group: string; version: string }
  | ResourceRoute
  | { kind: 'not-found' };

export interface ResourceRoute {
  kind: 'resource';
  definition: ResourceDefinition;
  /** Set for a namespaced path (`/namespaces/<ns>/...`). */
  namespace?: string;
  name?: string;
  subresource?: string;
  /** Reached through the deprecated `/watch/` prefix. */
  watchPath: boolean;
}

const namespaceSubresources = new Set(['status', 'finalize']);

export function parseRoute(pathname: string, table: readonly ResourceDefinition[]): Route {
  let segments: string[];
  try {
    segments = pathname.split('/').filter((segment) => segment !== '').map((segment) => decodeURIComponent(segment));
  } catch {
    return { kind: 'not-found' };
  }
  let group: string;
  let version: string | undefined;
  let rest: string[];
  if (segments[0] === 'api') {
    if (segments.length === 1) return { kind: 'api-versions' };
    group = '';
    version = segments[1];
    rest = segments.slice(2);
  } else if (segments[0] === 'apis') {
    if (segments.length === 1) return { kind: 'api-groups' };
    group = segments[1] ?? '';
    if (!table.some((definition) => definition.group === group)) return { kind: 'not-found' };
    if (segments.length === 2) return { kind: 'api-group', group };
    version = segments[2];
    rest = segments.slice(3);
  } else {
    return { kind: 'not-found' };
  }
  if (version === undefined || !table.some((definition) => definition.group === group && definition.version === version)) return { kind: 'not-found' };
  if (rest.length === 0) return { kind: 'resource-list', group, version };

  let watchPath = false;
  if (rest[0] === 'watch') {
    watchPath = true;
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3 && !(rest.length === 3 && namespaceSubresources.has(rest[2] ?? ''))) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural, name, subresource, ...extra] = rest;
  if (plural === undefined || extra.length > 0) return { kind: 'not-found' };
  const definition = findResource(group, version, plural, table);
  if (!definition) return { kind: 'not-found' };
  if (namespace !== undefined && !definition.namespaced) return { kind: 'not-found' };
  if (namespace === undefined && definition.namespaced && name !== undefined) return { kind: 'not-found' };
  if (subresource !== undefined && !(subresource === 'status' && definition.hasStatus)) return { kind: 'not-found' };
  if (watchPath && subresource !== undefined) return { kind: 'not-found' };
  const route: ResourceRoute = { kind: 'resource', definition, watchPath };
  if (namespace !== undefined) route.namespace = namespace;
  if (name !== undefined) route.name = name;
  if (subresource !== undefined) route.subresource = subresource;
  return route;
}
