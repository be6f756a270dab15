import { describe, expect, it } from 'vitest';
import {
  asRetryError,
  ImplementedElsewhereError,
  InstanceNotFoundError,
  InvalidServiceConfigurationError,
  isImplementedElsewhere,
  isInstanceNotFound,
  isInvalidInput,
  isNotImplemented,
  NotImplementedError,
  RetryError,
} from './cloud-errors.js';

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
  it('mark invalid user input (typed class or any Error with kind "InvalidInput" in the cause chain)', () => {
    const typed = new InvalidServiceConfigurationError('annotation a.example/x: invalid value "y"', { annotation: 'a.example/x', value: 'y' });
    expect(typed).toMatchObject({ kind: 'InvalidInput', name: 'InvalidServiceConfigurationError', annotation: 'a.example/x', value: 'y' });
    expect(isInvalidInput(typed)).toBe(true);
    expect(isInvalidInput(new Error('wrapped', { cause: typed }))).toBe(true);
    class ProviderAnnotationError extends Error {
      readonly kind = 'InvalidInput';
    }
    expect(isInvalidInput(new Error('ensure', { cause: new ProviderAnnotationError('bad annotation') }))).toBe(true);
    expect(isInvalidInput(new Error('plain'))).toBe(false);
    expect(isInvalidInput(new RetryError('busy', 1))).toBe(false);
  });
});
