import { describe, expect, it } from 'vitest';
import { asRetryError, ImplementedElsewhereError, InstanceNotFoundError, isImplementedElsewhere, isInstanceNotFound, isNotImplemented, NotImplementedError, RetryError } from './cloud-errors.js';

describe('cloud errors', () => {
  it('keep upstream messages', () => {
    expect(new InstanceNotFoundError().message).toBe('instance not found');
    expect(new NotImplementedError().message).toBe('unimplemented');
    expect(new ImplementedElsewhereError().message).toBe('implemented by alternate to cloud provider');
  });
  it('are found through wrapping causes', () => {
    const wrapped = new Error('lookup failed', { cause: new Error('inner', { cause: new InstanceNotFoundError() }) });
    expect(isInstanceNotFound(wrapped)).toBe(true);
    expect(isNotImplemented(wrapped)).toBe(false);
    expect(isImplementedElsewhere(new ImplementedElsewhereError())).toBe(true);
  });
  it('carry a retry-after duration', () => {
    const error = new Error('ensure', { cause: new RetryError('busy', 42_000) });
    expect(asRetryError(error)?.retryAfterMs).toBe(42_000);
    expect(asRetryError(new Error('x'))).toBeUndefined();
  });
});
