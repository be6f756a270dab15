/**
 * An AbortSignal for one request, aborted when its caller's signal aborts or when `timeoutMs`
 * pass, whichever comes first, and released by `dispose()` once the request is over.
 *
 * Why not `AbortSignal.any([parent, AbortSignal.timeout(ms)])`: on Node 20 every call adds a
 * WeakRef to the parent's set of dependent signals that stays there as long as the parent lives.
 * A controller's signal lives as long as the process, so a CCM making 20 cloud calls a second
 * grew by megabytes an hour (found by the soak's heap snapshots). `AbortSignal.timeout` also
 * keeps its timer until it fires; here the timer is cleared with the request.
 */
export interface DeadlineSignal {
  readonly signal: AbortSignal;
  /** True once the timeout (not the caller) aborted the signal. */
  timedOut(): boolean;
  /** Clears the timer and detaches from the caller's signal; call it when the request is over. */
  dispose(): void;
}

export function deadlineSignal(parent: AbortSignal | undefined, timeoutMs: number): DeadlineSignal {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, timeoutMs);
  timer.unref();
  const onParentAbort = (): void => controller.abort(parent?.reason);
  if (parent?.aborted) controller.abort(parent.reason);
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}
