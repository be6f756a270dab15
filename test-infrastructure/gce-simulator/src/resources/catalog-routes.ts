import { aggregatedBody, listBody } from '../collection-routes.js';
import type { ComputeRequest, ComputeRoute } from '../compute-route.js';
import type { ComputeState } from '../compute-state.js';
import { notFound } from '../gce-error.js';
import { collectionPath, resourcePath, type ResourceScope } from '../resource-links.js';

/** A stable id for a catalog entry (zones and regions are not created, so no sequence). */
function catalogId(name: string): string {
  let hash = 0n;
  for (const char of name) hash = (hash * 131n + BigInt(char.codePointAt(0) ?? 0)) % 9_000_000_000_000_000_000n;
  return (1_000_000_000_000_000_000n + hash).toString();
}

const CATALOG_TIMESTAMP = '1969-12-31T16:00:00.000-08:00';

function zoneResource(state: ComputeState, zone: string): Record<string, unknown> {
  const { project, region } = state.world;
  return {
    kind: 'compute#zone',
    id: catalogId(zone),
    creationTimestamp: CATALOG_TIMESTAMP,
    name: zone,
    description: zone,
    status: 'UP',
    region: state.link(`projects/${project}/regions/${region}`),
    selfLink: state.link(`projects/${project}/zones/${zone}`),
    availableCpuPlatforms: ['Intel Broadwell'],
    supportsPzs: false,
  };
}

function regionResource(state: ComputeState): Record<string, unknown> {
  const { project, region, zones } = state.world;
  return {
    kind: 'compute#region',
    id: catalogId(region),
    creationTimestamp: CATALOG_TIMESTAMP,
    name: region,
    description: region,
    status: 'UP',
    zones: zones.map((zone) => state.link(`projects/${project}/zones/${zone}`)),
    selfLink: state.link(`projects/${project}/regions/${region}`),
    supportsPzs: false,
  };
}

function checkProject(state: ComputeState, request: ComputeRequest): string {
  const project = request.params['project'] ?? '';
  state.checkScope(project, { type: 'global' });
  return project;
}

function operationRoutes(state: ComputeState, apiResource: string, scopeType: ResourceScope['type']): ComputeRoute[] {
  const scopeTemplate = scopeType === 'global' ? 'global' : scopeType === 'region' ? 'regions/{region}' : 'zones/{zone}';
  const base = `projects/{project}/${scopeTemplate}/operations`;
  const scopeOf = (request: ComputeRequest): ResourceScope => {
    if (scopeType === 'global') return { type: 'global' };
    return scopeType === 'region' ? { type: 'region', name: request.params['region'] ?? '' } : { type: 'zone', name: request.params['zone'] ?? '' };
  };
  const locate = (request: ComputeRequest): string => {
    const project = request.params['project'] ?? '';
    const scope = scopeOf(request);
    state.checkScope(project, scope);
    return resourcePath(project, scope, 'operations', request.params['operation'] ?? '');
  };
  return [
    { id: `compute.${apiResource}.get`, httpMethod: 'GET', path: `${base}/{operation}`, handle: (request) => state.operations.get(locate(request)) },
    { id: `compute.${apiResource}.wait`, httpMethod: 'POST', path: `${base}/{operation}/wait`, handle: (request) => state.operations.wait(locate(request)) },
    {
      id: `compute.${apiResource}.delete`,
      httpMethod: 'DELETE',
      path: `${base}/{operation}`,
      handle: (request) => {
        state.operations.delete(locate(request));
        return undefined;
      },
    },
    {
      id: `compute.${apiResource}.list`,
      httpMethod: 'GET',
      path: base,
      handle: (request) => {
        const project = request.params['project'] ?? '';
        const scope = scopeOf(request);
        state.checkScope(project, scope);
        const collection = collectionPath(project, scope, 'operations');
        return listBody(state, 'compute#operationList', collection, state.operations.list(collection), request.query);
      },
    },
  ];
}

/** aggregatedList of a kind that has a global and a regional collection. */
function globalAndRegionalAggregatedList(state: ComputeState, apiResource: string, collection: string, kind: string): ComputeRoute {
  return {
    id: `compute.${apiResource}.aggregatedList`,
    httpMethod: 'GET',
    path: `projects/{project}/aggregated/${collection}`,
    handle: (request) => {
      const project = checkProject(state, request);
      const scopes: ResourceScope[] = [{ type: 'global' }, { type: 'region', name: state.world.region }];
      const sources = scopes.map((scope) => ({ scope, collection, items: (inner: ComputeState, path: string) => structuredClone(inner.list(path)) }));
      return aggregatedBody(state, project, kind, collection, collection, sources, request.query);
    },
  };
}

/**
 * Global backend services are not simulated (the L4 CCM uses regional ones); their list and get are
 * served so that clients listing every scope (gcloud) see an empty collection.
 */
function globalBackendServiceRoutes(state: ComputeState): ComputeRoute[] {
  return [
    {
      id: 'compute.backendServices.list',
      httpMethod: 'GET',
      path: 'projects/{project}/global/backendServices',
      handle: (request) => {
        const project = checkProject(state, request);
        const collection = collectionPath(project, { type: 'global' }, 'backendServices');
        return listBody(state, 'compute#backendServiceList', collection, structuredClone(state.list(collection)), request.query);
      },
    },
    {
      id: 'compute.backendServices.get',
      httpMethod: 'GET',
      path: 'projects/{project}/global/backendServices/{backendService}',
      handle: (request) => {
        const project = checkProject(state, request);
        return structuredClone(state.require(resourcePath(project, { type: 'global' }, 'backendServices', request.params['backendService'] ?? '')));
      },
    },
    globalAndRegionalAggregatedList(state, 'backendServices', 'backendServices', 'compute#backendServiceAggregatedList'),
  ];
}

/**
 * Managed instance groups are not simulated; their lists are served, always empty, because
 * gcloud's `instance-groups list` asks them to tell managed groups from unmanaged ones.
 */
function emptyManagedGroupLists(state: ComputeState): ComputeRoute[] {
  const empty = (id: string, scopeType: 'zone' | 'region', kind: string): ComputeRoute => ({
    id,
    httpMethod: 'GET',
    path: `projects/{project}/${scopeType === 'zone' ? 'zones/{zone}' : 'regions/{region}'}/instanceGroupManagers`,
    handle: (request) => {
      const project = request.params['project'] ?? '';
      const scope: ResourceScope = scopeType === 'zone' ? { type: 'zone', name: request.params['zone'] ?? '' } : { type: 'region', name: request.params['region'] ?? '' };
      state.checkScope(project, scope);
      return listBody(state, kind, collectionPath(project, scope, 'instanceGroupManagers'), [], request.query);
    },
  });
  return [
    empty('compute.instanceGroupManagers.list', 'zone', 'compute#instanceGroupManagerList'),
    empty('compute.regionInstanceGroupManagers.list', 'region', 'compute#regionInstanceGroupManagerList'),
  ];
}

export function catalogRoutes(state: ComputeState): ComputeRoute[] {
  return [
    {
      id: 'compute.projects.get',
      httpMethod: 'GET',
      path: 'projects/{project}',
      handle: (request) => {
        const project = checkProject(state, request);
        return {
          kind: 'compute#project',
          id: catalogId(project),
          creationTimestamp: CATALOG_TIMESTAMP,
          name: project,
          selfLink: state.link(`projects/${project}`),
          commonInstanceMetadata: { kind: 'compute#metadata', fingerprint: 'xjF7p3dN5eg=' },
          defaultNetworkTier: 'PREMIUM',
          defaultServiceAccount: `${catalogId(project).slice(0, 12)}-compute@developer.gserviceaccount.com`,
          xpnProjectStatus: 'UNSPECIFIED_XPN_PROJECT_STATUS',
        };
      },
    },
    {
      id: 'compute.zones.get',
      httpMethod: 'GET',
      path: 'projects/{project}/zones/{zone}',
      handle: (request) => {
        const project = checkProject(state, request);
        const zone = request.params['zone'] ?? '';
        if (!state.world.zones.includes(zone)) throw notFound(`projects/${project}/zones/${zone}`);
        return zoneResource(state, zone);
      },
    },
    {
      id: 'compute.zones.list',
      httpMethod: 'GET',
      path: 'projects/{project}/zones',
      handle: (request) => {
        const project = checkProject(state, request);
        return listBody(state, 'compute#zoneList', `projects/${project}/zones`, state.world.zones.map((zone) => zoneResource(state, zone)), request.query);
      },
    },
    {
      id: 'compute.regions.get',
      httpMethod: 'GET',
      path: 'projects/{project}/regions/{region}',
      handle: (request) => {
        const project = checkProject(state, request);
        const region = request.params['region'] ?? '';
        if (region !== state.world.region) throw notFound(`projects/${project}/regions/${region}`);
        return regionResource(state);
      },
    },
    {
      id: 'compute.regions.list',
      httpMethod: 'GET',
      path: 'projects/{project}/regions',
      handle: (request) => {
        const project = checkProject(state, request);
        return listBody(state, 'compute#regionList', `projects/${project}/regions`, [regionResource(state)], request.query);
      },
    },
    globalAndRegionalAggregatedList(state, 'healthChecks', 'healthChecks', 'compute#healthChecksAggregatedList'),
    ...globalBackendServiceRoutes(state),
    ...emptyManagedGroupLists(state),
    ...operationRoutes(state, 'zoneOperations', 'zone'),
    ...operationRoutes(state, 'regionOperations', 'region'),
    ...operationRoutes(state, 'globalOperations', 'global'),
    {
      id: 'compute.globalOperations.aggregatedList',
      httpMethod: 'GET',
      path: 'projects/{project}/aggregated/operations',
      handle: (request) => {
        const project = checkProject(state, request);
        const scopes: ResourceScope[] = [{ type: 'global' }, { type: 'region', name: state.world.region }, ...state.world.zones.map((name) => ({ type: 'zone', name }) as const)];
        const sources = scopes.map((scope) => ({ scope, collection: 'operations', items: (inner: ComputeState, path: string) => inner.operations.list(path) }));
        return aggregatedBody(state, project, 'compute#operationAggregatedList', 'operations', 'operations', sources, request.query);
      },
    },
  ];
}
