/**
 * Loaded into the CCM process by the soak (`node --import <this file>`): every
 * `SOAK_PROBE_INTERVAL_MS` it appends one JSON line to `SOAK_PROBE_FILE` with the process's RSS,
 * heap and event-loop delay over the period. It only reads process statistics; the timer is
 * unref'd so it never keeps the CCM alive.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env['SOAK_PROBE_FILE'];
const intervalMs = Number(process.env['SOAK_PROBE_INTERVAL_MS'] ?? '10000');

if (file !== undefined && file !== '' && intervalMs > 0) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  setInterval(() => {
    const memory = process.memoryUsage();
    const line = {
      elapsedMs: Math.round(performance.now() - started),
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      eventLoopLagP99Ms: delay.percentile(99) / 1e6,
      eventLoopLagMaxMs: delay.max / 1e6,
    };
    delay.reset();
    try {
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch {
      // The soak reads what it can; a full disk must not take the CCM down.
    }
  }, intervalMs).unref();
}
