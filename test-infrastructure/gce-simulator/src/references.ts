import type { ComputeState, Resource } from './compute-state.js';
import { invalidField, notFound } from './gce-error.js';
import { normalizeReference, parseResourcePath } from './resource-links.js';

export interface ResolvedReference {
  path: string;
  link: string;
  resource: Resource;
}

/**
 * Resolves a reference field to an existing resource of one of `collections` (404 notFound when it
 * does not exist, 400 invalid when it names another kind of resource). A bare name is looked up in
 * `defaultCollection` (a collection path).
 */
export function resolveReference(state: ComputeState, field: string, value: unknown, collections: string[], defaultCollection?: string): ResolvedReference {
  const path = normalizeReference(field, value, state.world.project, defaultCollection);
  const parsed = parseResourcePath(path);
  if (parsed === undefined || !collections.includes(parsed.collection)) {
    throw invalidField(field, value, `Expected a reference to a resource of type ${collections.join(' or ')}.`);
  }
  const resource = state.get(path);
  if (resource === undefined) throw notFound(path);
  return { path, link: state.link(path), resource };
}

/** Relative path of a stored link (selfLinks of this simulator), or undefined. */
export function pathOfLink(state: ComputeState, link: unknown): string | undefined {
  if (typeof link !== 'string') return undefined;
  return link.startsWith(state.world.apiBase) ? link.slice(state.world.apiBase.length) : undefined;
}

/** Paths of the links among `values` (strings or undefined). */
export function pathsOf(state: ComputeState, ...values: unknown[]): string[] {
  return values.map((value) => pathOfLink(state, value)).filter((path): path is string => path !== undefined);
}

export function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object') : [];
}

export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
