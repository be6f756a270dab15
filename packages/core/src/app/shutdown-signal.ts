/**
 * Turns SIGTERM/SIGINT (and an optional external AbortSignal) into a shutdown request. A second
 * signal forces: `race()` stops waiting for the drain.
 */
import type { Logger } from '../logging/logger.js';

export class ShutdownSignal {
  /** Resolves on the first signal. */
  readonly requested: Promise<void>;
  readonly #forced: Promise<void>;
  readonly #dispose: () => void;
  #isRequested = false;

  constructor(external: AbortSignal | undefined, handleProcessSignals: boolean, logger: Logger) {
    let request!: () => void;
    let force!: () => void;
    this.requested = new Promise((resolve) => (request = resolve));
    this.#forced = new Promise((resolve) => (force = resolve));
    let count = 0;
    const onSignal = (name: string): void => {
      count += 1;
      if (count === 1) {
        logger.info('Received signal, shutting down', { signal: name });
        this.#isRequested = true;
        request();
      } else {
        logger.warn('Received another signal, not waiting for the shutdown to finish', { signal: name });
        force();
      }
    };
    const onTerm = (): void => onSignal('SIGTERM');
    const onInt = (): void => onSignal('SIGINT');
    const onExternal = (): void => onSignal('abort');
    if (handleProcessSignals) {
      process.on('SIGTERM', onTerm);
      process.on('SIGINT', onInt);
    }
    if (external?.aborted) onExternal();
    else external?.addEventListener('abort', onExternal, { once: true });
    this.#dispose = () => {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      external?.removeEventListener('abort', onExternal);
    };
  }

  /** True once the first signal arrived. */
  get isRequested(): boolean {
    return this.#isRequested;
  }

  /** Waits for `promise` unless a second signal arrives first. */
  race<T>(promise: Promise<T>): Promise<T | undefined> {
    return Promise.race([promise, this.#forced.then(() => undefined)]);
  }

  dispose(): void {
    this.#dispose();
  }
}
