/**
 * client-go's `rest_client_*` metrics (k8s.io/client-go/tools/metrics as registered by
 * component-base): request counts by code/method/host, latency and client-side rate-limiter
 * wait by verb/host. Registered once per registry.
 */
import { Counter, Histogram, type Registry } from 'prom-client';

const LATENCY_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

export interface RestClientMetrics {
  /** `code` is the HTTP status, or `<error>` for transport failures. */
  request(method: string, code: string, seconds: number): void;
  rateLimiterWait(method: string, seconds: number): void;
}

function counter(registry: Registry): Counter<'code' | 'host' | 'method'> {
  const existing = registry.getSingleMetric('rest_client_requests_total');
  if (existing instanceof Counter) return existing as Counter<'code' | 'host' | 'method'>;
  return new Counter({
    name: 'rest_client_requests_total',
    help: 'Number of HTTP requests, partitioned by status code, method, and host.',
    labelNames: ['code', 'host', 'method'],
    registers: [registry],
  });
}

function histogram(registry: Registry, name: string, help: string): Histogram<'host' | 'verb'> {
  const existing = registry.getSingleMetric(name);
  if (existing instanceof Histogram) return existing as Histogram<'host' | 'verb'>;
  return new Histogram({ name, help, labelNames: ['host', 'verb'], buckets: LATENCY_BUCKETS, registers: [registry] });
}

export function restClientMetrics(registry: Registry | undefined, host: string): RestClientMetrics {
  if (registry === undefined) return { request() {}, rateLimiterWait() {} };
  const requests = counter(registry);
  const latency = histogram(registry, 'rest_client_request_duration_seconds', 'Request latency in seconds. Broken down by verb, and host.');
  const limiter = histogram(registry, 'rest_client_rate_limiter_duration_seconds', 'Client side rate limiter latency in seconds. Broken down by verb, and host.');
  return {
    request(method, code, seconds) {
      requests.inc({ code, host, method });
      latency.observe({ host, verb: method }, seconds);
    },
    rateLimiterWait(method, seconds) {
      limiter.observe({ host, verb: method }, seconds);
    },
  };
}
