/**
 * klog's text line, header and structured payload:
 *
 *   I1121 22:44:34.123456    4242 service-controller.ts:97] "Starting controller" controller="service"
 *
 * The header is klog's `formatHeader` (k8s.io/klog/v2 klog.go; internal/buffer): the severity
 * letter (I, W, E, F), month and day, the time with microseconds, the process id right-aligned in
 * 7 columns (klog calls it threadid and prints the pid), the call site's file basename and line,
 * then `] `. The payload is klog's `KVListFormat` (internal/serialize): the message with `%q`,
 * then ` key=value` pairs; strings (and errors, as their message) with `%q`, except strings that
 * contain a line break, which klog writes as `key=<` then each line after a tab, then ` >`.
 * Other values: numbers and booleans as Go prints them, undefined as `<nil>`, objects as JSON.
 * Times are UTC (klog prints the local time; the images run in UTC).
 */
import { goQuote } from './go-quote.js';

export type KlogSeverity = 'info' | 'warn' | 'error' | 'fatal';

const LETTERS: Readonly<Record<KlogSeverity, string>> = { info: 'I', warn: 'W', error: 'E', fatal: 'F' };

export interface KlogRecord {
  severity: KlogSeverity;
  /** Epoch milliseconds, fractions allowed. */
  timeMs: number;
  pid: number;
  /** The call site: file basename and line (klog's `file:line`). */
  file: string;
  line: number;
  message: string;
  fields: ReadonlyArray<readonly [string, unknown]>;
}

export function formatKlogHeader(record: Pick<KlogRecord, 'severity' | 'timeMs' | 'pid' | 'file' | 'line'>): string {
  const wholeMs = Math.floor(record.timeMs);
  const date = new Date(wholeMs);
  const microseconds = Math.floor((record.timeMs - Math.floor(record.timeMs / 1000) * 1000) * 1000);
  return (
    LETTERS[record.severity] +
    pad2(date.getUTCMonth() + 1) +
    pad2(date.getUTCDate()) +
    ' ' +
    `${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())}.${String(microseconds).padStart(6, '0')}` +
    ' ' +
    String(record.pid).padStart(7, ' ') +
    ' ' +
    `${record.file}:${record.line}] `
  );
}

export function formatKlogLine(record: KlogRecord): string {
  let line = formatKlogHeader(record) + goQuote(record.message);
  for (const [key, value] of record.fields) line += ` ${key}=${formatKlogValue(value)}`;
  return `${line}\n`;
}

/** One value of a `key=value` pair, as klog's text format writes it. */
export function formatKlogValue(value: unknown): string {
  if (typeof value === 'string') return formatKlogString(value);
  if (value === undefined || value === null) return '<nil>';
  if (typeof value === 'number') return formatGoNumber(value);
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Error) return formatKlogString(value.message === '' ? value.name : value.message);
  return JSON.stringify(value) ?? String(value);
}

/** klog's `writeStringValue`: `%q`, or the multi-line form for strings with a line break. */
function formatKlogString(value: string): string {
  if (!value.includes('\n')) return goQuote(value);
  const lines = value.split('\n');
  const last = lines.pop() as string;
  let text = '<\n';
  for (const line of lines) text += `\t${line}\n`;
  // A value that ends with a line break gets no extra line.
  if (last !== '') text += `\t${last}\n`;
  return `${text} >`;
}

/**
 * Go's `%v` of a number: integers as Go ints; other values as a float64 (`%g` with the shortest
 * digits: the exponent form when the exponent is below -4 or at least 6, unless every digit fits).
 */
function formatGoNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  if (Number.isInteger(value)) return Math.abs(value) < 1e21 ? String(value) : BigInt(value).toString();
  const [mantissa, power] = value.toExponential().split('e') as [string, string];
  const exponent = Number(power);
  const digits = mantissa.replace(/^-/, '').replace('.', '').length;
  let exponentLimit = 6;
  if (exponentLimit > digits && digits >= exponent + 1) exponentLimit = digits;
  if (exponent < -4 || exponent >= exponentLimit) return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  return String(value);
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}
