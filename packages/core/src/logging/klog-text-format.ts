/**
 * klog's structured text line: `I1121 22:44:34.123456   12345] "Starting controller" controller="cloud-node-controller"`.
 * Severity letter (I, W, E), month and day, UTC time with microseconds, the process id, then the
 * quoted message and `key=value` pairs (strings quoted, other values as JSON).
 */
export type KlogSeverity = 'info' | 'warn' | 'error';

const LETTERS: Readonly<Record<KlogSeverity, string>> = { info: 'I', warn: 'W', error: 'E' };

export function formatKlogLine(record: {
  severity: KlogSeverity;
  /** Epoch milliseconds, fractions allowed. */
  timeMs: number;
  pid: number;
  message: string;
  fields: ReadonlyArray<readonly [string, unknown]>;
}): string {
  const date = new Date(Math.floor(record.timeMs));
  const microseconds = Math.floor((record.timeMs - Math.floor(record.timeMs / 1000) * 1000) * 1000);
  const header =
    LETTERS[record.severity] +
    pad(date.getUTCMonth() + 1) +
    pad(date.getUTCDate()) +
    ' ' +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${String(microseconds).padStart(6, '0')}` +
    ' ' +
    String(record.pid).padStart(7, ' ') +
    ']';
  let line = `${header} ${JSON.stringify(record.message)}`;
  for (const [key, value] of record.fields) line += ` ${key}=${formatKlogValue(value)}`;
  return `${line}\n`;
}

export function formatKlogValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return '<nil>';
  return JSON.stringify(value) ?? String(value);
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
