/**
 * The two abortable sleeps used across the code base. They differ only in what an abort does:
 * `abortableSleep` resolves (loops that check the signal themselves), `sleepOrThrowOnAbort`
 * rejects with the signal's reason (callers that must not carry on after an abort). Both always
 * wait on a timer, even for 0 ms, so a loop around them yields to the event loop.
 */

/** Resolves after `milliseconds`, or at once when `signal` aborts (never rejects). */
export function abortableSleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, milliseconds);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Resolves after `milliseconds`; rejects with `signal.reason` when `signal` aborts (or has aborted). */
export function sleepOrThrowOnAbort(milliseconds: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
