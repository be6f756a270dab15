/**
 * When the route controller reconciles: a non-sliding period counted from the start of each run
 * (upstream `wait.NonSlidingUntil`, the first run right away), plus early runs requested by node
 * events, never more than one per `minRequestIntervalMs` after the previous start (the
 * watch-based gate's 1-per-10 s bucket). Runs never overlap; requests during a run are kept.
 */
export interface ReconcileSchedulerOptions {
  periodMs: number;
  minRequestIntervalMs: number;
  /** One reconcile; must not throw (errors are the caller's to log). */
  run: () => Promise<void>;
}

export class ReconcileScheduler {
  readonly #options: ReconcileSchedulerOptions;
  #requested = false;
  #wake: (() => void) | undefined;

  constructor(options: ReconcileSchedulerOptions) {
    this.#options = options;
  }

  /** Asks for an early reconcile (coalesced with other requests). */
  request(): void {
    this.#requested = true;
    this.#wake?.();
  }

  /** Runs until `signal` aborts; resolves after the current run finished. */
  async loop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const start = Date.now();
      this.#requested = false;
      await this.#options.run();
      await this.#waitForNextRun(start, signal);
    }
  }

  async #waitForNextRun(start: number, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const periodDeadline = start + this.#options.periodMs;
      const deadline = this.#requested ? Math.min(periodDeadline, start + this.#options.minRequestIntervalMs) : periodDeadline;
      const delay = deadline - Date.now();
      if (delay <= 0) return;
      const woken = await new Promise<boolean>((resolve) => {
        const finish = (wokenEarly: boolean): void => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          this.#wake = undefined;
          resolve(wokenEarly);
        };
        const onAbort = (): void => finish(false);
        const timer = setTimeout(() => finish(false), delay);
        signal.addEventListener('abort', onAbort, { once: true });
        this.#wake = () => finish(true);
      });
      if (!woken) return;
    }
  }
}
