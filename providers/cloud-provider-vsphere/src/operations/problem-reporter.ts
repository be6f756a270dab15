/**
 * Logs each runtime problem once per change instead of once per failing call: a wrong password
 * or an unknown datacenter fails every node sync, and repeating the same stack trace on every
 * sync only hides it. A problem is keyed (`vcenter "vc1": login`); it is logged as an error
 * when it appears or its message changes, and an info line says when it is gone.
 */
import type { Logger } from '@ccm/core/logging';

export class ProblemReporter {
  readonly #logger: Logger;
  readonly #active = new Map<string, string>();

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Records a problem; logs it unless the same message is already active for the key. */
  report(key: string, message: string, fields: Record<string, unknown> = {}): void {
    if (this.#active.get(key) === message) return;
    this.#active.set(key, message);
    this.#logger.error(message, { problem: key, ...fields });
  }

  /** Clears a problem; logs that it is resolved if it was active. */
  resolve(key: string): void {
    if (!this.#active.has(key)) return;
    this.#active.delete(key);
    this.#logger.info('Problem resolved', { problem: key });
  }

  /** Clears every problem whose key starts with `prefix`. */
  resolvePrefix(prefix: string): void {
    for (const key of [...this.#active.keys()]) if (key.startsWith(prefix)) this.resolve(key);
  }

  active(): ReadonlyMap<string, string> {
    return this.#active;
  }
}
