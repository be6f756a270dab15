/**
 * Every request the Nova stand-in serves, with the API sample (from python3-nova's
 * `api_sample_tests/api_samples`, relative to that directory, without the `vX.Y/` part) that
 * describes its answer. A request matching no route is refused (404 `itemNotFound`, or 405
 * `badMethod` for a known path with another method); the sample test checks every route's
 * sample exists and that the answers match it.
 */
export type NovaRouteName =
  | 'versions'
  | 'version'
  | 'servers.list'
  | 'servers.detail'
  | 'servers.create'
  | 'servers.get'
  | 'servers.delete'
  | 'servers.action'
  | 'interfaces.list'
  | 'interfaces.get'
  | 'flavors.list'
  | 'flavors.detail'
  | 'flavors.get'
  | 'flavors.extraSpecs';

export interface NovaRoute {
  name: NovaRouteName;
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under the service root; `{id}` matches one segment. */
  path: string;
  /** Whether the request needs a valid Keystone token (version documents do not). */
  authenticated: boolean;
  /** The sample of a successful answer's body (none for 202/204 without a body). */
  responseSample?: string;
  /** The sample of the request body, when it has one. */
  requestSample?: string;
}

export const NOVA_ROUTES: readonly NovaRoute[] = [
  { name: 'versions', method: 'GET', path: '/', authenticated: false, responseSample: 'versions/versions-get-resp.json.tpl' },
  { name: 'version', method: 'GET', path: '/v2.1', authenticated: false, responseSample: 'versions/v21-version-get-resp.json.tpl' },
  { name: 'version', method: 'GET', path: '/v2.1/', authenticated: false, responseSample: 'versions/v21-version-get-resp.json.tpl' },
  { name: 'servers.list', method: 'GET', path: '/v2.1/servers', authenticated: true, responseSample: 'servers/servers-list-resp.json.tpl' },
  { name: 'servers.detail', method: 'GET', path: '/v2.1/servers/detail', authenticated: true, responseSample: 'servers/servers-details-resp.json.tpl' },
  { name: 'servers.create', method: 'POST', path: '/v2.1/servers', authenticated: true, responseSample: 'servers/server-create-resp.json.tpl', requestSample: 'servers/server-create-req.json.tpl' },
  { name: 'servers.get', method: 'GET', path: '/v2.1/servers/{id}', authenticated: true, responseSample: 'servers/server-get-resp.json.tpl' },
  { name: 'servers.delete', method: 'DELETE', path: '/v2.1/servers/{id}', authenticated: true },
  { name: 'servers.action', method: 'POST', path: '/v2.1/servers/{id}/action', authenticated: true, requestSample: 'servers/server-action-stop.json.tpl' },
  { name: 'interfaces.list', method: 'GET', path: '/v2.1/servers/{id}/os-interface', authenticated: true, responseSample: 'os-attach-interfaces/attach-interfaces-list-resp.json.tpl' },
  { name: 'interfaces.get', method: 'GET', path: '/v2.1/servers/{id}/os-interface/{id}', authenticated: true, responseSample: 'os-attach-interfaces/attach-interfaces-show-resp.json.tpl' },
  { name: 'flavors.list', method: 'GET', path: '/v2.1/flavors', authenticated: true, responseSample: 'flavors/flavors-list-resp.json.tpl' },
  { name: 'flavors.detail', method: 'GET', path: '/v2.1/flavors/detail', authenticated: true, responseSample: 'flavors/flavors-detail-resp.json.tpl' },
  { name: 'flavors.get', method: 'GET', path: '/v2.1/flavors/{id}', authenticated: true, responseSample: 'flavors/flavor-get-resp.json.tpl' },
  { name: 'flavors.extraSpecs', method: 'GET', path: '/v2.1/flavors/{id}/os-extra_specs', authenticated: true, responseSample: 'flavor-extra-specs/flavor-extra-specs-list-resp.json.tpl' },
];

export interface RouteMatch {
  route: NovaRoute;
  /** The `{id}` segments, in order. */
  ids: string[];
}

export type RouteLookup = { found: RouteMatch } | { found: undefined; pathKnown: boolean };

function matchPath(pattern: string, path: string): string[] | undefined {
  const patternParts = pattern.split('/');
  const pathParts = path.split('/');
  if (patternParts.length !== pathParts.length) return undefined;
  const ids: string[] = [];
  for (const [index, part] of patternParts.entries()) {
    const actual = pathParts[index]!;
    if (part === '{id}') {
      if (actual === '') return undefined;
      ids.push(decodeURIComponent(actual));
    } else if (part !== actual) return undefined;
  }
  return ids;
}

/** The route for a method and path; literal paths win over `{id}` ones (`/servers/detail`). */
export function findRoute(method: string, path: string): RouteLookup {
  const candidates = NOVA_ROUTES.map((route) => ({ route, ids: matchPath(route.path, path) }))
    .filter((candidate): candidate is RouteMatch => candidate.ids !== undefined)
    .sort((left, right) => left.ids.length - right.ids.length);
  if (candidates.length === 0) return { found: undefined, pathKnown: false };
  const literalCount = candidates[0]!.ids.length;
  const best = candidates.filter((candidate) => candidate.ids.length === literalCount);
  const match = best.find((candidate) => candidate.route.method === method);
  return match === undefined ? { found: undefined, pathKnown: true } : { found: match };
}
