import { describe, expect, it } from 'vitest';
import { CLOUD_API_ERROR_KINDS, classifyCloudApiError, CloudApiError, findCloudApiError, isCloudApiError, type CloudApiErrorKind } from './cloud-api-error.js';

describe('CloudApiError', () => {
  it.each<{ kind: CloudApiErrorKind; retryable: boolean }>([
    { kind: 'throttled', retryable: true },
    { kind: 'transient', retryable: true },
    { kind: 'not-found', retryable: false },
    { kind: 'conflict', retryable: false },
    { kind: 'invalid', retryable: false },
    { kind: 'unauthorized', retryable: false },
    { kind: 'aborted', retryable: false },
    { kind: 'unknown', retryable: false },
  ])('$kind is retryable: $retryable by default', ({ kind, retryable }) => {
    const error = new CloudApiError(kind, 'ec2.describeInstances', 'failed');
    expect(error.retryable).toBe(retryable);
    expect(error.message).toBe('ec2.describeInstances: failed');
    expect(CLOUD_API_ERROR_KINDS).toContain(kind);
  });

  it('lets the place of birth overrule retryability and keeps code, status, Retry-After and cause', () => {
    const cause = new Error('certificate verification failed');
    const error = new CloudApiError('transient', 'vcenter.login', 'TLS failed', { retryable: false, code: 'Transport', httpStatus: 0, retryAfterMs: 5, cause });
    expect(error).toMatchObject({ kind: 'transient', retryable: false, code: 'Transport', httpStatus: 0, retryAfterMs: 5, cause, name: 'CloudApiError' });
  });
});

describe('findCloudApiError and classifyCloudApiError', () => {
  const typed = new CloudApiError('throttled', 'getInstance', 'slow down', { retryAfterMs: 1500 });
  it.each([
    { name: 'the error itself', error: typed, found: typed, verdict: { kind: 'throttled', retryable: true, retryAfterMs: 1500 } },
    { name: 'wrapped by our layers', error: new Error('outer', { cause: new Error('middle', { cause: typed }) }), found: typed, verdict: { kind: 'throttled', retryable: true, retryAfterMs: 1500 } },
    { name: 'a plain error', error: new Error('x'), found: undefined, verdict: undefined },
    { name: 'not an error', error: 'text', found: undefined, verdict: undefined },
    { name: 'an error-like object with a kind', error: { kind: 'throttled' }, found: undefined, verdict: undefined },
  ])('$name', ({ error, found, verdict }) => {
    expect(findCloudApiError(error)).toBe(found);
    expect(classifyCloudApiError(error)).toEqual(verdict);
  });

  it('filters by kind', () => {
    const error = new Error('outer', { cause: new CloudApiError('not-found', 'getInstance', 'gone') });
    expect(isCloudApiError(error, 'not-found')).toBe(true);
    expect(isCloudApiError(error, 'throttled')).toBe(false);
    expect(isCloudApiError(error)).toBe(true);
  });
});
