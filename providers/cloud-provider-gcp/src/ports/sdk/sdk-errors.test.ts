import { describe, expect, it } from 'vitest';
import { operationError, toGceApiError } from './sdk-errors.js';

class GoogleError extends Error {
  code: number;
  constructor(message: string, code: number) {
    super(message);
    this.code = code;
  }
}

const body = (code: number, reason: string, message = 'm') => JSON.stringify({ error: { code, message, errors: [{ reason, message }] } });

describe('toGceApiError', () => {
  it.each<[string, unknown, string, boolean]>([
    ['HTTP 404 (GaxiosError)', Object.assign(new Error(body(404, 'notFound')), { status: 404 }), 'NotFound', false],
    ['HTTP 409', Object.assign(new Error(body(409, 'alreadyExists')), { status: 409 }), 'AlreadyExists', false],
    ['HTTP 412', Object.assign(new Error(body(412, 'conditionNotMet')), { status: 412 }), 'PreconditionFailed', false],
    ['HTTP 400 in use', Object.assign(new Error(body(400, 'resourceInUseByAnotherResource')), { status: 400 }), 'InUse', false],
    ['HTTP 403 rate limit', Object.assign(new Error(body(403, 'rateLimitExceeded')), { status: 403 }), 'Throttled', true],
    ['HTTP 403', Object.assign(new Error(body(403, 'forbidden')), { status: 403 }), 'Unauthorized', false],
    ['HTTP 503', Object.assign(new Error(body(503, 'backendError')), { status: 503 }), 'Unavailable', true],
    ['gRPC 5', new GoogleError('gone', 5), 'NotFound', false],
    ['gRPC 10 (HTTP 409)', new GoogleError('exists', 10), 'AlreadyExists', false],
    ['gRPC 3 being used by', new GoogleError("The resource 'x' is already being used by 'y'", 3), 'InUse', false],
    ['gRPC 9 (HTTP 412)', new GoogleError('fingerprint', 9), 'PreconditionFailed', false],
    ['gRPC 16', new GoogleError('no credentials', 16), 'Unauthorized', false],
    ['gRPC 14', new GoogleError('unavailable', 14), 'Unavailable', true],
    ['connection refused in the cause chain', new Error('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) }), 'Unavailable', true],
  ])('%s', (_case, error, kind, retryable) => {
    const converted = toGceApiError(error, 'compute.getInstance');
    expect([converted.kind, converted.retryable]).toEqual([kind, retryable]);
    expect(converted.operation).toBe('compute.getInstance');
  });

  it('maps operation errors', () => {
    expect(operationError([{ code: 'RESOURCE_IN_USE_BY_ANOTHER_RESOURCE', message: 'used' }], 400, 'compute.deleteTargetPool').kind).toBe('InUse');
    expect(operationError([{ code: 'QUOTA_EXCEEDED' }], 403, 'compute.insertAddress').kind).toBe('Invalid');
  });
});
