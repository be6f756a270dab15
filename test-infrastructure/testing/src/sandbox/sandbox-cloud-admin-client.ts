import type { SandboxCloudAdmin, SandboxCloudSettings } from './sandbox-cloud-admin.js';
import { isSandboxErrorCode, SandboxCloudError } from './sandbox-cloud-error.js';
import type { InjectedErrorRule, RateLimit, SandboxCallCounts } from './sandbox-request-gate.js';
import type {
  CreateInstanceRequest,
  CreateLoadBalancerRequest,
  CreateRouteRequest,
  SandboxCloudSnapshot,
  SandboxInstance,
  SandboxLoadBalancer,
  SandboxRoute,
  UpdateInstanceRequest,
} from './sandbox-types.js';

/**
 * The sandbox cloud's admin API over HTTP, for drivers and tests in another process than the
 * cloud. Failures throw `SandboxCloudError` with the cloud's error code.
 */
export class SandboxCloudAdminClient implements SandboxCloudAdmin {
  readonly url: string;

  /** `url` is the cloud's base URL, e.g. `http://127.0.0.1:8080`. */
  constructor(url: string) {
    this.url = url.replace(/\/+$/, '');
  }

  createInstance(request: CreateInstanceRequest): Promise<SandboxInstance> {
    return this.#call('POST', '/admin/instances', request);
  }
  getInstance(id: string): Promise<SandboxInstance> {
    return this.#call('GET', `/admin/instances/${encodeURIComponent(id)}`);
  }
  async listInstances(): Promise<SandboxInstance[]> {
    return (await this.#call<{ instances: SandboxInstance[] }>('GET', '/admin/instances')).instances;
  }
  updateInstance(id: string, update: UpdateInstanceRequest): Promise<SandboxInstance> {
    return this.#call('PATCH', `/admin/instances/${encodeURIComponent(id)}`, update);
  }
  stopInstance(id: string): Promise<SandboxInstance> {
    return this.#call('POST', `/admin/instances/${encodeURIComponent(id)}:stop`);
  }
  startInstance(id: string): Promise<SandboxInstance> {
    return this.#call('POST', `/admin/instances/${encodeURIComponent(id)}:start`);
  }
  deleteInstance(id: string, options: { purge?: boolean } = {}): Promise<void> {
    return this.#call('DELETE', `/admin/instances/${encodeURIComponent(id)}${options.purge === true ? '?purge=true' : ''}`);
  }
  async listLoadBalancers(): Promise<SandboxLoadBalancer[]> {
    return (await this.#call<{ loadBalancers: SandboxLoadBalancer[] }>('GET', '/admin/load-balancers')).loadBalancers;
  }
  createLoadBalancer(request: CreateLoadBalancerRequest): Promise<SandboxLoadBalancer> {
    return this.#call('POST', '/admin/load-balancers', request);
  }
  deleteLoadBalancer(name: string): Promise<void> {
    return this.#call('DELETE', `/admin/load-balancers/${encodeURIComponent(name)}`);
  }
  async listRoutes(): Promise<SandboxRoute[]> {
    return (await this.#call<{ routes: SandboxRoute[] }>('GET', '/admin/routes')).routes;
  }
  createRoute(request: CreateRouteRequest): Promise<SandboxRoute> {
    return this.#call('POST', '/admin/routes', request);
  }
  deleteRoute(id: string): Promise<void> {
    return this.#call('DELETE', `/admin/routes/${encodeURIComponent(id)}`);
  }
  snapshot(): Promise<SandboxCloudSnapshot> {
    return this.#call('GET', '/admin/state');
  }
  calls(): Promise<SandboxCallCounts> {
    return this.#call('GET', '/admin/calls');
  }
  resetCalls(): Promise<void> {
    return this.#call('POST', '/admin/calls:reset');
  }
  async settings(): Promise<SandboxCloudSettings> {
    const settings = await this.#call<{ latencyMs: number; rateLimit?: RateLimit | null; errorRate: number }>('GET', '/admin/settings');
    return { latencyMs: settings.latencyMs, rateLimit: settings.rateLimit ?? undefined, errorRate: settings.errorRate };
  }
  setLatency(latencyMs: number): Promise<void> {
    return this.#call('PUT', '/admin/latency', { latencyMs });
  }
  setRateLimit(rateLimit: RateLimit | undefined): Promise<void> {
    return this.#call('PUT', '/admin/rate-limit', { rateLimit: rateLimit ?? null });
  }
  setErrorRate(errorRate: number, seed?: number): Promise<void> {
    return this.#call('PUT', '/admin/error-rate', seed === undefined ? { errorRate } : { errorRate, seed });
  }
  injectErrors(rule: InjectedErrorRule): Promise<void> {
    return this.#call('POST', '/admin/errors', rule);
  }
  clearInjectedErrors(): Promise<void> {
    return this.#call('DELETE', '/admin/errors');
  }
  reset(): Promise<void> {
    return this.#call('POST', '/admin/reset');
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const init: RequestInit = { method, headers: { accept: 'application/json' } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { accept: 'application/json', 'content-type': 'application/json' };
    }
    const response = await fetch(`${this.url}${path}`, init);
    const text = await response.text();
    const parsed: unknown = text === '' ? undefined : JSON.parse(text);
    if (!response.ok) {
      const error = (parsed as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
      const code = isSandboxErrorCode(error?.code) ? error.code : 'InternalError';
      throw new SandboxCloudError(code, typeof error?.message === 'string' ? error.message : `HTTP ${response.status} from ${method} ${path}`);
    }
    return parsed as T;
  }
}
