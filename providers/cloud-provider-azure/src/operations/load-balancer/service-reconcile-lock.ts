/**
 * Upstream's `serviceReconcileLock`: one load balancer reconcile at a time (ensure, update,
 * delete) in the whole provider. Every Service of a cluster shares its load balancer and public IPs
 * are released by listing them, so a node sync's update running beside a Service's delete could
 * recreate what the delete had just removed (a chaos run leaked a public IP that way). Waiters
 * go in arrival order; a waiter whose signal aborts leaves the line with the abort reason.
 */
export class ServiceReconcileLock {
  #tail: Promise<void> = Promise.resolve();

  /** Runs `body` once every reconcile that asked before it has finished. */
  async run<T>(body: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const before = this.#tail;
    this.#tail = before.then(() => mine);
    try {
      await waitUnlessAborted(before, signal);
      return await body();
    } finally {
      release();
    }
  }
}

function waitUnlessAborted(turn: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return turn;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    void turn.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted while waiting for the service reconcile lock');
}
