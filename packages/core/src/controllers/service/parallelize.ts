/**
 * Bounded concurrency helpers (client-go `workqueue.ParallelizeUntil` and a counting semaphore).
 */

/**
 * Runs `work(0..pieces-1)` with at most `workers` pieces in flight. Stops handing out new pieces
 * once `signal` aborts; resolves when every started piece settled. `work` must not throw (errors
 * are the caller's business, as in Go).
 */
export async function parallelizeUntil(
  workers: number,
  pieces: number,
  work: (piece: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  const runner = async (): Promise<void> => {
    while (next < pieces && !(signal?.aborted ?? false)) {
      const piece = next++;
      await work(piece);
    }
  };
  const count = Math.max(1, Math.min(workers, pieces));
  await Promise.all(Array.from({ length: count }, runner));
}

/** A counting semaphore: `run` waits for a free slot (FIFO), runs `task`, then frees the slot. */
export class Semaphore {
  readonly #limit: number;
  #inUse = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.#limit = Math.max(1, limit);
  }

  get inUse(): number {
    return this.#inUse;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#inUse >= this.#limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#inUse++;
    try {
      return await task();
    } finally {
      const wake = this.#waiting.shift();
      if (wake !== undefined) wake();
      else this.#inUse--;
    }
  }
}
