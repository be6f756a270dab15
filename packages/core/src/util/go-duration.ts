/**
 * Go `time.Duration` text, as kube flags take it: `300ms`, `5s`, `1m30s`, `1.5h`, `0`.
 * Values are milliseconds here (fractions for sub-millisecond units).
 */
const UNIT_IN_NANOSECONDS: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  'µs': 1e3, // U+00B5 micro sign
  'μs': 1e3, // U+03BC Greek mu
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** Parses Go duration syntax into milliseconds; throws with Go's wording on bad input. */
export function parseGoDuration(text: string): number {
  const invalid = () => new Error(`time: invalid duration ${JSON.stringify(text)}`);
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    if (rest.startsWith('-')) sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw invalid();
  let nanoseconds = 0;
  while (rest !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(rest);
    const whole = number?.[1] ?? '';
    const fraction = number?.[2];
    if (whole === '' && (fraction === undefined || fraction === '')) throw invalid();
    rest = rest.slice((number?.[0] ?? '').length);
    const unit = /^[^\d.]+/.exec(rest)?.[0];
    if (unit === undefined) throw new Error(`time: missing unit in duration ${JSON.stringify(text)}`);
    const scale = UNIT_IN_NANOSECONDS[unit];
    if (scale === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(text)}`);
    rest = rest.slice(unit.length);
    nanoseconds += Number(`${whole === '' ? '0' : whole}.${fraction === undefined || fraction === '' ? '0' : fraction}`) * scale;
  }
  if (nanoseconds > Number.MAX_SAFE_INTEGER * 1e3) throw invalid();
  return (sign * Math.round(nanoseconds)) / 1e6;
}

/** Go's `time.Duration.String()` for a duration in milliseconds: `0s`, `300ms`, `1.5µs`, `1m30s`, `12h0m0s`. */
export function formatGoDuration(milliseconds: number): string {
  let nanoseconds = Math.round(milliseconds * 1e6);
  if (nanoseconds === 0) return '0s';
  const negative = nanoseconds < 0;
  if (negative) nanoseconds = -nanoseconds;
  const sign = negative ? '-' : '';
  const fraction = (value: number, unit: number): string => {
    const whole = Math.floor(value / unit);
    const rest = value % unit;
    if (rest === 0) return String(whole);
    const digits = String(unit).length - 1;
    return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
  };
  if (nanoseconds < 1_000) return `${sign}${nanoseconds}ns`;
  if (nanoseconds < 1_000_000) return `${sign}${fraction(nanoseconds, 1_000)}µs`;
  if (nanoseconds < 1_000_000_000) return `${sign}${fraction(nanoseconds, 1_000_000)}ms`;
  const totalSeconds = Math.floor(nanoseconds / 1_000_000_000);
  const secondsNanos = nanoseconds % 60_000_000_000;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  let text = `${fraction(secondsNanos, 1_000_000_000)}s`;
  if (hours > 0 || minutes > 0) text = `${minutes}m${text}`;
  if (hours > 0) text = `${hours}h${text}`;
  return `${sign}${text}`;
}
