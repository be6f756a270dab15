/** The top of the HTTP stack: control routes, counting, injected faults, then routing. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { statusErrors } from '../api/status-error.js';
import type { FaultInjector, InjectedFailure } from '../faults/fault-injector.js';
import type { RequestCounter } from '../metrics/request-counter.js';
import type { ResourceDefinition } from '../resources/resource-definition.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, openApiGroupVersion, openApiRoot, versionInfo } from './discovery.js';
import { emulatorPathPrefix, handleEmulatorRoute } from './emulator-routes.js';
import { handleResource, requestVerb, type ResourceHandlerContext } from './resource-handler.js';
import { writeError, writeJson, writeText } from './response.js';
import { parseRoute, type Route } from './route-parser.js';

export interface RequestHandlerContext extends ResourceHandlerContext {
  table: readonly ResourceDefinition[];
  faults: FaultInjector;
  counter: RequestCounter;
  /** `host:port` as clients reach the server (for /api's serverAddressByClientCIDRs). */
  serverAddress(): string;
}

const healthPaths = /^\/(healthz|livez|readyz)(\/.*)?$/;

function injectedError(failure: InjectedFailure): Error {
  switch (failure.status) {
    case 429:
      return statusErrors.tooManyRequests(failure.retryAfterSeconds, failure.message);
    case 503: {
      const error = statusErrors.serviceUnavailable(failure.message);
      error.status.details = { retryAfterSeconds: failure.retryAfterSeconds };
      return error;
    }
    case 500:
      return statusErrors.internal(failure.message);
  }
}

function countRequest(context: RequestHandlerContext, method: string, route: Route, query: URLSearchParams): void {
  if (route.kind !== 'resource') {
    context.counter.recordNonResource();
    return;
  }
  const definition = route.definition;
  const resource = `${definition.plural}${route.subresource ? `/${route.subresource}` : ''}${definition.group ? `.${definition.group}` : ''}`;
  context.counter.recordResource(requestVerb(method, route, query), resource);
}

async function handle(context: RequestHandlerContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const rawUrl = request.url ?? '/';
  const questionMark = rawUrl.indexOf('?');
  const pathname = questionMark < 0 ? rawUrl : rawUrl.slice(0, questionMark);
  const query = new URLSearchParams(questionMark < 0 ? '' : rawUrl.slice(questionMark + 1));
  const method = request.method ?? 'GET';
  if (pathname.startsWith(emulatorPathPrefix)) {
    await handleEmulatorRoute(pathname, request, response, context.faults, context.counter);
    return;
  }
  const route = parseRoute(pathname, context.table);
  countRequest(context, method, route, query);
  const latency = context.faults.latencyFor(method, rawUrl);
  if (latency > 0) await sleep(latency);
  const failure = context.faults.takeFailure(method, rawUrl);
  if (failure) throw injectedError(failure);

  switch (route.kind) {
    case 'resource':
      await handleResource(context, route, request, response, query);
      return;
    case 'api-versions':
      writeJson(response, 200, apiVersions(context.serverAddress()));
      return;
    case 'api-groups':
      writeJson(response, 200, apiGroupList(context.table));
      return;
    case 'api-group': {
      const document = apiGroup(context.table, route.group);
      if (!document) throw statusErrors.routeNotFound();
      writeJson(response, 200, document);
      return;
    }
    case 'resource-list':
      writeJson(response, 200, apiResourceList(context.table, route.group, route.version));
      return;
    case 'not-found':
      break;
  }
  if (healthPaths.test(pathname)) {
    writeText(response, 200, 'ok');
    return;
  }
  if (pathname === '/version' || pathname === '/version/') {
    writeJson(response, 200, versionInfo());
    return;
  }
  if (pathname === '/openapi/v3' || pathname === '/openapi/v3/') {
    writeJson(response, 200, openApiRoot(context.table));
    return;
  }
  if (pathname.startsWith('/openapi/v3/')) {
    const document = openApiGroupVersion(context.table, pathname.slice('/openapi/v3/'.length));
    if (document) {
      writeJson(response, 200, document);
      return;
    }
  }
  throw statusErrors.routeNotFound();
}

export function createRequestHandler(context: RequestHandlerContext): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    handle(context, request, response).catch((error: unknown) => writeError(response, error));
  };
}
