/**
 * What providers wrap their cloud API calls with: a latency histogram and an error counter per
 * operation, shared by every provider (labels `provider`, `request`, and `code` for errors).
 *
 *   const observer = createCloudApiObserver(context.metrics, 'aws');
 *   const result = await observer.observe('DescribeInstances', () => ec2.send(command));
 *
 * With the provider's upstream table (`upstream-cloud-metrics.ts`), each call is recorded into
 * upstream's series too.
 */
import type { MetricsSink } from '../metrics/metrics-sink.js';
import { CloudApiError } from './cloud-api-error.js';
import { createUpstreamMetricsRecorder, type UpstreamCloudMetrics } from './upstream-cloud-metrics.js';

export const CLOUD_API_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export interface CloudApiObserver {
  /** Runs `call`, records its duration and, when it throws, an error with the error's code; rethrows. `args`: the port call's arguments (upstream series labels). */
  observe<T>(operation: string, call: () => Promise<T>, args?: readonly unknown[]): Promise<T>;
}

export function createCloudApiObserver(metrics: MetricsSink, providerName: string, upstream?: UpstreamCloudMetrics): CloudApiObserver {
  const duration = metrics.histogram({
    name: 'cloudprovider_api_request_duration_seconds',
    help: 'Latency of cloud provider API calls, by provider and request.',
    labelNames: ['provider', 'request'] as const,
    buckets: CLOUD_API_DURATION_BUCKETS,
  });
  const errors = metrics.counter({
    name: 'cloudprovider_api_request_errors_total',
    help: 'Cloud provider API calls that failed, by provider, request and error code.',
    labelNames: ['provider', 'request', 'code'] as const,
  });
  const recordUpstream = upstream === undefined ? undefined : createUpstreamMetricsRecorder(metrics, upstream);
  return {
    observe: <T>(operation: string, call: () => Promise<T>, args: readonly unknown[] = []): Promise<T> =>
      timeCall(call, (outcome) => {
        if (outcome.failed) errors.inc({ provider: providerName, request: operation, code: cloudErrorCode(outcome.error) });
        duration.observe({ provider: providerName, request: operation }, outcome.seconds);
        recordUpstream?.({ operation, args, ...outcome });
      }),
  };
}

/**
 * An observer recording into `upstream`'s series only: for what upstream times outside the API
 * calls (OpenStack's load-balancer reconciles, `operation` `loadbalancer_ensure`).
 */
export function createUpstreamObserver(metrics: MetricsSink, upstream: UpstreamCloudMetrics): CloudApiObserver {
  const record = createUpstreamMetricsRecorder(metrics, upstream);
  return { observe: (operation, call, args = []) => timeCall(call, (outcome) => record({ operation, args, ...outcome })) };
}

/** Runs `call`, then tells `done` its duration and whether (and with what) it failed; passes its result or error through. */
async function timeCall<T>(call: () => Promise<T>, done: (outcome: { seconds: number; failed: boolean; error?: unknown }) => void): Promise<T> {
  const started = performance.now();
  const seconds = (): number => (performance.now() - started) / 1000;
  try {
    const result = await call();
    done({ seconds: seconds(), failed: false });
    return result;
  } catch (error) {
    done({ seconds: seconds(), failed: true, error });
    throw error;
  }
}

/**
 * A short, bounded label for an error: a `CloudApiError`'s cloud code, else its kind (a provider's
 * subclass is labelled as any error, by its code, else its name); its `code` (Azure `ResourceNotFound`, Node `ECONNRESET`,
 * Google 404), else a specific `name` (AWS `InvalidInstanceID.NotFound`, typed errors), else an
 * HTTP status (`statusCode`, AWS `$metadata.httpStatusCode`), else `unknown`.
 */
export function cloudErrorCode(error: unknown): string {
  if (error instanceof CloudApiError && error.constructor === CloudApiError) return limit(error.code !== undefined && error.code !== '' ? error.code : error.kind);
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
