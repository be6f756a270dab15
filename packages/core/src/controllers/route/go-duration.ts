/** Go's `time.Duration.String()` for a duration in milliseconds (e.g. `1.5ms`, `2.25s`, `1m3s`). */
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
