/**
 * Retry-on-conflict with client-go's `wait.Backoff` semantics (constant duration, jitter):
 * the attempt runs up to `steps` times; only Conflict (409, not AlreadyExists) errors are retried;
 * when every attempt conflicted, the last conflict is thrown. Each attempt must re-read the object
 * (a fresh GET), because a conflict means the copy it holds is stale.
 */
import { isKubeConflict } from '../kube/kube-api-error.js';

export interface ConflictBackoff {
  /** Maximum number of attempts. */
  steps: number;
  /** Base delay between attempts. */
  durationMs: number;
  /** Each delay is `durationMs * (1 + random * jitter)`. */
  jitter: number;
}

/** Upstream `UpdateNodeSpecBackoff` (node initialization). */
export const UPDATE_NODE_SPEC_BACKOFF: Readonly<ConflictBackoff> = Object.freeze({ steps: 20, durationMs: 50, jitter: 1 });
/** Upstream `updateTaintBackoff` / `updateLabelBackoff` (node/helpers). */
export const UPDATE_NODE_METADATA_BACKOFF: Readonly<ConflictBackoff> = Object.freeze({ steps: 5, durationMs: 100, jitter: 1 });

export interface RetryOptions {
  /** Injectable for tests; defaults to a timer. */
  sleep?: (milliseconds: number) => Promise<void>;
  /** Injectable for tests; defaults to Math.random. */
  random?: () => number;
}

const defaultSleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/** Runs `attempt(index)` until it succeeds, throws a non-conflict error, or `steps` attempts conflicted. */
export async function retryOnConflict<T>(
  backoff: ConflictBackoff,
  attempt: (attemptIndex: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const steps = Math.max(1, backoff.steps);
  for (let index = 0; ; index++) {
    try {
      return await attempt(index);
    } catch (error) {
      if (!isKubeConflict(error) || index >= steps - 1) throw error;
    }
    await sleep(backoff.durationMs * (1 + random() * backoff.jitter));
  }
}
