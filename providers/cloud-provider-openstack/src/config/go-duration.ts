/** Go's `time.ParseDuration` (upstream `util.MyDuration` keys such as `monitor-delay = 5s`), in milliseconds. */
const UNIT_MS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `1h30m` -> 5400000; `0` -> 0; undefined for anything Go would refuse. */
export function parseGoDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '0' || trimmed === '+0' || trimmed === '-0') return 0;
  const match = /^([+-]?)((?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/.exec(trimmed);
  if (!match) return undefined;
  let total = 0;
  for (const part of (match[2] as string).matchAll(/(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    total += Number(part[1]) * (UNIT_MS[part[2] as string] as number);
  }
  return match[1] === '-' ? -total : total;
}
