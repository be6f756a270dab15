import { GceError } from './gce-error.js';

/** Where a resource lives: the project, `global`, a region or a zone. */
export type ResourceScope = { type: 'global' } | { type: 'region'; name: string } | { type: 'zone'; name: string };

/** `global`, `regions/us-central1` or `zones/us-central1-a`. */
export function scopePath(scope: ResourceScope): string {
  if (scope.type === 'global') return 'global';
  return `${scope.type === 'region' ? 'regions' : 'zones'}/${scope.name}`;
}

/** `projects/p/zones/z/instances/n`. */
export function resourcePath(project: string, scope: ResourceScope, collection: string, name: string): string {
  return `${collectionPath(project, scope, collection)}/${name}`;
}

export function collectionPath(project: string, scope: ResourceScope, collection: string): string {
  return `projects/${project}/${scopePath(scope)}/${collection}`;
}

/** The parts of a relative path `projects/p/{global|regions/r|zones/z}/collection/name`. */
export interface ParsedResourcePath {
  project: string;
  scope: ResourceScope;
  collection: string;
  name: string;
}

export function parseResourcePath(path: string): ParsedResourcePath | undefined {
  const global = /^projects\/([^/]+)\/global\/([^/]+)\/([^/]+)$/.exec(path);
  if (global !== null) return { project: global[1] ?? '', scope: { type: 'global' }, collection: global[2] ?? '', name: global[3] ?? '' };
  const scoped = /^projects\/([^/]+)\/(regions|zones)\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
  if (scoped === null) return undefined;
  const scope: ResourceScope = scoped[2] === 'regions' ? { type: 'region', name: scoped[3] ?? '' } : { type: 'zone', name: scoped[3] ?? '' };
  return { project: scoped[1] ?? '', scope, collection: scoped[4] ?? '', name: scoped[5] ?? '' };
}

/**
 * Turns a reference as clients write it into a relative path `projects/...`: a full URL (any host,
 * `compute/v1|beta|alpha`), `projects/p/...`, `global/...`, `regions/r/...`, `zones/z/...`, or a bare
 * name (resolved in `defaultCollection`). Throws `invalid` naming `field` when the form is unknown.
 */
export function normalizeReference(field: string, value: unknown, project: string, defaultCollection?: string): string {
  if (typeof value !== 'string' || value === '') throw new GceError('invalid', `Invalid value for field '${field}': ${JSON.stringify(value)}. Expected a resource reference.`);
  const fromProjects = /(?:^|\/)(projects\/[^?#]+)$/.exec(value);
  let path: string;
  if (fromProjects !== null) path = fromProjects[1] ?? '';
  else if (/^(global|regions|zones)\//.test(value)) path = `projects/${project}/${value}`;
  else if (!value.includes('/') && defaultCollection !== undefined) path = `${defaultCollection}/${value}`;
  else throw new GceError('invalid', `Invalid value for field '${field}': '${value}'. The URL is malformed.`);
  return path.replace(/\/+$/, '');
}

/** The last segment of a path or URL. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
