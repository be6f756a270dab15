/**
 * component-base's JSON line (k8s.io/component-base/logs/json: zap's JSON encoder with
 * `TimeKey: "ts"` as epoch milliseconds with fractions, `CallerKey: "caller"` in zap's short form
 * `dir/file:line`, `MessageKey: "msg"`, no level key; zapr with `LogInfoLevel("v")` and
 * `ErrorKey("err")`):
 *
 *   {"ts":1795301074123.456,"caller":"service/service-controller.ts:97","msg":"Starting","controller":"service","v":0,"workers":2}
 *
 * Order: `ts`, `caller`, `msg`, the logger's context fields (`child`), then `v` (info lines, and
 * warnings, which klog writes through the info path), the call's fields, and `err` last on error
 * lines (zapr appends the error). Error lines carry no `v`.
 */
export interface JsonLogRecord {
  /** Epoch milliseconds, fractions allowed. */
  timeMs: number;
  /** zap's short caller: `dir/file.ts:123`. */
  caller: string;
  message: string;
  contextFields: ReadonlyArray<readonly [string, unknown]>;
  /** Undefined on error lines. */
  verbosity: number | undefined;
  fields: ReadonlyArray<readonly [string, unknown]>;
  /** The error of an error line (its message). */
  error?: string;
}

export function formatJsonLogLine(record: JsonLogRecord): string {
  let line = `{"ts":${formatTimestamp(record.timeMs)},"caller":${JSON.stringify(record.caller)},"msg":${JSON.stringify(record.message)}`;
  for (const [key, value] of record.contextFields) line += `,${JSON.stringify(key)}:${jsonValue(value)}`;
  if (record.verbosity !== undefined) line += `,"v":${record.verbosity}`;
  for (const [key, value] of record.fields) line += `,${JSON.stringify(key)}:${jsonValue(value)}`;
  if (record.error !== undefined) line += `,"err":${JSON.stringify(record.error)}`;
  return `${line}}\n`;
}

function formatTimestamp(timeMs: number): string {
  return Number.isFinite(timeMs) ? String(timeMs) : '0';
}

function jsonValue(value: unknown): string {
  if (value === undefined) return 'null';
  if (typeof value === 'number' && !Number.isFinite(value)) return JSON.stringify(String(value));
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? 'null';
}
