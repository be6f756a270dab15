/** Serves requests addressed to a resource: list/watch/create/deletecollection, get/update/patch/delete, /status. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { statusErrors, successStatus } from '../api/status-error.js';
import type { ExpiredWatchResponse } from '../faults/fault-injector.js';
import type { StoredObject } from '../resources/resource-definition.js';
import { deleteCollection, deleteObject } from '../store/delete-operations.js';
import { listObjects } from '../store/list-objects.js';
import type { ObjectStore } from '../store/object-store.js';
import { patchContentTypes, patchObject } from '../store/patch-operation.js';
import { parseSelectors } from '../store/selector-parsing.js';
import { createObject, updateObject } from '../store/write-operations.js';
import { negotiateOutput, type OutputFormat } from './media-type.js';
import { parseDeleteOptions, parseListQuery, parseWriteQuery, type ListQuery } from './query-options.js';
import { renderList, renderObject, type RenderOptions } from './representation.js';
import { mediaType, parseJsonBody, parseObjectBody, readBody, readBodyBytes } from './request-body.js';
import { writeBody, writeJson } from './response.js';
import type { ResourceRoute } from './route-parser.js';
import { serveWatch, type WatchRegistry } from './watch-stream.js';

export interface ResourceHandlerContext {
  store: ObjectStore;
  bookmarkIntervalMs: number;
  expiredWatchResponse(): ExpiredWatchResponse;
  watches: WatchRegistry;
}

/** The verb kube would log for this request (also used for request counting). */
export function requestVerb(method: string, route: ResourceRoute, query: URLSearchParams): string {
  const watching = route.watchPath || query.get('watch') === 'true' || query.get('watch') === '1';
  switch (method) {
    case 'GET':
      if (watching) return 'watch';
      return route.name === undefined ? 'list' : 'get';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return route.name === undefined ? 'deletecollection' : 'delete';
    default:
      return method.toLowerCase();
  }
}

function contentFormat(request: IncomingMessage, allowYaml: boolean): OutputFormat {
  const format = negotiateOutput(request.headers.accept, allowYaml);
  if (!format) throw statusErrors.notAcceptable();
  return format;
}

export async function handleResource(context: ResourceHandlerContext, route: ResourceRoute, request: IncomingMessage, response: ServerResponse, query: URLSearchParams): Promise<void> {
  const { store } = context;
  const definition = route.definition;
  const method = request.method ?? 'GET';
  const verb = requestVerb(method, route, query);
  if (!definition.verbs.includes(verb as never) && !(route.subresource === 'status' && ['get', 'update', 'patch'].includes(verb))) throw statusErrors.methodNotAllowed();
  if (route.subresource === 'status' && !['get', 'update', 'patch'].includes(verb)) throw statusErrors.methodNotAllowed();
  if (route.name === undefined && route.namespace === undefined && definition.namespaced && !['list', 'watch'].includes(verb)) throw statusErrors.methodNotAllowed();
  if (route.watchPath && method !== 'GET') throw statusErrors.methodNotAllowed();
  const onObject = route.name !== undefined;
  if ((verb === 'create' && onObject) || ((verb === 'update' || verb === 'patch') && !onObject)) throw statusErrors.methodNotAllowed();
  const listQuery = parseListQuery(query);
  const render = (format: OutputFormat): RenderOptions => ({ format, includeObject: listQuery.includeObject, now: store.now() });
  const name = route.name ?? '';
  const namespace = route.namespace;

  switch (verb) {
    case 'list': {
      const format = contentFormat(request, true);
      const selectors = parseSelectors(definition, listQuery.labelSelector, listQuery.fieldSelector);
      const result = listObjects(store, definition, { namespace, ...selectors, ...pagination(listQuery) });
      respond(response, 200, renderList(definition, result.items, result.metadata, render(format)), format);
      return;
    }
    case 'watch': {
      const format = negotiateOutput(request.headers.accept, false);
      if (!format) throw statusErrors.notAcceptable();
      const fieldSelector = route.name !== undefined ? joinSelector(listQuery.fieldSelector, `metadata.name=${route.name}`) : listQuery.fieldSelector;
      const selectors = parseSelectors(definition, listQuery.labelSelector, fieldSelector);
      serveWatch({
        response,
        store,
        target: { definition, namespace, ...selectors },
        query: listQuery,
        format,
        bookmarkIntervalMs: context.bookmarkIntervalMs,
        expiredResponse: context.expiredWatchResponse(),
        registry: context.watches,
      });
      return;
    }
    case 'get': {
      const format = contentFormat(request, true);
      const object = store.get(definition, namespace, name);
      if (!object) throw statusErrors.notFound({ group: definition.group, resource: definition.plural }, name);
      respond(response, 200, renderObject(definition, object, render(format)), format);
      return;
    }
    case 'create': {
      const format = contentFormat(request, true);
      const { dryRun } = parseWriteQuery(query, 'CreateOptions');
      const body = parseObjectBody(request, await readBodyBytes(request));
      const created = createObject(store, definition, namespace, body, { dryRun });
      respond(response, 201, renderObject(definition, created, render(format)), format);
      return;
    }
    case 'update': {
      const format = contentFormat(request, true);
      const { dryRun } = parseWriteQuery(query, 'UpdateOptions');
      const body = parseObjectBody(request, await readBodyBytes(request));
      const existed = store.get(definition, namespace, name) !== undefined;
      const options = route.subresource === 'status' ? { dryRun, subresource: 'status' as const } : { dryRun };
      const updated = updateObject(store, definition, namespace, name, body, options);
      respond(response, existed ? 200 : 201, renderObject(definition, updated, render(format)), format);
      return;
    }
    case 'patch': {
      const format = contentFormat(request, true);
      const type = mediaType(request);
      const patchType = patchContentTypes[type];
      if (!patchType) {
        if (type === 'application/apply-patch+yaml' || type === 'application/apply-patch+cbor') {
          throw statusErrors.unsupportedMediaType('server-side apply (application/apply-patch+yaml) is not implemented by kube-emulator; use a JSON, merge or strategic merge patch');
        }
        throw statusErrors.unsupportedMediaType(
          'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json',
        );
      }
      const { dryRun } = parseWriteQuery(query, 'PatchOptions');
      const patch = parseJsonBody(await readBody(request));
      const options = route.subresource === 'status' ? { dryRun, subresource: 'status' as const } : { dryRun };
      const patched = patchObject(store, definition, namespace, name, patchType, patch, options);
      respond(response, 200, renderObject(definition, patched, render(format)), format);
      return;
    }
    case 'delete': {
      const text = await readBody(request);
      const options = parseDeleteOptions(query, text.trim() === '' ? undefined : parseJsonBody(text));
      const result = deleteObject(store, definition, namespace, name, options);
      if (!result.deleted || definition.returnsDeletedObject === true) {
        const format = contentFormat(request, true);
        respond(response, 200, renderObject(definition, result.object, render(format)), format);
        return;
      }
      const details: Parameters<typeof successStatus>[0] = { name };
      if (definition.group) details.group = definition.group;
      details.kind = definition.plural;
      if (result.object.metadata.uid) details.uid = result.object.metadata.uid;
      writeJson(response, 200, successStatus(details));
      return;
    }
    case 'deletecollection': {
      const format = contentFormat(request, true);
      const text = await readBody(request);
      const options = parseDeleteOptions(query, text.trim() === '' ? undefined : parseJsonBody(text));
      const selectors = parseSelectors(definition, listQuery.labelSelector, listQuery.fieldSelector);
      const targets = listObjects(store, definition, { namespace, ...selectors }).items;
      const deleted: StoredObject[] = deleteCollection(store, definition, targets, options);
      respond(response, 200, renderList(definition, deleted, { resourceVersion: String(store.resourceVersion) }, render(format)), format);
      return;
    }
    default:
      throw statusErrors.methodNotAllowed();
  }
}

function pagination(query: ListQuery): { limit?: number; continueToken?: string; resourceVersion?: string; resourceVersionMatch?: string } {
  const result: { limit?: number; continueToken?: string; resourceVersion?: string; resourceVersionMatch?: string } = {};
  if (query.limit !== undefined) result.limit = query.limit;
  if (query.continueToken) result.continueToken = query.continueToken;
  if (query.resourceVersion !== undefined) result.resourceVersion = query.resourceVersion;
  if (query.resourceVersionMatch) result.resourceVersionMatch = query.resourceVersionMatch;
  return result;
}

function joinSelector(existing: string | undefined, term: string): string {
  return existing && existing.trim() !== '' ? `${existing},${term}` : term;
}

function respond(response: ServerResponse, statusCode: number, body: string, format: OutputFormat): void {
  writeBody(response, statusCode, body, format.kind === 'yaml' ? 'application/yaml' : 'application/json');
}
