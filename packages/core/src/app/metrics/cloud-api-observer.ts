/**
 * What providers wrap their cloud API calls with: a latency histogram and an error counter per
 * operation, shared by every provider (labels `provider`, `request`, and `code` for errors).
 *
 *   const observer = createCloudApiObserver(context.metrics, 'aws');
 *   const result = await observer.observe('DescribeInstances', () => ec2.send(command));
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import { getOrCreateMetric } from './get-or-create-metric.js';

export const CLOUD_API_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export interface CloudApiObserver {
  /** Runs `call`, records its duration and, when it throws, an error with the error's code; rethrows. */
  observe<T>(operation: string, call: () => Promise<T>): Promise<T>;
}

export function createCloudApiObserver(registry: Registry, providerName: string): CloudApiObserver {
  const duration = getOrCreateMetric(
    registry,
    'cloudprovider_api_request_duration_seconds',
    () =>
      new Histogram({
        name: 'cloudprovider_api_request_duration_seconds',
        help: 'Latency of cloud provider API calls, by provider and request.',
        labelNames: ['provider', 'request'] as const,
        buckets: CLOUD_API_DURATION_BUCKETS,
        registers: [registry],
      }),
  );
  const errors = getOrCreateMetric(
    registry,
    'cloudprovider_api_request_errors_total',
    () =>
      new Counter({
        name: 'cloudprovider_api_request_errors_total',
        help: 'Cloud provider API calls that failed, by provider, request and error code.',
        labelNames: ['provider', 'request', 'code'] as const,
        registers: [registry],
      }),
  );
  return {
    async observe<T>(operation: string, call: () => Promise<T>): Promise<T> {
      const end = duration.startTimer({ provider: providerName, request: operation });
      try {
        return await call();
      } catch (error) {
        errors.inc({ provider: providerName, request: operation, code: cloudErrorCode(error) });
        throw error;
      } finally {
        end();
      }
    },
  };
}

/**
 * A short, bounded label for an error: its `code` (Azure `ResourceNotFound`, Node `ECONNRESET`,
 * Google 404), else a specific `name` (AWS `InvalidInstanceID.NotFound`, typed errors), else an
 * HTTP status (`statusCode`, AWS `$metadata.httpStatusCode`), else `unknown`.
 */
export function cloudErrorCode(error: unknown): string {
  if (error === null || typeof error !== 'object') return 'unknown';
  const candidate = error as { code?: unknown; name?: unknown; statusCode?: unknown; status?: unknown; $metadata?: { httpStatusCode?: unknown } };
  const code = candidate.code;
  if ((typeof code === 'string' && code !== '') || typeof code === 'number') return limit(String(code));
  const name = candidate.name;
  if (typeof name === 'string' && name !== '' && name !== 'Error') return limit(name);
  for (const status of [candidate.statusCode, candidate.status, candidate.$metadata?.httpStatusCode]) {
    if (typeof status === 'number' || (typeof status === 'string' && /^\d{3}$/.test(status))) return String(status);
  }
  return 'unknown';
}

function limit(text: string): string {
  return text.length > 64 ? text.slice(0, 64) : text;
}
