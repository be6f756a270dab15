/** Timing helpers of the controller-manager runtime (the abortable sleep lives in util/). */

/** client-go `wait.Jitter(duration, maxFactor)`: duration + random × maxFactor × duration. */
export function jitter(durationMs: number, maxFactor: number, random: () => number = Math.random): number {
  return durationMs + random() * maxFactor * durationMs;
}

/** Waits for `promise` (its outcome ignored) but at most `milliseconds`. */
export async function waitAtMost(promise: Promise<unknown>, milliseconds: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, milliseconds);
  });
  try {
    await Promise.race([promise.then(
      () => undefined,
      () => undefined,
    ), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
