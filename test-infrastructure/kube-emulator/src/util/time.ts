/** Kubernetes time formats: metav1.Time (RFC 3339, whole seconds, UTC) and metav1.MicroTime (6 fraction digits). */

const rfc3339Pattern = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

export function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export function formatMicroTime(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000Z`;
}

export type TimePrecision = 'seconds' | 'microseconds';

/**
 * Normalises a client-supplied timestamp the way the apiserver's JSON codec does: parsed as
 * RFC 3339, converted to UTC and re-rendered (fractions truncated for seconds precision).
 * Returns an error message when the value is not a valid RFC 3339 time.
 */
export function normalizeTimestamp(value: string, precision: TimePrecision): { value: string } | { error: string } {
  const match = rfc3339Pattern.exec(value);
  const parsed = match ? Date.parse(`${match[1]}${match[3]}`) : Number.NaN;
  if (!match || Number.isNaN(parsed)) {
    return { error: `parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(value)} as RFC 3339` };
  }
  const base = new Date(parsed).toISOString().slice(0, 19);
  if (precision === 'seconds') return { value: `${base}Z` };
  const fraction = (match[2] ?? '.').slice(1).padEnd(6, '0').slice(0, 6);
  return { value: `${base}.${fraction}Z` };
}

/**
 * A duration the way kubectl prints ages: "45s", "3m12s", "5h", "12d", "2y30d".
 * Mirrors the rounding rules of apimachinery's HumanDuration.
 */
export function humanDuration(milliseconds: number): string {
  const seconds = Math.floor(milliseconds / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const rest = seconds % 60;
    return rest === 0 ? `${minutes}m` : `${minutes}m${rest}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) {
    const rest = minutes % 60;
    return rest === 0 ? `${hours}h` : `${hours}h${rest}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const rest = hours % 24;
    return rest === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${rest}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.floor(hours / 24) % 365;
    return days === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${days}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}
