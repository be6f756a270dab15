import type { InProcessSandboxAdmin } from './in-process-sandbox-admin.js';
import { SandboxCloudError, isSandboxErrorCode } from './sandbox-cloud-error.js';
import type { SandboxCloudState } from './sandbox-cloud-state.js';
import { isSandboxOperation, type SandboxOperation } from './sandbox-operations.js';
import type { InjectedErrorRule, RateLimit } from './sandbox-request-gate.js';
import type {
  BatchGetInstancesRequest,
  CreateInstanceRequest,
  CreateLoadBalancerRequest,
  CreateRouteRequest,
  UpdateInstanceRequest,
  UpdateLoadBalancerRequest,
} from './sandbox-types.js';
import { tagFilterFromQuery } from './http-helpers.js';

export interface RouteContext {
  params: string[];
  query: URLSearchParams;
  body: Record<string, unknown>;
}

export interface RouteResult {
  status: number;
  body?: unknown;
}

export interface HttpRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Anchored; capture groups become `params` (URL-decoded). */
  path: RegExp;
  /** Set for cloud API routes: they are gated (latency, throttling, faults) and counted. */
  operation?: SandboxOperation;
  handle(context: RouteContext): Promise<RouteResult> | RouteResult;
}

const SEGMENT = '([^/:]+)';
const ok = (body: unknown): RouteResult => ({ status: 200, body });
const created = (body: unknown): RouteResult => ({ status: 201, body });
const noContent: RouteResult = { status: 204 };

function param(context: RouteContext, index: number): string {
  return context.params[index] ?? '';
}

function numberField(body: Record<string, unknown>, field: string): number {
  const value = body[field];
  if (typeof value !== 'number') throw new SandboxCloudError('InvalidArgument', `${field} must be a number`);
  return value;
}

function rateLimitFromBody(body: Record<string, unknown>): RateLimit | undefined {
  const value = body['rateLimit'];
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object') throw new SandboxCloudError('InvalidArgument', 'rateLimit must be an object or null');
  const limit = value as Record<string, unknown>;
  return { qps: numberField(limit, 'qps'), burst: numberField(limit, 'burst') };
}

function ruleFromBody(body: Record<string, unknown>): InjectedErrorRule {
  const rule: InjectedErrorRule = {};
  if (body['operation'] !== undefined) {
    if (!isSandboxOperation(body['operation'])) throw new SandboxCloudError('InvalidArgument', `unknown operation ${JSON.stringify(body['operation'])}`);
    rule.operation = body['operation'];
  }
  if (body['code'] !== undefined) {
    if (!isSandboxErrorCode(body['code'])) throw new SandboxCloudError('InvalidArgument', `unknown error code ${JSON.stringify(body['code'])}`);
    rule.code = body['code'];
  }
  if (body['count'] !== undefined) rule.count = numberField(body, 'count');
  if (typeof body['message'] === 'string') rule.message = body['message'];
  return rule;
}

/** The public cloud API (`/v1/...`): what a cloud provider talks to. */
export function cloudApiRoutes(state: SandboxCloudState): HttpRoute[] {
  return [
    {
      method: 'GET',
      path: /^\/v1\/instances$/,
      operation: 'instances.list',
      handle: ({ query }) => {
        const filter: { name?: string; tags?: Record<string, string> } = {};
        const name = query.get('name');
        if (name !== null) filter.name = name;
        const tags = tagFilterFromQuery(query);
        if (tags !== undefined) filter.tags = tags;
        return ok({ instances: state.listInstances(filter) });
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/instances:batchGet$/,
      operation: 'instances.batchGet',
      handle: ({ body }) => ok(state.batchGetInstances(body as BatchGetInstancesRequest)),
    },
    {
      method: 'GET',
      path: new RegExp(`^/v1/instances/${SEGMENT}$`),
      operation: 'instances.get',
      handle: (context) => ok(state.getInstance(param(context, 0))),
    },
    {
      method: 'GET',
      path: /^\/v1\/load-balancers$/,
      operation: 'loadBalancers.list',
      handle: ({ query }) => {
        const tags = tagFilterFromQuery(query);
        return ok({ loadBalancers: state.listLoadBalancers(tags === undefined ? {} : { tags }) });
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/load-balancers$/,
      operation: 'loadBalancers.create',
      handle: ({ body }) => created(state.createLoadBalancer(body as unknown as CreateLoadBalancerRequest)),
    },
    {
      method: 'GET',
      path: new RegExp(`^/v1/load-balancers/${SEGMENT}$`),
      operation: 'loadBalancers.get',
      handle: (context) => ok(state.getLoadBalancer(param(context, 0))),
    },
    {
      method: 'PATCH',
      path: new RegExp(`^/v1/load-balancers/${SEGMENT}$`),
      operation: 'loadBalancers.update',
      handle: (context) => ok(state.updateLoadBalancer(param(context, 0), context.body as UpdateLoadBalancerRequest)),
    },
    {
      method: 'PUT',
      path: new RegExp(`^/v1/load-balancers/${SEGMENT}/backends$`),
      operation: 'loadBalancers.setBackends',
      handle: (context) => {
        const backendInstanceIds = context.body['backendInstanceIds'];
        if (backendInstanceIds === undefined) throw new SandboxCloudError('InvalidArgument', 'backendInstanceIds is required');
        return ok(state.updateLoadBalancer(param(context, 0), { backendInstanceIds: backendInstanceIds as string[] }));
      },
    },
    {
      method: 'DELETE',
      path: new RegExp(`^/v1/load-balancers/${SEGMENT}$`),
      operation: 'loadBalancers.delete',
      handle: (context) => {
        state.deleteLoadBalancer(param(context, 0));
        return noContent;
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/routes$/,
      operation: 'routes.list',
      handle: ({ query }) => {
        const tags = tagFilterFromQuery(query);
        return ok({ routes: state.listRoutes(tags === undefined ? {} : { tags }) });
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/routes$/,
      operation: 'routes.create',
      handle: ({ body }) => {
        if (body['blackhole'] !== undefined) throw new SandboxCloudError('InvalidArgument', 'blackhole routes can only be created through the admin API');
        return created(state.createRoute(body as unknown as CreateRouteRequest));
      },
    },
    {
      method: 'DELETE',
      path: new RegExp(`^/v1/routes/${SEGMENT}$`),
      operation: 'routes.delete',
      handle: (context) => {
        const requireTags = tagFilterFromQuery(context.query);
        state.deleteRoute(param(context, 0), requireTags === undefined ? {} : { requireTags });
        return noContent;
      },
    },
  ];
}

/** The admin API (`/admin/...`): never gated, never counted. */
export function adminRoutes(admin: InProcessSandboxAdmin): HttpRoute[] {
  return [
    { method: 'GET', path: /^\/admin\/state$/, handle: async () => ok(await admin.snapshot()) },
    { method: 'POST', path: /^\/admin\/reset$/, handle: async () => (await admin.reset(), noContent) },
    { method: 'GET', path: /^\/admin\/instances$/, handle: async () => ok({ instances: await admin.listInstances() }) },
    { method: 'POST', path: /^\/admin\/instances$/, handle: async ({ body }) => created(await admin.createInstance(body as unknown as CreateInstanceRequest)) },
    { method: 'GET', path: new RegExp(`^/admin/instances/${SEGMENT}$`), handle: async (context) => ok(await admin.getInstance(param(context, 0))) },
    {
      method: 'PATCH',
      path: new RegExp(`^/admin/instances/${SEGMENT}$`),
      handle: async (context) => ok(await admin.updateInstance(param(context, 0), context.body as UpdateInstanceRequest)),
    },
    { method: 'POST', path: new RegExp(`^/admin/instances/${SEGMENT}:stop$`), handle: async (context) => ok(await admin.stopInstance(param(context, 0))) },
    { method: 'POST', path: new RegExp(`^/admin/instances/${SEGMENT}:start$`), handle: async (context) => ok(await admin.startInstance(param(context, 0))) },
    {
      method: 'DELETE',
      path: new RegExp(`^/admin/instances/${SEGMENT}$`),
      handle: async (context) => (await admin.deleteInstance(param(context, 0), { purge: context.query.get('purge') === 'true' }), noContent),
    },
    { method: 'GET', path: /^\/admin\/load-balancers$/, handle: async () => ok({ loadBalancers: await admin.listLoadBalancers() }) },
    {
      method: 'POST',
      path: /^\/admin\/load-balancers$/,
      handle: async ({ body }) => created(await admin.createLoadBalancer(body as unknown as CreateLoadBalancerRequest)),
    },
    { method: 'DELETE', path: new RegExp(`^/admin/load-balancers/${SEGMENT}$`), handle: async (context) => (await admin.deleteLoadBalancer(param(context, 0)), noContent) },
    { method: 'GET', path: /^\/admin\/routes$/, handle: async () => ok({ routes: await admin.listRoutes() }) },
    { method: 'POST', path: /^\/admin\/routes$/, handle: async ({ body }) => created(await admin.createRoute(body as unknown as CreateRouteRequest)) },
    { method: 'DELETE', path: new RegExp(`^/admin/routes/${SEGMENT}$`), handle: async (context) => (await admin.deleteRoute(param(context, 0)), noContent) },
    { method: 'GET', path: /^\/admin\/calls$/, handle: async () => ok(await admin.calls()) },
    { method: 'POST', path: /^\/admin\/calls:reset$/, handle: async () => (await admin.resetCalls(), noContent) },
    { method: 'GET', path: /^\/admin\/settings$/, handle: async () => ok(await admin.settings()) },
    { method: 'PUT', path: /^\/admin\/latency$/, handle: async ({ body }) => (await admin.setLatency(numberField(body, 'latencyMs')), noContent) },
    { method: 'PUT', path: /^\/admin\/rate-limit$/, handle: async ({ body }) => (await admin.setRateLimit(rateLimitFromBody(body)), noContent) },
    {
      method: 'PUT',
      path: /^\/admin\/error-rate$/,
      handle: async ({ body }) => (await admin.setErrorRate(numberField(body, 'errorRate'), body['seed'] === undefined ? undefined : numberField(body, 'seed')), noContent),
    },
    { method: 'POST', path: /^\/admin\/errors$/, handle: async ({ body }) => (await admin.injectErrors(ruleFromBody(body)), noContent) },
    { method: 'DELETE', path: /^\/admin\/errors$/, handle: async () => (await admin.clearInjectedErrors(), noContent) },
  ];
}
