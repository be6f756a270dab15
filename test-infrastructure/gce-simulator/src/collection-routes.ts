import type { ComputeRequest, ComputeRoute } from './compute-route.js';
import { checkFingerprint, fingerprintOf, pageOf, readListQuery, type ComputeState, type ReferenceFinder, type Resource } from './compute-state.js';
import { alreadyExists, GceError, invalidField, requiredField } from './gce-error.js';
import type { Operation } from './operation-store.js';
import { collectionPath, resourcePath, scopePath, type ResourceScope } from './resource-links.js';

export type ScopeType = ResourceScope['type'];

export interface BuildInput {
  state: ComputeState;
  project: string;
  scope: ResourceScope;
  path: string;
  /** The request body (for patch: the stored resource with the body merged in). */
  body: Record<string, unknown>;
  /** The stored resource on update/patch. */
  existing: Resource | undefined;
}

/** A resource kind served with the standard Compute methods. */
export interface CollectionSpec {
  /** Discovery resource name: `instances`, `regionHealthChecks`. */
  apiResource: string;
  /** URL collection segment: `instances`, `healthChecks`. */
  collection: string;
  scope: ScopeType;
  /** Path parameter naming one resource: `instance`, `healthCheck`. */
  nameParam: string;
  kind: string;
  listKind: string;
  /** When set, `aggregatedList` is served with this kind. */
  aggregatedListKind?: string;
  /** Methods beyond get/list/insert/delete. */
  update?: boolean;
  patch?: boolean;
  /** The resource carries `fingerprint`, checked on update/patch and recomputed on every write. */
  fingerprinted?: boolean;
  /** Builds the stored resource (without the common fields); throws GceError on bad input. */
  build(input: BuildInput): Record<string, unknown>;
  /** Paths this resource depends on (they cannot be deleted while it exists). */
  references: ReferenceFinder;
  /** Called after insert/update/patch stored `resource`. */
  afterWrite?(state: ComputeState, path: string, resource: Resource, previous: Resource | undefined): void;
  /** Replaces the default in-use check (nothing may reference the resource) on delete. */
  checkNotInUse?(state: ComputeState, path: string, resource: Resource): void;
  /** Called before deletion, after the in-use check; may throw. */
  beforeDelete?(state: ComputeState, path: string, resource: Resource): void;
  afterDelete?(state: ComputeState, path: string, resource: Resource): void;
}

const NAME_PATTERN = /^[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?$/;

export function scopeOf(type: ScopeType, params: Record<string, string>): ResourceScope {
  if (type === 'global') return { type: 'global' };
  if (type === 'region') return { type: 'region', name: params['region'] ?? '' };
  return { type: 'zone', name: params['zone'] ?? '' };
}

export function scopeTemplate(type: ScopeType): string {
  return type === 'global' ? 'global' : type === 'region' ? 'regions/{region}' : 'zones/{zone}';
}

export function requireBody(request: ComputeRequest): Record<string, unknown> {
  if (request.body === undefined) throw new GceError('required', 'Required field \'resource\' not specified');
  return request.body;
}

/** The fields every resource has, keeping id and creationTimestamp across updates. */
export function commonFields(spec: CollectionSpec, input: BuildInput, name: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    kind: spec.kind,
    id: input.existing?.['id'] ?? input.state.newId(),
    creationTimestamp: input.existing?.['creationTimestamp'] ?? input.state.timestamp(),
    name,
    selfLink: input.state.link(input.path),
  };
  if (input.scope.type === 'zone') fields['zone'] = input.state.scopeLink(input.project, input.scope);
  if (input.scope.type === 'region') fields['region'] = input.state.scopeLink(input.project, input.scope);
  return fields;
}

function checkName(name: unknown): string {
  if (name === undefined || name === null || name === '') throw requiredField('resource.name');
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
    throw invalidField('resource.name', name, 'Must be a match of regex \'(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)\'');
  }
  return name;
}

/** Builds, fingerprints and stores a resource; returns it. */
export function storeBuilt(spec: CollectionSpec, input: BuildInput, name: string): Resource {
  const built = { ...commonFields(spec, input, name), ...spec.build(input) } as Resource;
  if (input.body['description'] !== undefined && built['description'] === undefined) built['description'] = input.body['description'];
  if (spec.fingerprinted === true) built['fingerprint'] = fingerprintOf(built);
  input.state.put(input.path, built);
  spec.afterWrite?.(input.state, input.path, built, input.existing);
  return built;
}

export function mutationOperation(state: ComputeState, project: string, scope: ResourceScope, operationType: string, resource: Resource, error?: GceError): Operation {
  return state.operations.create({
    project,
    scope,
    operationType,
    targetLink: String(resource['selfLink']),
    targetId: typeof resource['id'] === 'string' ? resource['id'] : undefined,
    error,
  });
}

/** A list response body: kind, id, items (omitted when empty, as Compute does), selfLink, nextPageToken. */
export function listBody(state: ComputeState, kind: string, collection: string, items: Record<string, unknown>[], query: URLSearchParams): Record<string, unknown> {
  const { page, nextPageToken } = pageOf(items, readListQuery(query));
  return {
    kind,
    id: collection,
    ...(page.length > 0 ? { items: page } : {}),
    selfLink: state.link(collection),
    ...(nextPageToken === undefined ? {} : { nextPageToken }),
  };
}

export interface AggregatedSource {
  scope: ResourceScope;
  collection: string;
  items: (state: ComputeState, collection: string) => Record<string, unknown>[];
}

/** An aggregatedList body: `items` keyed by scope (`zones/z`, `regions/r`, `global`), a warning for empty scopes. */
export function aggregatedBody(
  state: ComputeState,
  project: string,
  kind: string,
  itemsKey: string,
  apiCollection: string,
  sources: AggregatedSource[],
  query: URLSearchParams,
): Record<string, unknown> {
  const scopeKeyOf = new Map<Record<string, unknown>, string>();
  sources.forEach((source) => {
    const path = collectionPath(project, source.scope, source.collection);
    for (const item of source.items(state, path)) scopeKeyOf.set(item, scopePath(source.scope));
  });
  const all = [...scopeKeyOf.keys()];
  const { page, nextPageToken } = pageOf(all, readListQuery(query));
  const items: Record<string, unknown> = {};
  for (const source of sources) {
    const key = scopePath(source.scope);
    const inScope = page.filter((item) => scopeKeyOf.get(item) === key);
    items[key] =
      inScope.length > 0
        ? { [itemsKey]: inScope }
        : {
            warning: {
              code: 'NO_RESULTS_ON_PAGE',
              message: `There are no results for scope '${key}' on this page.`,
              data: [{ key: 'scope', value: key }],
            },
          };
  }
  return {
    kind,
    id: `projects/${project}/aggregated/${apiCollection}`,
    items,
    selfLink: state.link(`projects/${project}/aggregated/${apiCollection}`),
    ...(nextPageToken === undefined ? {} : { nextPageToken }),
  };
}

export function aggregatedScopes(state: ComputeState, type: ScopeType): ResourceScope[] {
  if (type === 'global') return [{ type: 'global' }];
  if (type === 'region') return [{ type: 'region', name: state.world.region }];
  return state.world.zones.map((name) => ({ type: 'zone', name }) as const);
}

/** get, list, insert, delete (+ update, patch, aggregatedList as the spec says). */
export function collectionRoutes(state: ComputeState, spec: CollectionSpec): ComputeRoute[] {
  state.registerReferences(spec.collection, spec.references);
  const base = `projects/{project}/${scopeTemplate(spec.scope)}/${spec.collection}`;
  const one = `${base}/{${spec.nameParam}}`;
  const locate = (request: ComputeRequest): { project: string; scope: ResourceScope; name: string; path: string } => {
    const project = request.params['project'] ?? '';
    const scope = scopeOf(spec.scope, request.params);
    state.checkScope(project, scope);
    const name = request.params[spec.nameParam] ?? '';
    return { project, scope, name, path: resourcePath(project, scope, spec.collection, name) };
  };
  const routes: ComputeRoute[] = [
    {
      id: `compute.${spec.apiResource}.get`,
      httpMethod: 'GET',
      path: one,
      handle: (request) => structuredClone(state.require(locate(request).path)),
    },
    {
      id: `compute.${spec.apiResource}.list`,
      httpMethod: 'GET',
      path: base,
      handle: (request) => {
        const project = request.params['project'] ?? '';
        const scope = scopeOf(spec.scope, request.params);
        state.checkScope(project, scope);
        const collection = collectionPath(project, scope, spec.collection);
        return listBody(state, spec.listKind, collection, structuredClone(state.list(collection)), request.query);
      },
    },
    {
      id: `compute.${spec.apiResource}.insert`,
      httpMethod: 'POST',
      path: base,
      handle: (request) => {
        const project = request.params['project'] ?? '';
        const scope = scopeOf(spec.scope, request.params);
        state.checkScope(project, scope);
        const body = requireBody(request);
        const name = checkName(body['name']);
        const path = resourcePath(project, scope, spec.collection, name);
        if (state.has(path)) throw alreadyExists(path);
        const stored = storeBuilt(spec, { state, project, scope, path, body, existing: undefined }, name);
        return mutationOperation(state, project, scope, 'insert', stored);
      },
    },
    {
      id: `compute.${spec.apiResource}.delete`,
      httpMethod: 'DELETE',
      path: one,
      handle: (request) => {
        const { project, scope, path } = locate(request);
        const resource = state.require(path);
        if (spec.checkNotInUse !== undefined) spec.checkNotInUse(state, path, resource);
        else state.assertNotInUse(path);
        spec.beforeDelete?.(state, path, resource);
        state.remove(path);
        spec.afterDelete?.(state, path, resource);
        return mutationOperation(state, project, scope, 'delete', resource);
      },
    },
  ];
  const rewrite = (request: ComputeRequest, operationType: 'update' | 'patch'): Operation => {
    const { project, scope, name, path } = locate(request);
    const existing = state.require(path);
    const given = requireBody(request);
    if (given['name'] !== undefined && given['name'] !== name) throw invalidField('resource.name', given['name'], `Must be '${name}'.`);
    if (spec.fingerprinted === true) checkFingerprint(path, existing['fingerprint'], given['fingerprint']);
    const body = operationType === 'patch' ? { ...structuredClone(existing), ...given } : given;
    const stored = storeBuilt(spec, { state, project, scope, path, body, existing }, name);
    return mutationOperation(state, project, scope, operationType, stored);
  };
  if (spec.update === true) routes.push({ id: `compute.${spec.apiResource}.update`, httpMethod: 'PUT', path: one, handle: (request) => rewrite(request, 'update') });
  if (spec.patch === true) routes.push({ id: `compute.${spec.apiResource}.patch`, httpMethod: 'PATCH', path: one, handle: (request) => rewrite(request, 'patch') });
  if (spec.aggregatedListKind !== undefined) {
    const kind = spec.aggregatedListKind;
    routes.push({
      id: `compute.${spec.apiResource}.aggregatedList`,
      httpMethod: 'GET',
      path: `projects/{project}/aggregated/${spec.collection}`,
      handle: (request) => {
        const project = request.params['project'] ?? '';
        state.checkScope(project, { type: 'global' });
        const sources = aggregatedScopes(state, spec.scope).map((scope) => ({
          scope,
          collection: spec.collection,
          items: (inner: ComputeState, path: string) => structuredClone(inner.list(path)),
        }));
        return aggregatedBody(state, project, kind, spec.collection, spec.collection, sources, request.query);
      },
    });
  }
  return routes;
}

/** Finds the custom-method target: checks scope and existence. */
export function locateIn(state: ComputeState, spec: Pick<CollectionSpec, 'scope' | 'collection' | 'nameParam'>, request: ComputeRequest): { project: string; scope: ResourceScope; path: string; resource: Resource } {
  const project = request.params['project'] ?? '';
  const scope = scopeOf(spec.scope, request.params);
  state.checkScope(project, scope);
  const path = resourcePath(project, scope, spec.collection, request.params[spec.nameParam] ?? '');
  return { project, scope, path, resource: state.require(path) };
}

/** Re-stores a resource after a custom method changed it (new fingerprint when it has one). */
export function restore(state: ComputeState, spec: Pick<CollectionSpec, 'fingerprinted'>, path: string, resource: Resource): void {
  if (spec.fingerprinted === true) resource['fingerprint'] = fingerprintOf(resource);
  state.put(path, resource);
}
