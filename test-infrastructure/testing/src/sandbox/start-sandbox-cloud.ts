import { errorMessage } from '@ccm/core/util';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { InProcessSandboxAdmin } from './in-process-sandbox-admin.js';
import type { SandboxCloudAdmin } from './sandbox-cloud-admin.js';
import { readJsonBody, sendError, sendJson } from './http-helpers.js';
import { SandboxCloudError } from './sandbox-cloud-error.js';
import { SandboxCloudState, type SandboxCloudStateOptions } from './sandbox-cloud-state.js';
import { adminRoutes, cloudApiRoutes, type HttpRoute } from './sandbox-http-routes.js';
import { SandboxRequestGate, type RateLimit } from './sandbox-request-gate.js';

export interface StartSandboxCloudOptions {
  /** Default 0 (a free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Delay added to every cloud API call. */
  latencyMs?: number;
  /** Token bucket over all cloud API calls; over the limit the answer is 429 with Retry-After. */
  rateLimit?: RateLimit;
  /** Probability in [0, 1] that a cloud API call fails with 500 (seeded, reproducible). */
  errorRate?: number;
  seed?: number;
  /** Region, zones and address pools; or an existing state to serve. */
  state?: SandboxCloudStateOptions | SandboxCloudState;
}

/** A running sandbox cloud: its URL, the admin API in process, and the raw state and gate. */
export interface SandboxCloud extends SandboxCloudAdmin {
  /** `http://host:port` without a trailing slash. */
  readonly url: string;
  readonly state: SandboxCloudState;
  readonly gate: SandboxRequestGate;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

function toSandboxError(error: unknown): SandboxCloudError {
  if (error instanceof SandboxCloudError) return error;
  if (error instanceof RangeError) return new SandboxCloudError('InvalidArgument', error.message);
  return new SandboxCloudError('InternalError', errorMessage(error));
}

function retryAfterHeader(retryAfterMs: number): Record<string, string> {
  return { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) };
}

/**
 * Starts the sandbox cloud's HTTP server: the cloud API under `/v1` (gated and counted) and the
 * admin API under `/admin`. See the package README for every endpoint.
 */
export async function startSandboxCloud(options: StartSandboxCloudOptions = {}): Promise<SandboxCloud> {
  const state = options.state instanceof SandboxCloudState ? options.state : new SandboxCloudState(options.state);
  const gateOptions: ConstructorParameters<typeof SandboxRequestGate>[0] = {};
  if (options.latencyMs !== undefined) gateOptions.latencyMs = options.latencyMs;
  if (options.rateLimit !== undefined) gateOptions.rateLimit = options.rateLimit;
  if (options.errorRate !== undefined) gateOptions.errorRate = options.errorRate;
  if (options.seed !== undefined) gateOptions.seed = options.seed;
  const gate = new SandboxRequestGate(gateOptions);
  const admin = new InProcessSandboxAdmin(state, gate);
  const routes: HttpRoute[] = [...cloudApiRoutes(state), ...adminRoutes(admin)];

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://sandbox');
    let pathMatched = false;
    for (const route of routes) {
      const match = route.path.exec(url.pathname);
      if (match === null) continue;
      pathMatched = true;
      if (route.method !== request.method) continue;
      const params = match.slice(1).map((value) => decodeURIComponent(value));
      let body: Record<string, unknown> = {};
      let badBody: unknown;
      if (request.method !== 'GET' && request.method !== 'DELETE') body = await readJsonBody(request).catch((error: unknown) => ((badBody = error), {}));
      const operation = route.operation;
      if (operation !== undefined) {
        if (gate.latencyMs > 0) await sleep(gate.latencyMs);
        const decision = gate.decide(operation);
        if (decision.kind === 'throttled') {
          sendError(response, decision.error, retryAfterHeader(decision.retryAfterMs));
          return;
        }
        if (decision.kind === 'inject') {
          sendError(response, decision.error, decision.error.code === 'Throttling' ? retryAfterHeader(1000) : {});
          return;
        }
      }
      try {
        if (badBody !== undefined) throw badBody;
        const result = await route.handle({ params, query: url.searchParams, body });
        if (operation !== undefined) gate.record(operation, true);
        sendJson(response, result.status, result.body);
      } catch (error) {
        if (operation !== undefined) gate.record(operation, false);
        sendError(response, toSandboxError(error));
      }
      return;
    }
    const error = pathMatched
      ? new SandboxCloudError('InvalidArgument', `method ${request.method ?? ''} not allowed on ${url.pathname}`)
      : new SandboxCloudError('NotFound', `no such endpoint ${url.pathname}`);
    sendError(response, error);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, toSandboxError(error));
      else response.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  };

  return Object.assign(admin, {
    url: `http://${host}:${address.port}`,
    state,
    gate,
    close,
    [Symbol.asyncDispose]: close,
  });
}
