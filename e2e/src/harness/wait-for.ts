/**
 * Polling helpers with timeout messages that say what was awaited and what was last seen.
 */

export interface WaitOptions {
  /** Polling interval; 100 ms unless told. */
  intervalMs?: number;
  /** Extra context appended to the timeout message (e.g. the CCM log tail). */
  describeContext?: () => string;
  /** Checked before every poll; a returned message ends the wait at once with that failure. */
  abortIf?: () => string | undefined;
}

/** What a predicate may return: a value (done), or `undefined`/`false` (keep waiting). */
export type WaitResult<T> = T | undefined | false;

/** Thrown when a wait times out or is aborted. */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';
}

export function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

function describeUnknown(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/**
 * Polls `predicate` until it returns something other than `undefined` or `false` and returns
 * that value. Errors thrown by the predicate count as "not yet" and the last one is reported;
 * a predicate may also describe its last observation by throwing or via `observe`.
 */
export async function waitFor<T>(
  description: string,
  predicate: (observe: (observation: unknown) => void) => WaitResult<T> | Promise<WaitResult<T>>,
  timeoutMs: number,
  options: WaitOptions = {},
): Promise<T> {
  const intervalMs = options.intervalMs ?? 100;
  const started = Date.now();
  let lastObservation: string | undefined;
  const observe = (observation: unknown): void => {
    lastObservation = describeUnknown(observation);
  };
  for (;;) {
    const abortMessage = options.abortIf?.();
    if (abortMessage !== undefined) {
      throw new WaitTimeoutError(
        `gave up waiting for ${description}: ${abortMessage}${formatTail(lastObservation, options)}`,
      );
    }
    try {
      const result = await predicate(observe);
      if (result !== undefined && result !== false) return result;
    } catch (error) {
      observe(error);
    }
    const elapsed = Date.now() - started;
    if (elapsed >= timeoutMs) {
      throw new WaitTimeoutError(
        `timed out after ${timeoutMs} ms waiting for ${description}${formatTail(lastObservation, options)}`,
      );
    }
    await sleep(Math.min(intervalMs, Math.max(0, timeoutMs - elapsed)));
  }
}

/**
 * Checks that `predicate` stays true for the whole of `durationMs` (e.g. "the node keeps its
 * taint"); fails at the first poll where it does not.
 */
export async function expectToHold(
  description: string,
  predicate: (observe: (observation: unknown) => void) => boolean | Promise<boolean>,
  durationMs: number,
  options: WaitOptions = {},
): Promise<void> {
  const intervalMs = options.intervalMs ?? 200;
  const started = Date.now();
  let lastObservation: string | undefined;
  const observe = (observation: unknown): void => {
    lastObservation = describeUnknown(observation);
  };
  for (;;) {
    const abortMessage = options.abortIf?.();
    if (abortMessage !== undefined) {
      throw new WaitTimeoutError(`${description} could not be checked: ${abortMessage}${formatTail(lastObservation, options)}`);
    }
    if (!(await predicate(observe))) {
      throw new WaitTimeoutError(
        `expected ${description} to hold for ${durationMs} ms, but it stopped holding after ${Date.now() - started} ms` +
          formatTail(lastObservation, options),
      );
    }
    if (Date.now() - started >= durationMs) return;
    await sleep(intervalMs);
  }
}

function formatTail(lastObservation: string | undefined, options: WaitOptions): string {
  let text = '';
  if (lastObservation !== undefined) text += `\nlast observed: ${lastObservation}`;
  const context = options.describeContext?.();
  if (context) text += `\n${context}`;
  return text;
}
