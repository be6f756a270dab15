/**
 * A provider's port pipeline, defined once from its constants: the budget's defaults and
 * throttling classifier, the retry defaults and the classifier of its errors. Every provider's
 * `ports/<cloud>-port-pipeline.ts` is one call of `defineProviderPipeline`; its composition root
 * then calls `pipeline.connect(context)` once and `compose` once per port:
 *
 *   export const AWS_PIPELINE = defineProviderPipeline({
 *     provider: 'aws',
 *     budget: { qps: 20, burst: 100, maxAttempts: 8, initialBackoffMs: 500, maxBackoffMs: 20_000 },
 *     throttling: createThrottlingClassifier({ codes: AWS_THROTTLING_CODES, statuses: [429] }),
 *     retry: { maxAttempts: 8, initialDelayMs: 100, maxDelayMs: 20_000, jitter: 'full' },
 *     classify: classifyErrorsOf(AwsApiError),
 *   });
 *
 *   const pipeline = AWS_PIPELINE.connect(context, { apiBudget: options.apiBudget, retry: options.retry });
 *   const ec2 = pipeline.compose(createSdkEc2Port(clients.ec2), 'ec2');
 *
 * The stages are `composeCloudPort`'s: coalesce -> the provider's own -> retry -> budget ->
 * fence -> observe -> the port.
 */
import type { Logger } from '../logging/logger.js';
import type { MetricsSink } from '../metrics/metrics-sink.js';
import { errorMessage } from '../util/error-message.js';
import { CloudApiBudget, type CloudApiBudgetOptions } from './cloud-api-budget.js';
import { findCause, type CloudApiError, type CloudApiErrorClassifier, type CloudApiErrorVerdict } from './cloud-api-error.js';
import { createCloudApiObserver, type CloudApiObserver } from './cloud-api-observer.js';
import type { CoalescedMethods } from './coalesce-port.js';
import { composeCloudPort } from './compose-cloud-port.js';
import type { CloudRetryPolicy } from './retry-calls.js';
import type { ThrottlingClassifier } from './throttling-classifier.js';
import type { UpstreamCloudMetrics } from './upstream-cloud-metrics.js';
import type { PortAround, PortNaming } from './wrap-port.js';

/** The budget settings a provider fixes (its cloud's documented limits). */
export type ProviderBudgetDefaults = Pick<CloudApiBudgetOptions, 'qps' | 'burst' | 'maxAttempts' | 'initialBackoffMs' | 'maxBackoffMs'>;

/** Tuning a test (or a simulator run) may override. */
export type CloudApiBudgetOverrides = Omit<CloudApiBudgetOptions, 'provider' | 'classify' | 'metrics' | 'observer' | 'logger'>;

export interface ProviderPipelineDefinition {
  /** The provider's name: the `provider` label of every metric. */
  provider: string;
  budget: ProviderBudgetDefaults;
  /** Which errors the budget treats as throttling, and their Retry-After. */
  throttling: ThrottlingClassifier;
  /** Retries of retryable failures other than throttling (the budget retries throttling). */
  retry: CloudRetryPolicy;
  /** Core's kind and the retryability of the provider's errors (`classifyErrorsOf(AwsApiError)`). */
  classify: CloudApiErrorClassifier;
  /** How `connect` logs a retry: the message and, for a verbose line, its level (default `retrying cloud call` at info); `false`: not at all. */
  retryLog?: { message?: string; verbosity?: number } | false;
  /** The upstream CCM's cloud API series (`src/metrics/upstream-metrics.ts`), recorded by the observer beside the common ones. */
  upstreamMetrics?: UpstreamCloudMetrics;
}

/** The stages of one port beside the budget and observer: the provider's own, overrides of the retry policy, coalescing. */
export interface ProviderPortStages<Port> {
  budget?: CloudApiBudget;
  observer?: CloudApiObserver;
  /** Overrides of the definition's retry defaults (tests inject `sleep` and `random`; `connect` logs retries). */
  retry?: CloudRetryPolicy;
  around?: readonly PortAround[];
  coalesce?: (port: Port) => CoalescedMethods<Port>;
}

/** What the composition root gives `connect`. */
export interface ProviderPipelineContext {
  /** Without one (a provider built in code), no observer, and the budget publishes nothing. */
  metrics?: MetricsSink | undefined;
  logger: Logger;
}

export interface ProviderPipelineOptions {
  apiBudget?: CloudApiBudgetOverrides | undefined;
  retry?: CloudRetryPolicy | undefined;
  /** The upstream series of this instance, when their labels need its configuration (Azure's subscription); default the definition's. */
  upstreamMetrics?: UpstreamCloudMetrics | undefined;
}

/** One provider instance's pipeline: its one budget and observer, retries logged. */
export interface ConnectedProviderPipeline {
  readonly budget: CloudApiBudget;
  readonly observer: CloudApiObserver | undefined;
  /** `port` with every call through the pipeline; `naming` is the service (`ec2`: operations `ec2.<method>`) or `composeCloudPort`'s naming. */
  compose<Port extends object>(port: Port, naming: string | PortNaming<Port>, stages?: Omit<ProviderPortStages<Port>, 'budget' | 'observer'>): Port;
}

export interface ProviderPipeline {
  readonly definition: ProviderPipelineDefinition;
  /** The provider's one budget (rate limit, adaptive backoff, throttling retries after Retry-After). */
  createBudget(metrics: MetricsSink | undefined, logger: Logger, overrides?: CloudApiBudgetOverrides): CloudApiBudget;
  /** Latency and errors of every attempt, labelled with the provider, and the upstream series. */
  createObserver(metrics: MetricsSink): CloudApiObserver;
  /** `port` through the given stages, with the definition's retry defaults and classifier. */
  compose<Port extends object>(port: Port, naming: string | PortNaming<Port>, stages: ProviderPortStages<Port>): Port;
  /** The budget, the observer and retry logging of one provider instance (its composition root's preamble). */
  connect(context: ProviderPipelineContext, options?: ProviderPipelineOptions): ConnectedProviderPipeline;
}

export function defineProviderPipeline(definition: ProviderPipelineDefinition): ProviderPipeline {
  const createBudget = (metrics: MetricsSink | undefined, logger: Logger, overrides: CloudApiBudgetOverrides = {}): CloudApiBudget =>
    new CloudApiBudget({ provider: definition.provider, ...definition.budget, ...overrides, classify: definition.throttling, logger, ...(metrics === undefined ? {} : { metrics }) });
  const createObserver = (metrics: MetricsSink): CloudApiObserver => createCloudApiObserver(metrics, definition.provider, definition.upstreamMetrics);
  const compose = <Port extends object>(port: Port, naming: string | PortNaming<Port>, stages: ProviderPortStages<Port>): Port =>
    composeCloudPort(port, {
      ...(typeof naming === 'string' ? { name: naming } : naming),
      ...(stages.observer === undefined ? {} : { observer: stages.observer }),
      ...(stages.budget === undefined ? {} : { budget: stages.budget }),
      ...(stages.around === undefined ? {} : { around: stages.around }),
      ...(stages.coalesce === undefined ? {} : { coalesce: stages.coalesce }),
      retry: { ...definition.retry, classify: definition.classify, ...stages.retry },
    });
  return {
    definition,
    createBudget,
    createObserver,
    compose,
    connect(context, options = {}) {
      const budget = createBudget(context.metrics, context.logger, options.apiBudget);
      const upstream = options.upstreamMetrics ?? definition.upstreamMetrics;
      const observer = context.metrics === undefined ? undefined : createCloudApiObserver(context.metrics, definition.provider, upstream);
      const retry: CloudRetryPolicy = { ...(definition.retryLog === false ? {} : { onRetry: logRetry(context.logger, definition.retryLog) }), ...options.retry };
      return {
        budget,
        observer,
        compose: (port, naming, stages = {}) => compose(port, naming, { ...stages, budget, ...(observer === undefined ? {} : { observer }), retry: { ...retry, ...stages.retry } }),
      };
    },
  };
}

function logRetry(logger: Logger, options: { message?: string; verbosity?: number } = {}): NonNullable<CloudRetryPolicy['onRetry']> {
  const message = options.message ?? 'retrying cloud call';
  return ({ operation, attempt, delayMs, error }) => {
    const fields = { operation, attempt, delayMs, error: errorMessage(error) };
    if (options.verbosity === undefined) logger.info(message, fields);
    else logger.verbose(options.verbosity, message, fields);
  };
}

export interface ClassifyErrorsOfOptions<Found> {
  /** Only the error itself, not its cause chain (errors that are never wrapped before the retry stage). Default false. */
  topLevelOnly?: boolean;
  /** Hand the error's Retry-After to the retry stage. Default true. */
  retryAfter?: boolean;
  /** Overrules the retryability decided at birth (calls that must be answered at once). */
  retryable?: (found: Found) => boolean;
}

/** The pipeline's view of a provider's errors of `type`: core's kind, the retryability decided at birth, its Retry-After. */
export function classifyErrorsOf<Found extends CloudApiError<string>>(
  type: abstract new (...args: never[]) => Found,
  options: ClassifyErrorsOfOptions<Found> = {},
): CloudApiErrorClassifier {
  return (error) => {
    const found = options.topLevelOnly === true ? (error instanceof type ? error : undefined) : findCause(error, type);
    if (found === undefined) return undefined;
    const verdict: CloudApiErrorVerdict = { kind: found.cloudKind, retryable: options.retryable === undefined ? found.retryable : options.retryable(found) };
    return options.retryAfter === false || found.retryAfterMs === undefined ? verdict : { ...verdict, retryAfterMs: found.retryAfterMs };
  };
}

/**
 * The budget's classifier of a provider's errors of `type`: the first one in the cause chain of
 * core's kind `throttled` is throttling, with its Retry-After; anything else is `fallback`'s to say.
 */
export function throttlingOf<Found extends CloudApiError<string>>(type: abstract new (...args: never[]) => Found, fallback?: ThrottlingClassifier): ThrottlingClassifier {
  return (error) => {
    const found = findCause(error, type);
    if (found?.cloudKind === 'throttled') return found.retryAfterMs === undefined ? {} : { retryAfterMs: found.retryAfterMs };
    return fallback?.(error);
  };
}
