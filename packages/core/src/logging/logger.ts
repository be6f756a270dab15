/**
 * The logging port every component receives. The runtime backs it with klog text or
 * component-base JSON lines (`--logging-format`), verbosity from `--v`. Fields must never contain secrets.
 */
export type LogFields = Record<string, unknown>;

export interface Logger {
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  /** klog-style verbosity: logged only when `--v` >= level. */
  verbose(level: number, message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

/** A logger that drops everything; for tests and library defaults. */
export const silentLogger: Logger = {
  error() {},
  warn() {},
  info() {},
  verbose() {},
  child() {
    return silentLogger;
  },
};
