/**
 * Named health checks and the `/healthz` (also `/livez`, `/readyz`) response, with upstream's
 * format: `ok` when healthy; `?verbose` lists `[+]name ok`; failures answer 500 with the list,
 * `[-]name failed: reason withheld` (the reason goes to the log, not to unauthenticated callers)
 * and `<endpoint> check failed`; `?exclude=name` skips a check. With no checks registered, the
 * built-in `ping` check is used, as upstream.
 *
 * Upstream's CCM serves `/healthz` only, with the leader-election adaptor (or `ping`); `/livez`
 * runs the same checks. A readiness-only check (`informer-sync`) runs on `/readyz` alone, so
 * `/healthz` does not go 500 for the moment a replica that just won the lease syncs its caches.
 */
import type { Logger } from '../../logging/logger.js';

export interface HealthCheck {
  readonly name: string;
  /** Resolves when healthy; throws (or rejects) with the reason otherwise. */
  check(): void | Promise<void>;
  /** Only `/readyz` runs it (upstream's `/healthz` has no such check). */
  readonly readinessOnly?: boolean;
}

export const PING_CHECK: HealthCheck = { name: 'ping', check() {} };

export class HealthChecks {
  readonly #checks = new Map<string, HealthCheck>();

  /** Adds or replaces a check by name. */
  add(check: HealthCheck): void {
    this.#checks.set(check.name, check);
  }

  remove(name: string): void {
    this.#checks.delete(name);
  }

  /**
   * The checks of an endpoint in registration order, or `ping` when there are none: readiness-only
   * checks count for `readyz` only.
   */
  list(endpoint: string = 'healthz'): HealthCheck[] {
    const checks = [...this.#checks.values()].filter((check) => endpoint === 'readyz' || check.readinessOnly !== true);
    return checks.length === 0 ? [PING_CHECK] : checks;
  }
}

export interface HealthResponse {
  status: 200 | 500;
  body: string;
}

export async function evaluateHealth(
  checks: readonly HealthCheck[],
  request: { endpoint: string; verbose: boolean; exclude: readonly string[] },
  logger: Logger,
  /** Told the outcome of every check run (the `/metrics/slis` SLIs). */
  observe?: (checkName: string, status: 'success' | 'error') => void,
): Promise<HealthResponse> {
  const excluded = new Set(request.exclude.map((name) => name.trim()).filter((name) => name !== ''));
  const unmatched = new Set(excluded);
  let output = '';
  const failures: string[] = [];
  for (const check of checks) {
    if (excluded.has(check.name)) {
      unmatched.delete(check.name);
      output += `[+]${check.name} excluded: ok\n`;
      continue;
    }
    try {
      await check.check();
      observe?.(check.name, 'success');
      output += `[+]${check.name} ok\n`;
    } catch (error) {
      observe?.(check.name, 'error');
      output += `[-]${check.name} failed: reason withheld\n`;
      failures.push(check.name);
      logger.warn('Health check failed', { endpoint: request.endpoint, check: check.name, err: error });
    }
  }
  if (unmatched.size > 0) {
    output += `warn: some health checks cannot be excluded: no matches for ${[...unmatched].map((name) => JSON.stringify(name)).join(',')}\n`;
  }
  if (failures.length > 0) return { status: 500, body: `${output}${request.endpoint} check failed\n` };
  return { status: 200, body: request.verbose ? `${output}${request.endpoint} check passed\n` : 'ok' };
}

/**
 * One named check at `/<endpoint>/<name>` (upstream healthz `InstallPathHandler` registers each
 * check under its name with `adaptCheckToHandler`): `ok` when healthy; 500 with
 * `internal server error: <reason>` otherwise (these paths are not on the always-allow list, so
 * only authorized callers read the reason). `?verbose` and `?exclude` do not apply, as upstream.
 */
export async function evaluateSingleCheck(check: HealthCheck, logger: Logger, observe?: (status: 'success' | 'error') => void): Promise<HealthResponse> {
  try {
    await check.check();
    observe?.('success');
    return { status: 200, body: 'ok' };
  } catch (error) {
    observe?.('error');
    logger.warn('Health check failed', { check: check.name, err: error });
    return { status: 500, body: `internal server error: ${error instanceof Error ? error.message : String(error)}\n` };
  }
}
