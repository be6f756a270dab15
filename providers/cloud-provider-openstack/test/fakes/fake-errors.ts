/** Typed errors the fakes answer with, as the SDK adapters would (`ports/sdk/sdk-errors.ts`). */
import { OpenStackApiError, type OpenStackApiErrorKind } from '../../src/errors.js';

/** The longest name Neutron and Octavia accept: a longer one is refused (400) before anything else is looked at. */
export const MAX_NAME_LENGTH = 255;

export function fakeError(kind: OpenStackApiErrorKind, operation: string, retryable = kind === 'Unavailable' || kind === 'Throttled'): OpenStackApiError {
  return new OpenStackApiError(`fake ${kind}`, { kind, operation, retryable, httpStatus: kind === 'NotFound' ? 404 : kind === 'Conflict' ? 409 : kind === 'Throttled' ? 429 : kind === 'Unavailable' ? 503 : 400 });
}

/** A call log and injected failures, shared by the fakes. */
export class FakeCalls<Method extends string> {
  readonly calls: string[] = [];
  readonly #failures = new Map<string, unknown[]>();

  /** The next `count` calls of `method` fail with `error`. */
  failNext(method: Method, error: unknown, count = 1): void {
    this.#failures.set(method, [...(this.#failures.get(method) ?? []), ...Array.from({ length: count }, () => error)]);
  }

  callsOf(method: Method): number {
    return this.calls.filter((call) => call === method).length;
  }

  /** Logs the call and throws an injected failure, if any. */
  enter(method: Method): void {
    this.calls.push(method);
    const pending = this.#failures.get(method);
    if (pending !== undefined && pending.length > 0) throw pending.shift();
  }
}
