/**
 * The health check SLIs served on `/metrics/slis` (component-base `metrics/prometheus/slis`, STABLE):
 * `kubernetes_healthcheck{name,type}` (1 when the check last passed, else 0) and
 * `kubernetes_healthchecks_total{name,type,status}`. Each run of a check on `/healthz`, `/livez` or
 * `/readyz` is observed (an excluded check is not run). They live in their own registry, apart from
 * `/metrics`, as upstream's; a DELETE of `/metrics/slis` resets them (upstream `HandlerWithReset`).
 */
import { Counter, Gauge, Registry } from 'prom-client';

export type HealthCheckStatus = 'success' | 'error';

export class HealthCheckSlis {
  readonly registry = new Registry();
  readonly #healthcheck: Gauge<'name' | 'type'>;
  readonly #healthchecksTotal: Counter<'name' | 'type' | 'status'>;

  constructor() {
    this.#healthcheck = new Gauge({
      name: 'kubernetes_healthcheck',
      help: 'This metric records the result of a single healthcheck.',
      labelNames: ['name', 'type'] as const,
      registers: [this.registry],
    });
    this.#healthchecksTotal = new Counter({
      name: 'kubernetes_healthchecks_total',
      help: 'This metric records the results of all healthcheck.',
      labelNames: ['name', 'type', 'status'] as const,
      registers: [this.registry],
    });
  }

  /** Forgets every recorded outcome (a DELETE of `/metrics/slis`). */
  reset(): void {
    this.registry.resetMetrics();
  }

  /** Records one run of the check `name` on the endpoint `type` (`healthz`, `livez`, `readyz`). */
  observe(name: string, type: string, status: HealthCheckStatus): void {
    this.#healthcheck.set({ name, type }, status === 'success' ? 1 : 0);
    this.#healthchecksTotal.inc({ name, type, status });
  }
}
