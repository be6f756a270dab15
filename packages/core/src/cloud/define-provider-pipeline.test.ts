import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from '../app/metrics/prometheus-metrics-sink.js';
import type { Logger } from '../logging/logger.js';
import { silentLogger } from '../logging/logger.js';
import { CloudApiError, defineCloudApiErrorKinds, findCause, notThrottled, providerApiErrorClass } from './cloud-api-error.js';
import { cloudErrorCode } from './cloud-api-observer.js';
import { classifyErrorsOf, defineProviderPipeline, throttlingOf } from './define-provider-pipeline.js';

const EXAMPLE_KINDS = defineCloudApiErrorKinds({ NotFound: 'not-found', InUse: 'conflict', Throttled: 'throttled', Unavailable: 'transient' });
class ExampleApiError extends providerApiErrorClass('ExampleApiError', EXAMPLE_KINDS) {}
class OtherApiError extends providerApiErrorClass('OtherApiError', EXAMPLE_KINDS) {}

const exampleError = (kind: keyof typeof EXAMPLE_KINDS, details: { retryable?: boolean; retryAfterMs?: number; code?: string; operation?: string } = {}) =>
  new ExampleApiError(`${kind} happened`, { kind, operation: details.operation ?? 'compute.getInstance', retryable: details.retryable ?? (kind === 'Throttled' || kind === 'Unavailable'), ...details });

describe('a provider subclass from providerApiErrorClass', () => {
  it("keeps the provider's word in kind and core's in cloudKind, named and prefixed like core's", () => {
    const cause = new Error('sdk');
    const error = new ExampleApiError('in use by lb-1', { kind: 'InUse', operation: 'compute.deleteTargetPool', retryable: false, code: 'resourceInUse', httpStatus: 400, cause });
    expect(error).toBeInstanceOf(CloudApiError);
    expect(error).toMatchObject({ name: 'ExampleApiError', kind: 'InUse', cloudKind: 'conflict', code: 'resourceInUse', httpStatus: 400, retryable: false, cause });
    expect(error.message).toBe('compute.deleteTargetPool: in use by lb-1');
  });

  it('finds its own class in the cause chain, skipping other providers', () => {
    const mine = exampleError('NotFound');
    const wrapped = new Error('outer', { cause: new OtherApiError('x', { kind: 'Throttled', operation: 'o', retryable: true, cause: mine }) });
    expect(ExampleApiError.find(wrapped)).toBe(mine);
    expect(ExampleApiError.hasKind(wrapped, 'NotFound')).toBe(true);
    expect(ExampleApiError.hasKind(wrapped, 'InUse')).toBe(false);
    expect(OtherApiError.hasKind(wrapped, 'Throttled')).toBe(true);
    expect(ExampleApiError.find(new Error('plain'))).toBeUndefined();
  });

  it("hasCode asks the first error of its class for the cloud's code", () => {
    const mine = new ExampleApiError('duplicate', { kind: 'InUse', operation: 'ec2.createSecurityGroup', retryable: false, code: 'InvalidGroup.Duplicate' });
    const wrapped = new Error('outer', { cause: mine });
    expect(ExampleApiError.hasCode(wrapped, 'InvalidGroup.Duplicate')).toBe(true);
    expect(ExampleApiError.hasCode(wrapped, 'InvalidGroup.NotFound')).toBe(false);
    expect(OtherApiError.hasCode(wrapped, 'InvalidGroup.Duplicate')).toBe(false);
  });

  it('findCause stops after 16 links', () => {
    let chain: Error = exampleError('NotFound');
    for (let depth = 0; depth < 15; depth++) chain = new Error(`wrap ${depth}`, { cause: chain });
    expect(findCause(chain, ExampleApiError)).toBeDefined();
    expect(findCause(new Error('one more', { cause: chain }), ExampleApiError)).toBeUndefined();
  });

  it('notThrottled says whether a coalescer may split a failed batch', () => {
    expect(notThrottled(new Error('outer', { cause: exampleError('Throttled') }))).toBe(false);
    expect(notThrottled(exampleError('Unavailable'))).toBe(true);
    expect(notThrottled(new Error('untyped'))).toBe(true);
  });

  it('is labelled in metrics by its code, else its class name; core errors by code, else kind', () => {
    expect(cloudErrorCode(exampleError('NotFound', { code: 'notFound' }))).toBe('notFound');
    expect(cloudErrorCode(exampleError('NotFound'))).toBe('ExampleApiError');
    expect(cloudErrorCode(new CloudApiError('not-found', 'getInstance', 'gone'))).toBe('not-found');
  });
});

describe('classifyErrorsOf and throttlingOf', () => {
  it("reads core's kind, the retryability decided at birth and Retry-After", () => {
    const classify = classifyErrorsOf(ExampleApiError);
    expect(classify(new Error('outer', { cause: exampleError('Unavailable', { retryAfterMs: 300 }) }))).toEqual({ kind: 'transient', retryable: true, retryAfterMs: 300 });
    expect(classify(exampleError('InUse'))).toEqual({ kind: 'conflict', retryable: false });
    expect(classify(new OtherApiError('x', { kind: 'Unavailable', operation: 'o', retryable: true }))).toBeUndefined();
  });

  it('can look at the error itself only, drop Retry-After and overrule retryability', () => {
    const wrapped = new Error('outer', { cause: exampleError('Unavailable') });
    expect(classifyErrorsOf(ExampleApiError, { topLevelOnly: true })(wrapped)).toBeUndefined();
    expect(classifyErrorsOf(ExampleApiError, { retryAfter: false })(exampleError('Unavailable', { retryAfterMs: 300 }))).toEqual({ kind: 'transient', retryable: true });
    const onlyOnce = classifyErrorsOf(ExampleApiError, { retryable: (found) => found.operation !== 'compute.optional' });
    expect(onlyOnce(exampleError('Unavailable', { operation: 'compute.optional' }))).toEqual({ kind: 'transient', retryable: false });
  });

  it('throttlingOf: throttled errors of the class with their Retry-After, else the fallback', () => {
    const fallback = (error: unknown) => (error instanceof Error && error.message === 'slow down' ? { retryAfterMs: 5 } : undefined);
    const throttling = throttlingOf(ExampleApiError, fallback);
    expect(throttling(exampleError('Throttled', { retryAfterMs: 900 }))).toEqual({ retryAfterMs: 900 });
    expect(throttling(exampleError('Throttled'))).toEqual({});
    expect(throttling(exampleError('Unavailable'))).toBeUndefined();
    expect(throttling(new Error('slow down'))).toEqual({ retryAfterMs: 5 });
  });
});

describe('defineProviderPipeline', () => {
  const definition = {
    provider: 'example',
    budget: { qps: 1_000, burst: 1_000, maxAttempts: 3, initialBackoffMs: 1, maxBackoffMs: 1 },
    throttling: throttlingOf(ExampleApiError),
    retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 1, jitter: 'none' },
    classify: classifyErrorsOf(ExampleApiError),
  } as const;

  function flakyPort(failures: unknown[]) {
    const calls: string[] = [];
    return {
      calls,
      port: {
        async getInstance(id: string): Promise<string> {
          calls.push(id);
          const failure = failures.shift();
          if (failure !== undefined) throw failure;
          return `instance ${id}`;
        },
      },
    };
  }

  function recordingLogger(): Logger & { lines: string[] } {
    const lines: string[] = [];
    const logger: Logger & { lines: string[] } = {
      ...silentLogger,
      lines,
      info: (message) => void lines.push(`info ${message}`),
      verbose: (level, message) => void lines.push(`v${level} ${message}`),
      child: () => logger,
    };
    return logger;
  }

  it('connect: one budget and observer, every call retried by kind and counted, retries logged', async () => {
    const metrics = new MetricsRegistry();
    const logger = recordingLogger();
    const pipeline = defineProviderPipeline({ ...definition, retryLog: { message: 'retrying Example call', verbosity: 2 } }).connect({ metrics, logger }, { retry: { sleep: async () => {} } });
    const { port, calls } = flakyPort([exampleError('Unavailable'), exampleError('Throttled')]);
    const composed = pipeline.compose(port, 'compute');
    await expect(composed.getInstance('a')).resolves.toBe('instance a');
    // The transient failure is retried by the retry stage (logged), the throttled one by the budget.
    expect(calls).toEqual(['a', 'a', 'a']);
    expect(logger.lines.filter((line) => line.includes('Example'))).toEqual(['v2 retrying Example call']);
    expect(pipeline.budget.stats()).toMatchObject({ requests: 3, throttled: 1 });
    const text = await metrics.metrics();
    expect(text).toContain('cloudprovider_api_requests_total{provider="example",operation="compute.getInstance"} 3');
    expect(text).toContain('cloudprovider_api_request_errors_total{provider="example",request="compute.getInstance",code="ExampleApiError"} 2');
  });

  it('errors not retryable at birth fail at once; retryLog false logs nothing; without metrics there is no observer', async () => {
    const logger = recordingLogger();
    const pipeline = defineProviderPipeline({ ...definition, retryLog: false }).connect({ logger }, { retry: { sleep: async () => {} } });
    expect(pipeline.observer).toBeUndefined();
    const notFound = exampleError('NotFound');
    const { port, calls } = flakyPort([exampleError('Unavailable'), notFound]);
    await expect(pipeline.compose(port, { operations: { getInstance: 'GetInstance' } }).getInstance('b')).rejects.toBe(notFound);
    expect(calls).toEqual(['b', 'b']);
    expect(logger.lines).toEqual([]);
  });

  it("compose's stages override the definition's retry defaults", async () => {
    const pipeline = defineProviderPipeline(definition);
    const { port, calls } = flakyPort([exampleError('Unavailable'), exampleError('Unavailable')]);
    const composed = pipeline.compose(port, 'compute', { retry: { maxAttempts: 1 } });
    await expect(composed.getInstance('c')).rejects.toMatchObject({ kind: 'Unavailable', cloudKind: 'transient' });
    expect(calls).toEqual(['c']);
  });
});
