/**
 * The runtime's Logger: pino underneath, klog-like on the surface.
 * - `format: 'text'` (default) writes klog structured text lines; `'json'` writes one JSON object
 *   per line (`ts` in epoch seconds, `level`, `msg`, `v` for info lines, then the fields), close
 *   to Kubernetes' JSON log format.
 * - `verbose(level, ...)` is written only when `level <= verbosity` (`--v`).
 * - Output goes to stderr (as klog) unless a destination is given.
 * - Field values under secret-looking keys are redacted; Errors are logged as their message.
 */
import { performance } from 'node:perf_hooks';
import { pino, type Logger as PinoLogger } from 'pino';
import { formatKlogLine, type KlogSeverity } from './klog-text-format.js';
import type { LogFields, Logger } from './logger.js';
import { redactLogFields } from './redact-log-fields.js';

export type LogFormat = 'text' | 'json';

export interface LogDestination {
  write(line: string): unknown;
}

export interface CreateLoggerOptions {
  format?: LogFormat;
  /** `--v`; default 0. */
  verbosity?: number;
  /** Default: process.stderr. */
  destination?: LogDestination;
  /** Epoch milliseconds (fractions allowed); default: a microsecond-precision clock. */
  now?: () => number;
  /** Process id shown in text lines; default process.pid. */
  pid?: number;
}

/** A Logger whose verbosity can be changed at runtime. */
export interface RuntimeLogger extends Logger {
  verbosity(): number;
  setVerbosity(level: number): void;
}

interface LogRecord {
  level: KlogSeverity;
  ts: number;
  msg: string;
  v?: number;
  [key: string]: unknown;
}

export function createLogger(options: CreateLoggerOptions = {}): RuntimeLogger {
  const destination = options.destination ?? process.stderr;
  const format = options.format ?? 'text';
  const now = options.now ?? (() => performance.timeOrigin + performance.now());
  const pid = options.pid ?? process.pid;
  const state = { verbosity: options.verbosity ?? 0 };

  const stream =
    format === 'json'
      ? { write: (line: string) => destination.write(line) }
      : { write: (line: string) => destination.write(toKlogText(line, pid)) };

  const root = pino(
    {
      level: 'info',
      base: null,
      messageKey: 'msg',
      timestamp: () => `,"ts":${(now() / 1000).toFixed(6)}`,
      formatters: { level: (label) => ({ level: label }) },
    },
    stream,
  );
  return wrap(root, state);
}

function wrap(target: PinoLogger, state: { verbosity: number }): RuntimeLogger {
  const write = (method: 'info' | 'warn' | 'error', message: string, fields: LogFields | undefined, verbosity?: number): void => {
    const safe = fields === undefined ? {} : redactLogFields(fields);
    if (verbosity !== undefined) safe.v = verbosity;
    target[method](safe, message);
  };
  return {
    error: (message, fields) => write('error', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    info: (message, fields) => write('info', message, fields, 0),
    verbose(level, message, fields) {
      if (level <= state.verbosity) write('info', message, fields, level);
    },
    child: (fields) => wrap(target.child(redactLogFields(fields)), state),
    verbosity: () => state.verbosity,
    setVerbosity(level) {
      state.verbosity = level;
    },
  };
}

function toKlogText(jsonLine: string, pid: number): string {
  const record = JSON.parse(jsonLine) as LogRecord;
  const { level, ts, msg, v: _verbosity, ...rest } = record;
  return formatKlogLine({ severity: level, timeMs: ts * 1000, pid, message: msg, fields: Object.entries(rest) });
}
