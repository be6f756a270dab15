import { createHash } from 'node:crypto';
import { parseComputeFilter } from './compute-filter.js';
import { GceError, inUse, notFound } from './gce-error.js';
import { OperationStore } from './operation-store.js';
import { parseResourcePath, scopePath, type ResourceScope } from './resource-links.js';

export type Resource = Record<string, unknown> & { name: string };

/** The fixed world the simulator serves: one project, one region and its zones. */
export interface SimulatorWorld {
  project: string;
  region: string;
  zones: string[];
  network: string;
  /** `http://127.0.0.1:PORT/compute/v1/` — every selfLink starts with it. */
  apiBase: string;
}

/** Relative paths a resource depends on, so that those cannot be deleted while it exists. */
export type ReferenceFinder = (resource: Resource) => string[];

/** The in-memory Compute state: resources keyed by relative path, ids, fingerprints, operations. */
export class ComputeState {
  private readonly resources = new Map<string, Resource>();
  private readonly referenceFinders = new Map<string, ReferenceFinder>();
  private idSequence = 0n;
  readonly operations: OperationStore;
  /** Instance links per instance-group path (membership is not a field of InstanceGroup). */
  readonly groupMembers = new Map<string, string[]>();

  constructor(readonly world: SimulatorWorld) {
    this.operations = new OperationStore(this);
  }

  link(path: string): string {
    return `${this.world.apiBase}${path}`;
  }

  /** A deterministic uint64 id, as a decimal string like the API's. */
  newId(): string {
    this.idSequence += 1n;
    return (4_000_000_000_000_000_000n + this.idSequence * 1_000_003n).toString();
  }

  /** RFC 3339 with milliseconds and a numeric offset, as Compute writes creationTimestamp. */
  timestamp(): string {
    return new Date().toISOString().replace('Z', '-00:00');
  }

  /** Unknown project -> 404; unknown zone/region -> 404 (the catalog is fixed). */
  checkScope(project: string, scope: ResourceScope): void {
    if (project !== this.world.project) throw notFound(`projects/${project}`);
    if (scope.type === 'region' && scope.name !== this.world.region) throw notFound(`projects/${project}/regions/${scope.name}`);
    if (scope.type === 'zone' && !this.world.zones.includes(scope.name)) throw notFound(`projects/${project}/zones/${scope.name}`);
  }

  registerReferences(collection: string, finder: ReferenceFinder): void {
    this.referenceFinders.set(collection, finder);
  }

  get(path: string): Resource | undefined {
    return this.resources.get(path);
  }

  require(path: string): Resource {
    const resource = this.resources.get(path);
    if (resource === undefined) throw notFound(path);
    return resource;
  }

  has(path: string): boolean {
    return this.resources.has(path);
  }

  put(path: string, resource: Resource): void {
    this.resources.set(path, resource);
  }

  remove(path: string): void {
    this.resources.delete(path);
  }

  /** The resources directly in a collection, sorted by name. */
  list(collection: string): Resource[] {
    const prefix = `${collection}/`;
    const found: Resource[] = [];
    for (const [path, resource] of this.resources) {
      if (path.startsWith(prefix) && !path.slice(prefix.length).includes('/')) found.push(resource);
    }
    return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Every stored resource with its path. */
  entries(): IterableIterator<[string, Resource]> {
    return this.resources.entries();
  }

  /** Paths of the resources that reference `path`. */
  usersOf(path: string): string[] {
    const users: string[] = [];
    for (const [userPath, resource] of this.resources) {
      const collection = parseResourcePath(userPath)?.collection;
      const finder = collection === undefined ? undefined : this.referenceFinders.get(collection);
      if (finder !== undefined && finder(resource).includes(path)) users.push(userPath);
    }
    return users;
  }

  /** 400 resourceInUseByAnotherResource when anything references `path`. */
  assertNotInUse(path: string): void {
    const user = this.usersOf(path)[0];
    if (user !== undefined) throw inUse(path, user);
  }

  scopeLink(project: string, scope: ResourceScope): string {
    return this.link(`projects/${project}/${scopePath(scope)}`);
  }
}

/** The labelFingerprint Compute reports for an empty label set. */
export const EMPTY_LABEL_FINGERPRINT = '42WmSpB8rSM=';

/** An 8-byte base64 fingerprint of a resource's content, without its own fingerprint fields. */
export function fingerprintOf(value: unknown): string {
  const text = JSON.stringify(value, (key, inner: unknown) => (key === 'fingerprint' || key === 'labelFingerprint' ? undefined : inner));
  return createHash('sha256').update(text).digest().subarray(0, 8).toString('base64');
}

/** 412 conditionNotMet when the request carries a fingerprint other than the current one. */
export function checkFingerprint(path: string, current: unknown, given: unknown, field = 'fingerprint'): void {
  if (given === undefined || given === null) return;
  if (given !== current) {
    throw new GceError(
      'conditionNotMet',
      `Supplied ${field} does not match current ${field} of '${path}'. Please retry the request with the current ${field}.`,
    );
  }
}

export interface ListQuery {
  filter: string | null;
  maxResults: number;
  pageToken: string | null;
  orderBy: string | null;
}

export function readListQuery(query: URLSearchParams): ListQuery {
  const maxText = query.get('maxResults');
  let maxResults = 500;
  if (maxText !== null) {
    maxResults = Number(maxText);
    if (!Number.isInteger(maxResults) || maxResults < 0) throw new GceError('invalid', `Invalid value for field 'maxResults': '${maxText}'. Must be an integer in [0, 500].`);
    if (maxResults === 0 || maxResults > 500) maxResults = 500;
  }
  const orderBy = query.get('orderBy');
  if (orderBy !== null && orderBy !== 'name' && orderBy !== 'creationTimestamp desc') {
    throw new GceError('invalid', `Invalid value for field 'orderBy': '${orderBy}'. Only 'name' and 'creationTimestamp desc' are supported.`);
  }
  return { filter: query.get('filter'), maxResults, pageToken: query.get('pageToken'), orderBy };
}

function pageTokenFor(offset: number, query: ListQuery): string {
  return Buffer.from(JSON.stringify({ o: offset, f: query.filter ?? '' })).toString('base64url');
}

function offsetFromToken(query: ListQuery): number {
  if (query.pageToken === null || query.pageToken === '') return 0;
  try {
    const decoded = JSON.parse(Buffer.from(query.pageToken, 'base64url').toString('utf8')) as { o?: unknown; f?: unknown };
    if (typeof decoded.o === 'number' && Number.isInteger(decoded.o) && decoded.o >= 0 && decoded.f === (query.filter ?? '')) return decoded.o;
  } catch {
    // fall through
  }
  throw new GceError('invalid', `Invalid value for field 'pageToken': '${query.pageToken}'. Invalid page token.`);
}

/** Filters, orders and pages `items`; returns the page and the next token (undefined on the last page). */
export function pageOf<T extends Record<string, unknown>>(items: T[], query: ListQuery): { page: T[]; nextPageToken: string | undefined } {
  const filter = parseComputeFilter(query.filter);
  let matching = items.filter((item) => filter(item));
  if (query.orderBy === 'creationTimestamp desc') {
    matching = [...matching].sort((a, b) => String(b['creationTimestamp']).localeCompare(String(a['creationTimestamp'])));
  }
  const offset = offsetFromToken(query);
  const page = matching.slice(offset, offset + query.maxResults);
  const next = offset + query.maxResults;
  return { page, nextPageToken: next < matching.length ? pageTokenFor(next, query) : undefined };
}
