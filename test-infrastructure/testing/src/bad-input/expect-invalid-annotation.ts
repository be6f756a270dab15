/**
 * The assertion of every provider's annotation corpus: building the load balancer spec with
 * `annotation=value` throws PermanentInvalidServiceConfigurationError (an invalid-input error,
 * never retried) that names the annotation and quotes the value.
 */
import { PermanentInvalidServiceConfigurationError } from '@ccm/core/provider';
import { expect } from 'vitest';

export function expectInvalidAnnotation(build: () => unknown, annotation: string, value: string): void {
  let thrown: unknown;
  try {
    build();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(PermanentInvalidServiceConfigurationError);
  const error = thrown as PermanentInvalidServiceConfigurationError;
  expect(error.kind).toBe('PermanentInvalidInput');
  expect(error.annotation).toBe(annotation);
  expect(error.value).toBe(value);
  expect(error.message).toContain(annotation);
  expect(error.message).toContain(JSON.stringify(value));
}
