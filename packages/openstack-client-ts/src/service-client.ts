/**
 * What every service client shares: JSON requests through the session, and listing with
 * pagination: a page's `<collection>_links` entry with `rel: next` is followed (Neutron, Octavia
 * and Nova all page that way with `limit`/`marker`), each next URL at most once.
 */
import { OpenStackError } from './openstack-error.js';
import type { KeystoneSession, Query, ServiceRequest } from './identity/keystone-session.js';

/** Create/update bodies: any documented attribute (the service validates). */
export type Attributes = Record<string, unknown>;

export interface ListOptions {
  /** Page size sent as `limit`; default: the server's. */
  pageSize?: number;
  /** Stop after this many pages; default 1000. */
  maxPages?: number;
  signal?: AbortSignal;
}

interface Link {
  rel?: string;
  href?: string;
}

export class ServiceClient {
  readonly session: KeystoneSession;
  readonly serviceType: string;
  readonly #defaultHeaders: () => Record<string, string>;

  constructor(session: KeystoneSession, serviceType: string, defaultHeaders: () => Record<string, string> = () => ({})) {
    this.session = session;
    this.serviceType = serviceType;
    this.#defaultHeaders = defaultHeaders;
  }

  async call<T>(request: ServiceRequest): Promise<T> {
    const response = await this.session.request(this.serviceType, { ...request, headers: { ...this.#defaultHeaders(), ...request.headers } });
    return response.json as T;
  }

  /** GET `path`, returning `body[key]`. */
  async get<T>(path: string, key: string, signal?: AbortSignal): Promise<T> {
    const body = await this.call<Record<string, T>>({ method: 'GET', path, ...(signal === undefined ? {} : { signal }) });
    return this.#field(body, key, `GET ${path}`);
  }

  async create<T>(path: string, key: string, value: unknown, signal?: AbortSignal): Promise<T> {
    const body = await this.call<Record<string, T>>({ method: 'POST', path, body: { [key]: value }, ...(signal === undefined ? {} : { signal }) });
    return this.#field(body, key, `POST ${path}`);
  }

  async update<T>(path: string, key: string, value: unknown, signal?: AbortSignal): Promise<T> {
    const body = await this.call<Record<string, T>>({ method: 'PUT', path, body: { [key]: value }, ...(signal === undefined ? {} : { signal }) });
    return this.#field(body, key, `PUT ${path}`);
  }

  async delete(path: string, query?: Query, signal?: AbortSignal): Promise<void> {
    await this.call({ method: 'DELETE', path, ...(query === undefined ? {} : { query }), ...(signal === undefined ? {} : { signal }) });
  }

  /** Every item of a collection, following `<key>_links` next links. */
  async list<T>(path: string, key: string, query: Query = {}, options: ListOptions = {}): Promise<T[]> {
    const items: T[] = [];
    const seen = new Set<string>();
    let next: string | undefined;
    const maxPages = options.maxPages ?? 1000;
    for (let page = 0; page < maxPages; page++) {
      const body = await this.call<Record<string, unknown>>({
        method: 'GET',
        path: next ?? path,
        ...(next === undefined ? { query: options.pageSize === undefined ? query : { ...query, limit: options.pageSize } } : {}),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      const pageItems = this.#field(body as Record<string, T[]>, key, `GET ${path}`);
      if (!Array.isArray(pageItems)) throw new OpenStackError(`GET ${path}: "${key}" is not a list`, { kind: 'InvalidResponse', operation: `GET ${this.serviceType} ${path}` });
      items.push(...pageItems);
      const links = body[`${key}_links`];
      const nextLink = Array.isArray(links) ? (links as Link[]).find((link) => link.rel === 'next')?.href : undefined;
      if (nextLink === undefined || pageItems.length === 0 || seen.has(nextLink)) return items;
      seen.add(nextLink);
      next = nextLink;
    }
    return items;
  }

  #field<T>(body: Record<string, T> | undefined, key: string, operation: string): T {
    const value = body?.[key];
    if (value === undefined) throw new OpenStackError(`${operation}: the answer has no "${key}"`, { kind: 'InvalidResponse', operation: `${this.serviceType} ${operation}` });
    return value;
  }
}
