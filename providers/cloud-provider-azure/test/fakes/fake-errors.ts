/** Errors the fakes throw, shaped as the SDK adapters shape ARM's. */
import { AzureApiError, type AzureApiErrorKind } from '../../src/errors.js';

const RETRYABLE: ReadonlySet<AzureApiErrorKind> = new Set(['Throttled', 'Unavailable', 'Conflict']);

export function armError(operation: string, kind: AzureApiErrorKind, code: string, extra: { retryAfterMs?: number; httpStatus?: number } = {}): AzureApiError {
  return new AzureApiError(`${code} (fake)`, { kind, code, operation, retryable: RETRYABLE.has(kind), ...extra });
}

/** A call log and injected failures, shared by the fakes. */
export class FakeCallLog {
  readonly calls: Array<{ operation: string; args: unknown[] }> = [];
  readonly #failures = new Map<string, Error[]>();

  /** The next `count` calls of `operation` fail with `error`. */
  failNext(operation: string, error: Error, count = 1): void {
    const queue = this.#failures.get(operation) ?? [];
    for (let index = 0; index < count; index++) queue.push(error);
    this.#failures.set(operation, queue);
  }

  record(operation: string, args: unknown[]): void {
    this.calls.push({ operation, args });
    const failure = this.#failures.get(operation)?.shift();
    if (failure) throw failure;
  }

  count(operation: string): number {
    return this.calls.filter((call) => call.operation === operation).length;
  }

  reset(): void {
    this.calls.length = 0;
  }
}
