import { errorMessage } from '@ccm/core/util';
import { deadlineSignal } from '@ccm/deadline-signal';
import { SandboxApiError, type SandboxApiErrorKind } from '../sandbox-api-error.js';
import type {
  CallOptions,
  CloudInstance,
  CloudLoadBalancer,
  CloudLoadBalancerChanges,
  CloudLoadBalancerSpec,
  CloudRoute,
  CloudRouteSpec,
  SandboxCloudPort,
  SandboxCloudPortOperation,
} from '../sandbox-cloud-port.js';

export interface HttpSandboxCloudPortOptions {
  /** The cloud's base URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** Per-request timeout. Default 10 s. */
  requestTimeoutMs?: number;
  /** Injected for tests; default the global fetch. */
  fetch?: typeof fetch;
  userAgent?: string;
}

/** What the cloud answers (HTTP bodies, or @ccm/testing's records in process): at least the port's fields, often more. */
type WireInstance = CloudInstance;
type WireLoadBalancer = CloudLoadBalancer;
type WireRoute = CloudRoute;

/** The cloud's instance (HTTP body or in-process record) -> the port's view. */
export function toCloudInstance(wire: WireInstance): CloudInstance {
  return {
    id: wire.id,
    name: wire.name,
    state: wire.state,
    instanceType: wire.instanceType,
    zone: wire.zone,
    region: wire.region,
    addresses: (wire.addresses ?? []).map(({ type, address }) => ({ type, address })),
  };
}

/** The cloud's load balancer -> the port's view. */
export function toCloudLoadBalancer(wire: WireLoadBalancer): CloudLoadBalancer {
  const loadBalancer: CloudLoadBalancer = {
    name: wire.name,
    listeners: (wire.listeners ?? []).map((listener) => ({ ...listener })),
    backendInstanceIds: [...(wire.backendInstanceIds ?? [])],
    ingress: { ip: wire.ingress?.ip ?? '', hostname: wire.ingress?.hostname ?? '' },
    sourceRanges: [...(wire.sourceRanges ?? [])],
    tags: { ...wire.tags },
  };
  if (typeof wire.healthCheckNodePort === 'number') loadBalancer.healthCheckNodePort = wire.healthCheckNodePort;
  return loadBalancer;
}

/** The cloud's route -> the port's view. */
export function toCloudRoute(wire: WireRoute): CloudRoute {
  return {
    id: wire.id,
    destinationCidr: wire.destinationCidr,
    targetInstanceId: wire.targetInstanceId,
    targetInstanceName: wire.targetInstanceName ?? '',
    blackhole: wire.blackhole === true,
    tags: { ...wire.tags },
  };
}

/** `?tag=key=value&...`, or '' without tags. */
function tagQuery(tags: Record<string, string>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(tags)) query.append('tag', `${key}=${value}`);
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/** The kind of a failed call from the cloud's HTTP status and error code. */
export function sandboxApiErrorKind(status: number, code: string | undefined): SandboxApiErrorKind {
  if (status === 404) return 'NotFound';
  if (status === 429) return 'Throttled';
  if (status >= 500) return 'ServerError';
  if (status === 400) return 'InvalidArgument';
  if (status === 409) return code === 'AlreadyExists' ? 'AlreadyExists' : 'InvalidState';
  return 'Unexpected';
}

/** Retry-After in seconds (or an HTTP date) -> milliseconds. */
function parseRetryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The `SandboxCloudPort` port over the sandbox cloud's HTTP API (`/v1`). */
export class HttpSandboxCloudPort implements SandboxCloudPort {
  readonly #baseUrl: string;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;
  readonly #userAgent: string;

  constructor(options: HttpSandboxCloudPortOptions) {
    this.#baseUrl = options.url.replace(/\/+$/, '');
    this.#timeoutMs = options.requestTimeoutMs ?? 10_000;
    this.#fetch = options.fetch ?? fetch;
    this.#userAgent = options.userAgent ?? 'sandbox-cloud-controller-manager';
  }

  async getInstance(id: string, options?: CallOptions): Promise<CloudInstance | undefined> {
    const wire = await this.#optional<WireInstance>('getInstance', 'GET', `/v1/instances/${encodeURIComponent(id)}`, undefined, options);
    return wire === undefined ? undefined : toCloudInstance(wire);
  }

  async findInstancesByName(name: string, options?: CallOptions): Promise<CloudInstance[]> {
    const result = await this.#request<{ instances: WireInstance[] }>('findInstancesByName', 'GET', `/v1/instances?name=${encodeURIComponent(name)}`, undefined, options);
    return result.instances.map(toCloudInstance);
  }

  async batchGetInstances(lookup: { ids: string[]; names: string[] }, options?: CallOptions): Promise<CloudInstance[]> {
    const result = await this.#request<{ instances: WireInstance[] }>('batchGetInstances', 'POST', '/v1/instances:batchGet', lookup, options);
    return result.instances.map(toCloudInstance);
  }

  async getLoadBalancer(name: string, options?: CallOptions): Promise<CloudLoadBalancer | undefined> {
    const wire = await this.#optional<WireLoadBalancer>('getLoadBalancer', 'GET', `/v1/load-balancers/${encodeURIComponent(name)}`, undefined, options);
    return wire === undefined ? undefined : toCloudLoadBalancer(wire);
  }

  async createLoadBalancer(spec: CloudLoadBalancerSpec, options?: CallOptions): Promise<CloudLoadBalancer> {
    return toCloudLoadBalancer(await this.#request<WireLoadBalancer>('createLoadBalancer', 'POST', '/v1/load-balancers', spec, options));
  }

  async updateLoadBalancer(name: string, changes: CloudLoadBalancerChanges, options?: CallOptions): Promise<CloudLoadBalancer> {
    return toCloudLoadBalancer(await this.#request<WireLoadBalancer>('updateLoadBalancer', 'PATCH', `/v1/load-balancers/${encodeURIComponent(name)}`, changes, options));
  }

  async setLoadBalancerBackends(name: string, instanceIds: string[], options?: CallOptions): Promise<CloudLoadBalancer> {
    const path = `/v1/load-balancers/${encodeURIComponent(name)}/backends`;
    return toCloudLoadBalancer(await this.#request<WireLoadBalancer>('setLoadBalancerBackends', 'PUT', path, { backendInstanceIds: instanceIds }, options));
  }

  async deleteLoadBalancer(name: string, options?: CallOptions): Promise<void> {
    await this.#request('deleteLoadBalancer', 'DELETE', `/v1/load-balancers/${encodeURIComponent(name)}`, undefined, options);
  }

  async listRoutes(tags: Record<string, string>, options?: CallOptions): Promise<CloudRoute[]> {
    const result = await this.#request<{ routes: WireRoute[] }>('listRoutes', 'GET', `/v1/routes${tagQuery(tags)}`, undefined, options);
    return result.routes.map(toCloudRoute);
  }

  async createRoute(spec: CloudRouteSpec, options?: CallOptions): Promise<CloudRoute> {
    return toCloudRoute(await this.#request<WireRoute>('createRoute', 'POST', '/v1/routes', spec, options));
  }

  async deleteRoute(id: string, requireTags: Record<string, string>, options?: CallOptions): Promise<void> {
    await this.#request('deleteRoute', 'DELETE', `/v1/routes/${encodeURIComponent(id)}${tagQuery(requireTags)}`, undefined, options);
  }

  async #optional<T>(operation: SandboxCloudPortOperation, method: string, path: string, body: unknown, options: CallOptions | undefined): Promise<T | undefined> {
    try {
      return await this.#request<T>(operation, method, path, body, options);
    } catch (error) {
      if (error instanceof SandboxApiError && error.kind === 'NotFound') return undefined;
      throw error;
    }
  }

  async #request<T>(operation: SandboxCloudPortOperation, method: string, path: string, body: unknown, options: CallOptions | undefined): Promise<T> {
    const deadline = deadlineSignal(options?.signal, this.#timeoutMs);
    const signal = deadline.signal;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.#userAgent };
    const init: RequestInit = { method, headers, signal };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(`${this.#baseUrl}${path}`, init);
      text = await response.text();
    } catch (error) {
      if (options?.signal?.aborted === true) throw options.signal.reason;
      const networkCode = deadline.timedOut() ? 'Timeout' : networkErrorCode(error);
      const reason = deadline.timedOut() ? `no answer within ${this.#timeoutMs} ms` : `cannot reach ${this.#baseUrl}: ${networkCode}`;
      throw new SandboxApiError('Unavailable', operation, reason, { code: networkCode, cause: error });
    } finally {
      deadline.dispose();
    }
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch (error) {
      throw new SandboxApiError('Unexpected', operation, `HTTP ${response.status} with a body that is not JSON`, { status: response.status, cause: error });
    }
    if (!response.ok) {
      const wireError = (parsed as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
      const code = typeof wireError?.code === 'string' ? wireError.code : undefined;
      const message = typeof wireError?.message === 'string' ? wireError.message : `HTTP ${response.status}`;
      const details: { status: number; code?: string; retryAfterMs?: number } = { status: response.status };
      if (code !== undefined) details.code = code;
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      if (retryAfterMs !== undefined) details.retryAfterMs = retryAfterMs;
      throw new SandboxApiError(sandboxApiErrorKind(response.status, code), operation, message, details);
    }
    return parsed as T;
  }
}

/** `ECONNREFUSED` and the like from fetch's cause, else the error message. */
function networkErrorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return errorMessage(error);
}
