/**
 * The routes of the secure port: `/healthz`, `/livez`, `/readyz` (plus the readiness-only checks)
 * and each check at `/healthz/<name>` (and under `/livez/`, `/readyz/`), `/metrics`
 * (Prometheus text of the shared registry), `/metrics/slis` (the health check SLIs, upstream
 * `slis.SLIMetricsWithReset`), `/configz` (the effective configuration); with `--profiling`,
 * `/debug/flags/v` (`debug-flags-handler.ts`) and `/debug/pprof/` (`profiler.ts`). Anything
 * else is 404. Delegated authentication and authorization run before these routes
 * (`delegated-auth/protect-handler.ts`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import type { Logger } from '../../logging/logger.js';
import { HealthCheckSlis } from './health-check-slis.js';
import { handleDebugFlags, type VerbosityControl } from './debug-flags-handler.js';
import { evaluateHealth, evaluateSingleCheck, type HealthChecks } from './health-checks.js';
import type { Profiler } from './profiler.js';
import { sendResponse as send } from './send-response.js';

export interface ServingHandlerOptions {
  healthChecks: HealthChecks;
  metrics: Registry;
  /** The `/configz` document. */
  configz: () => unknown;
  logger: Logger;
  /** `/debug/flags/v`; served with `--profiling` (as upstream), absent otherwise. */
  verbosity?: VerbosityControl;
  /** `/debug/pprof/`; served with `--profiling`, absent otherwise. */
  profiler?: Profiler;
}

const HEALTH_ENDPOINTS = new Set(['healthz', 'livez', 'readyz']);

export function createServingHandler(options: ServingHandlerOptions): (request: IncomingMessage, response: ServerResponse) => void {
  const slis = new HealthCheckSlis();
  return (request, response) => {
    handle(options, slis, request, response).catch((error: unknown) => {
      options.logger.error('HTTP handler failed', { path: request.url, err: error });
      if (!response.headersSent) send(response, 500, 'text/plain; charset=utf-8', 'internal error\n');
      else response.destroy();
    });
  };
}

async function handle(options: ServingHandlerOptions, slis: HealthCheckSlis, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'https://localhost');
  const endpoint = url.pathname.replace(/^\//, '');
  if (options.verbosity !== undefined && (await handleDebugFlags(url.pathname, request, response, options.verbosity))) return;
  if (options.profiler !== undefined && (await options.profiler.handle(url.pathname, url, request, response))) return;
  if (await handleSingleCheck(options, slis, endpoint, request, response)) return;
  const known = HEALTH_ENDPOINTS.has(endpoint) || endpoint === 'metrics' || endpoint === 'metrics/slis' || endpoint === 'configz';
  if (!known) {
    send(response, 404, 'text/plain; charset=utf-8', '404 page not found\n');
    return;
  }
  if (endpoint === 'metrics/slis' && request.method === 'DELETE') {
    slis.reset();
    send(response, 200, 'text/plain; charset=utf-8', 'metrics reset\n');
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    send(response, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
    return;
  }
  if (HEALTH_ENDPOINTS.has(endpoint)) {
    const result = await evaluateHealth(
      options.healthChecks.list(endpoint),
      { endpoint, verbose: url.searchParams.has('verbose'), exclude: url.searchParams.getAll('exclude') },
      options.logger,
      (checkName, status) => slis.observe(checkName, endpoint, status),
    );
    send(response, result.status, 'text/plain; charset=utf-8', result.body);
    return;
  }
  if (endpoint === 'metrics/slis') {
    send(response, 200, slis.registry.contentType, await slis.registry.metrics());
    return;
  }
  if (endpoint === 'metrics') {
    send(response, 200, options.metrics.contentType, await options.metrics.metrics());
    return;
  }
  send(response, 200, 'application/json', `${JSON.stringify(options.configz(), null, 2)}\n`);
}

/** `/<healthz|livez|readyz>/<name>`: that one check; false when the path is not of this form. */
async function handleSingleCheck(options: ServingHandlerOptions, slis: HealthCheckSlis, path: string, request: IncomingMessage, response: ServerResponse): Promise<boolean> {
  const slash = path.indexOf('/');
  if (slash === -1) return false;
  const endpoint = path.slice(0, slash);
  const name = path.slice(slash + 1);
  if (!HEALTH_ENDPOINTS.has(endpoint) || name === '') return false;
  const check = options.healthChecks.list(endpoint).find((candidate) => candidate.name === name);
  if (check === undefined) {
    send(response, 404, 'text/plain; charset=utf-8', '404 page not found\n');
    return true;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    send(response, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
    return true;
  }
  const result = await evaluateSingleCheck(check, options.logger, (status) => slis.observe(check.name, endpoint, status));
  send(response, result.status, 'text/plain; charset=utf-8', result.body);
  return true;
}
