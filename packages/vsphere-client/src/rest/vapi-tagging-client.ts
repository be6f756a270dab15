/**
 * vAPI REST (`/rest`) tagging client: session, categories, tags and tag associations. A session
 * is created with HTTP basic auth and kept; a 401 on any call creates a new session (credentials
 * are asked again, so a rotated password is used) and retries once.
 */
import type { Dispatcher } from 'undici';
import type { VsphereCredentialsProvider } from '../credentials.js';
import { defaultHttpFetch, silentLogger, type HttpFetch, type VsphereClientLogger } from '../http/http-fetch.js';
import { sendRequest } from '../http/send-request.js';
import type { ManagedObjectReference } from '../vim/managed-object-reference.js';
import { VsphereError, findVsphereError, type VsphereErrorKind } from '../vsphere-error.js';

export const VAPI_SESSION_HEADER = 'vmware-api-session-id';

export interface VapiTaggingClientOptions {
  /** `https://vcenter.example.com[:port]`; requests go to `<server>/rest/...`. */
  server: string;
  credentials: VsphereCredentialsProvider;
  dispatcher?: Dispatcher;
  fetch?: HttpFetch;
  requestTimeoutMs?: number;
  userAgent?: string;
  logger?: VsphereClientLogger;
}

export interface Tag {
  id: string;
  name: string;
  categoryId: string;
  description: string;
}

export interface TagCategory {
  id: string;
  name: string;
  description: string;
  cardinality: string;
  associableTypes: string[];
}

export interface TaggingCallOptions {
  signal?: AbortSignal | undefined;
}

interface Request {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: unknown;
  operation: string;
}

export class VapiTaggingClient {
  readonly server: string;
  readonly #base: string;
  readonly #options: VapiTaggingClientOptions;
  readonly #fetch: HttpFetch;
  readonly #logger: VsphereClientLogger;
  #sessionId: string | undefined;
  #generation = 0;
  #login: Promise<string> | undefined;

  constructor(options: VapiTaggingClientOptions) {
    const url = new URL(options.server.includes('://') ? options.server : `https://${options.server}`);
    this.server = url.host;
    this.#base = `${url.protocol}//${url.host}/rest`;
    this.#options = options;
    this.#fetch = options.fetch ?? defaultHttpFetch;
    this.#logger = options.logger ?? silentLogger;
  }

  /** Creates a session now (normally the first call does it). Throws `InvalidLogin` on 401. */
  login(options: TaggingCallOptions = {}): Promise<string> {
    this.#login ??= this.#createSession(options.signal).finally(() => {
      this.#login = undefined;
    });
    return this.#login;
  }

  async logout(options: TaggingCallOptions = {}): Promise<void> {
    const sessionId = this.#sessionId;
    if (sessionId === undefined) return;
    this.#sessionId = undefined;
    await this.#send({ method: 'DELETE', path: '/com/vmware/cis/session', operation: 'DELETE session' }, sessionId, options.signal);
  }

  /** Tag IDs attached to an object (`list-attached-tags`). */
  async listAttachedTags(object: ManagedObjectReference, options: TaggingCallOptions = {}): Promise<string[]> {
    const value = await this.#call(
      { method: 'POST', path: '/com/vmware/cis/tagging/tag-association?~action=list-attached-tags', body: { object_id: objectId(object) }, operation: 'list-attached-tags' },
      options,
    );
    return stringArray(value, 'list-attached-tags');
  }

  async getTag(id: string, options: TaggingCallOptions = {}): Promise<Tag> {
    const value = await this.#call({ method: 'GET', path: `/com/vmware/cis/tagging/tag/id:${encodeId(id)}`, operation: 'GET tag' }, options);
    const record = objectValue(value, 'GET tag');
    return { id: stringField(record, 'id') || id, name: stringField(record, 'name'), categoryId: stringField(record, 'category_id'), description: stringField(record, 'description') };
  }

  async getCategory(id: string, options: TaggingCallOptions = {}): Promise<TagCategory> {
    const value = await this.#call({ method: 'GET', path: `/com/vmware/cis/tagging/category/id:${encodeId(id)}`, operation: 'GET category' }, options);
    const record = objectValue(value, 'GET category');
    const types = record['associable_types'];
    return {
      id: stringField(record, 'id') || id,
      name: stringField(record, 'name'),
      description: stringField(record, 'description'),
      cardinality: stringField(record, 'cardinality'),
      associableTypes: Array.isArray(types) ? types.filter((type): type is string => typeof type === 'string') : [],
    };
  }

  async listCategories(options: TaggingCallOptions = {}): Promise<string[]> {
    return stringArray(await this.#call({ method: 'GET', path: '/com/vmware/cis/tagging/category', operation: 'list categories' }, options), 'list categories');
  }

  async listTags(options: TaggingCallOptions = {}): Promise<string[]> {
    return stringArray(await this.#call({ method: 'GET', path: '/com/vmware/cis/tagging/tag', operation: 'list tags' }, options), 'list tags');
  }

  async createCategory(
    spec: { name: string; description?: string; cardinality?: 'SINGLE' | 'MULTIPLE'; associableTypes?: string[] },
    options: TaggingCallOptions = {},
  ): Promise<string> {
    const body = {
      create_spec: { name: spec.name, description: spec.description ?? '', cardinality: spec.cardinality ?? 'SINGLE', associable_types: spec.associableTypes ?? [] },
    };
    const value = await this.#call({ method: 'POST', path: '/com/vmware/cis/tagging/category', body, operation: 'create category' }, options);
    if (typeof value !== 'string') throw invalidResponse('create category', 'no category id');
    return value;
  }

  async createTag(spec: { name: string; categoryId: string; description?: string }, options: TaggingCallOptions = {}): Promise<string> {
    const body = { create_spec: { name: spec.name, description: spec.description ?? '', category_id: spec.categoryId } };
    const value = await this.#call({ method: 'POST', path: '/com/vmware/cis/tagging/tag', body, operation: 'create tag' }, options);
    if (typeof value !== 'string') throw invalidResponse('create tag', 'no tag id');
    return value;
  }

  async attachTag(tagId: string, object: ManagedObjectReference, options: TaggingCallOptions = {}): Promise<void> {
    await this.#call(
      { method: 'POST', path: `/com/vmware/cis/tagging/tag-association/id:${encodeId(tagId)}?~action=attach`, body: { object_id: objectId(object) }, operation: 'attach tag' },
      options,
    );
  }

  async detachTag(tagId: string, object: ManagedObjectReference, options: TaggingCallOptions = {}): Promise<void> {
    await this.#call(
      { method: 'POST', path: `/com/vmware/cis/tagging/tag-association/id:${encodeId(tagId)}?~action=detach`, body: { object_id: objectId(object) }, operation: 'detach tag' },
      options,
    );
  }

  async #call(request: Request, options: TaggingCallOptions): Promise<unknown> {
    const sessionId = this.#sessionId ?? (await this.login(options));
    const generation = this.#generation;
    try {
      return await this.#send(request, sessionId, options.signal);
    } catch (error) {
      if (findVsphereError(error)?.httpStatus !== 401) throw error;
      this.#logger.debug('vAPI session is not valid any more, creating a new one', { server: this.server, operation: request.operation });
      if (this.#generation === generation) this.#sessionId = undefined;
      const renewed = this.#sessionId ?? (await this.login(options));
      return this.#send(request, renewed, options.signal);
    }
  }

  async #createSession(signal: AbortSignal | undefined): Promise<string> {
    const credentials = await this.#options.credentials();
    const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64')}`;
    let value: unknown;
    try {
      value = await this.#send({ method: 'POST', path: '/com/vmware/cis/session', operation: 'POST session' }, undefined, signal, authorization);
    } catch (error) {
      const typed = findVsphereError(error);
      if (typed?.httpStatus === 401 || typed?.httpStatus === 403) {
        throw new VsphereError(`cannot log in to the vAPI endpoint of ${this.server} as ${JSON.stringify(credentials.username)}: the user name or password is wrong (HTTP ${typed.httpStatus})`, {
          kind: 'InvalidLogin',
          operation: 'POST session',
          httpStatus: typed.httpStatus,
          cause: error,
        });
      }
      throw error;
    }
    if (typeof value !== 'string' || value === '') throw invalidResponse('POST session', 'no session id');
    this.#sessionId = value;
    this.#generation += 1;
    return value;
  }

  async #send(request: Request, sessionId: string | undefined, signal: AbortSignal | undefined, authorization?: string): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.#options.userAgent ?? 'ccm-vsphere-client' };
    if (sessionId !== undefined) headers[VAPI_SESSION_HEADER] = sessionId;
    if (authorization !== undefined) headers['authorization'] = authorization;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const { response, body } = await sendRequest({
      fetch: this.#fetch,
      url: `${this.#base}${request.path}`,
      init: {
        method: request.method,
        headers,
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        ...(this.#options.dispatcher ? { dispatcher: this.#options.dispatcher } : {}),
      },
      operation: request.operation,
      timeoutMs: this.#options.requestTimeoutMs ?? 60_000,
      signal,
    });
    if (response.status >= 200 && response.status < 300) {
      if (body.trim() === '') return undefined;
      try {
        return (JSON.parse(body) as { value?: unknown }).value;
      } catch (error) {
        throw new VsphereError(`${request.operation}: HTTP ${response.status} with a body that is not JSON`, { kind: 'InvalidResponse', operation: request.operation, httpStatus: response.status, cause: error });
      }
    }
    throw restError(request.operation, response.status, body);
  }
}

function restError(operation: string, status: number, body: string): VsphereError {
  let type: string | undefined;
  let message: string | undefined;
  try {
    const parsed = JSON.parse(body) as { type?: unknown; value?: { messages?: Array<{ default_message?: unknown }> }; error_type?: unknown; messages?: Array<{ default_message?: unknown }> };
    type = typeof parsed.type === 'string' ? parsed.type : typeof parsed.error_type === 'string' ? parsed.error_type : undefined;
    const messages = parsed.value?.messages ?? parsed.messages;
    const first = messages?.[0]?.default_message;
    if (typeof first === 'string') message = first;
  } catch {
    // not JSON: status only
  }
  const kind: VsphereErrorKind = status === 404 ? 'NotFound' : status === 401 ? 'NotAuthenticated' : status === 403 ? 'NoPermission' : status >= 500 ? 'InvalidResponse' : 'Unknown';
  const detail = [type, message].filter((part): part is string => part !== undefined).join(': ');
  return new VsphereError(`${operation}: HTTP ${status}${detail === '' ? '' : ` (${detail})`}`, { kind, operation, httpStatus: status, ...(type === undefined ? {} : { faultType: type }) });
}

function invalidResponse(operation: string, what: string): VsphereError {
  return new VsphereError(`${operation}: ${what} in the answer`, { kind: 'InvalidResponse', operation });
}

function objectId(object: ManagedObjectReference): { type: string; id: string } {
  return { type: object.type, id: object.value };
}

function encodeId(id: string): string {
  return encodeURIComponent(id).replace(/%3A/gi, ':');
}

function stringArray(value: unknown, operation: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidResponse(operation, 'no list');
  return value.filter((item): item is string => typeof item === 'string');
}

function objectValue(value: unknown, operation: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidResponse(operation, 'no object');
  return value as Record<string, unknown>;
}

function stringField(record: Record<string, unknown>, name: string): string {
  const value = record[name];
  return typeof value === 'string' ? value : '';
}
