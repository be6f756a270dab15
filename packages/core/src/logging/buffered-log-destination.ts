/**
 * A log destination that gathers the lines written during one turn of the event loop and hands
 * them to the real destination in one write at the end of it (`setImmediate`), instead of one
 * synchronous write per line. A storm of 5,000 node initializations logs two lines per node; on a
 * pipe (how the container runtime reads stderr) each line was a blocking `write(2)`.
 *
 * Lines are never lost or reordered: they leave in the order written, `flush()` writes what is
 * pending at once, and the pending lines are flushed synchronously when the process exits
 * (`exit`, also after `process.exit()`) and before an uncaught exception is reported
 * (`uncaughtExceptionMonitor`), so a crash's own report comes after the lines logged before it.
 */
import type { LogDestination } from './create-logger.js';

export interface BufferedLogDestinationOptions {
  /** Runs the flush later; default `setImmediate` (the end of the current event loop turn). */
  schedule?: (flush: () => void) => void;
  /** Where the exit hooks are installed; default `process`. Tests pass an emitter. */
  exitHooks?: Pick<NodeJS.EventEmitter, 'on' | 'off'>;
}

const EXIT_EVENTS = ['exit', 'uncaughtExceptionMonitor'] as const;

export class BufferedLogDestination implements LogDestination {
  readonly #target: LogDestination;
  readonly #schedule: (flush: () => void) => void;
  readonly #exitHooks: Pick<NodeJS.EventEmitter, 'on' | 'off'>;
  readonly #flushOnExit = (): void => this.flush();
  #pending: string[] = [];
  #scheduled = false;
  #closed = false;

  constructor(target: LogDestination, options: BufferedLogDestinationOptions = {}) {
    this.#target = target;
    this.#schedule = options.schedule ?? ((flush) => setImmediate(flush));
    this.#exitHooks = options.exitHooks ?? process;
    for (const event of EXIT_EVENTS) this.#exitHooks.on(event, this.#flushOnExit);
  }

  /** The destination the lines go to. */
  get target(): LogDestination {
    return this.#target;
  }

  write(line: string): boolean {
    if (this.#closed) {
      this.#target.write(line);
      return true;
    }
    this.#pending.push(line);
    if (!this.#scheduled) {
      this.#scheduled = true;
      this.#schedule(() => {
        this.#scheduled = false;
        this.flush();
      });
    }
    return true;
  }

  /** Writes the pending lines now, in one write. */
  flush(): void {
    if (this.#pending.length === 0) return;
    const text = this.#pending.length === 1 ? (this.#pending[0] as string) : this.#pending.join('');
    this.#pending = [];
    this.#target.write(text);
  }

  /** Flushes, removes the exit hooks and writes every later line straight through. Idempotent. */
  close(): void {
    this.flush();
    if (this.#closed) return;
    this.#closed = true;
    for (const event of EXIT_EVENTS) this.#exitHooks.off(event, this.#flushOnExit);
  }
}
