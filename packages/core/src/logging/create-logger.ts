/**
 * The runtime's Logger, writing what klog and component-base write:
 * - `format: 'text'` (default): klog text lines, `I1121 22:44:34.123456    4242 file.ts:97] "msg" key="value"`
 *   (`klog-text-format.ts`);
 * - `format: 'json'`: component-base JSON lines, `{"ts":…,"caller":"dir/file.ts:97","msg":"…","v":0,…}`
 *   (`json-log-format.ts`).
 * The call site (`file:line`, `caller`) is read from a stack trace at the call, only for lines that
 * are written (`call-site.ts`). `verbose(level, ...)` is written only when `level <= verbosity`
 * (`--v`, changeable at run time: `/debug/flags/v`). Output goes to stderr (as klog) unless a
 * destination is given, one synchronous write per line. Field values under secret-looking keys
 * are redacted; Errors are logged as their message.
 */
import { performance } from 'node:perf_hooks';
import { callSiteOf } from './call-site.js';
import { formatJsonLogLine } from './json-log-format.js';
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
  /** Process id shown in text lines (klog's threadid); default process.pid. */
  pid?: number;
}

/** A Logger whose verbosity can be changed at runtime. */
export interface RuntimeLogger extends Logger {
  verbosity(): number;
  setVerbosity(level: number): void;
}

interface LoggerState {
  verbosity: number;
  readonly format: LogFormat;
  readonly destination: LogDestination;
  readonly now: () => number;
  readonly pid: number;
}

type Entries = ReadonlyArray<readonly [string, unknown]>;

export function createLogger(options: CreateLoggerOptions = {}): RuntimeLogger {
  const state: LoggerState = {
    verbosity: options.verbosity ?? 0,
    format: options.format ?? 'text',
    destination: options.destination ?? process.stderr,
    now: options.now ?? (() => performance.timeOrigin + performance.now()),
    pid: options.pid ?? process.pid,
  };
  return loggerWith(state, []);
}

function loggerWith(state: LoggerState, context: Entries): RuntimeLogger {
  function error(message: string, fields?: LogFields): void {
    write(state, context, 'error', undefined, message, fields, error);
  }
  function warn(message: string, fields?: LogFields): void {
    write(state, context, 'warn', 0, message, fields, warn);
  }
  function info(message: string, fields?: LogFields): void {
    write(state, context, 'info', 0, message, fields, info);
  }
  function verbose(level: number, message: string, fields?: LogFields): void {
    if (level <= state.verbosity) write(state, context, 'info', level, message, fields, verbose);
  }
  return {
    error,
    warn,
    info,
    verbose,
    child: (fields) => loggerWith(state, [...context, ...Object.entries(redactLogFields(fields))]),
    verbosity: () => state.verbosity,
    setVerbosity(level) {
      state.verbosity = level;
    },
  };
}

function write(
  state: LoggerState,
  context: Entries,
  severity: KlogSeverity,
  verbosity: number | undefined,
  message: string,
  fields: LogFields | undefined,
  boundary: (...args: never[]) => unknown,
): void {
  const callSite = callSiteOf(boundary);
  const timeMs = state.now();
  let entries: Array<[string, unknown]> = fields === undefined ? [] : Object.entries(redactLogFields(fields));
  if (state.format === 'json') {
    // zapr appends the error of an error line after the other fields.
    let errorText: string | undefined;
    if (severity === 'error') {
      const errorEntry = entries.find(([key]) => key === 'err');
      if (errorEntry !== undefined) {
        errorText = typeof errorEntry[1] === 'string' ? errorEntry[1] : JSON.stringify(errorEntry[1]);
        entries = entries.filter(([key]) => key !== 'err');
      }
    }
    state.destination.write(
      formatJsonLogLine({
        timeMs,
        caller: `${callSite.shortFile}:${callSite.line}`,
        message,
        contextFields: context,
        verbosity,
        fields: entries,
        ...(errorText === undefined ? {} : { error: errorText }),
      }),
    );
    return;
  }
  // klog's ErrorS writes `err` first, then the logger's values, then the call's.
  const errorEntries = severity === 'error' ? entries.filter(([key]) => key === 'err') : [];
  const rest = errorEntries.length === 0 ? entries : entries.filter(([key]) => key !== 'err');
  state.destination.write(
    formatKlogLine({ severity, timeMs, pid: state.pid, file: callSite.file, line: callSite.line, message, fields: [...errorEntries, ...context, ...rest] }),
  );
}
