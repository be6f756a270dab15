/**
 * Typed errors of the `Coalescer`. Each carries a `kind` discriminant and, where there is one,
 * the underlying `cause`.
 */
import { errorMessage } from '../util/error-message.js';
export type CoalescerErrorKind = 'KeyNotFound' | 'BatchFailed' | 'Closed';

export class CoalescerError extends Error {
  readonly kind: CoalescerErrorKind;
  /** The coalescer's name (as given in its options). */
  readonly coalescer: string;
  constructor(kind: CoalescerErrorKind, coalescer: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.coalescer = coalescer;
    this.name = `Coalescer${kind}Error`;
  }
}

/** The batch call answered, but its result had no entry for this key. */
export class CoalescerKeyNotFoundError extends CoalescerError {
  readonly key: unknown;
  constructor(coalescer: string, key: unknown, keyText: string) {
    super('KeyNotFound', coalescer, `${coalescer}: no result for ${keyText} in the batch answer`);
    this.key = key;
  }
}

/** The batch call itself failed and there was no (or no permitted) single-key fallback. */
export class CoalescerBatchFailedError extends CoalescerError {
  readonly batchSize: number;
  constructor(coalescer: string, batchSize: number, cause: unknown) {
    const reason = errorMessage(cause);
    super('BatchFailed', coalescer, `${coalescer}: batch lookup of ${batchSize} keys failed: ${reason}`, { cause });
    this.batchSize = batchSize;
  }
}

/** The coalescer was closed before the key was sent. */
export class CoalescerClosedError extends CoalescerError {
  constructor(coalescer: string) {
    super('Closed', coalescer, `${coalescer}: closed`);
  }
}

export function isCoalescerError(error: unknown, kind?: CoalescerErrorKind): error is CoalescerError {
  return error instanceof CoalescerError && (kind === undefined || error.kind === kind);
}
