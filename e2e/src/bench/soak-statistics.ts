/** The soak's arithmetic: least-squares slope of memory over time, and the minute summaries. */

export interface MemorySample {
  /** Minutes since the soak started. */
  minute: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** Event-loop delay over the sampling period (ms). */
  eventLoopLagP99Ms: number;
  eventLoopLagMaxMs: number;
}

/**
 * Ordinary least-squares slope of `y` over `x` (units of y per unit of x). Undefined with fewer
 * than two distinct x values.
 */
export function leastSquaresSlope(points: readonly { x: number; y: number }[]): number | undefined {
  if (points.length < 2) return undefined;
  const meanX = points.reduce((sum, point) => sum + point.x, 0) / points.length;
  const meanY = points.reduce((sum, point) => sum + point.y, 0) / points.length;
  let covariance = 0;
  let varianceX = 0;
  for (const { x, y } of points) {
    covariance += (x - meanX) * (y - meanY);
    varianceX += (x - meanX) ** 2;
  }
  return varianceX === 0 ? undefined : covariance / varianceX;
}

export interface SoakVerdict {
  /** RSS slope over the samples after the warm-up, bytes per minute. */
  rssSlopeBytesPerMinute: number | undefined;
  heapSlopeBytesPerMinute: number | undefined;
  /** Samples the slope was computed from. */
  samplesAfterWarmUp: number;
  passed: boolean;
  reason: string;
}

/**
 * The soak passes when the RSS slope after `warmUpMinutes` is at most `maxSlopeBytesPerMinute`.
 * Too few samples after the warm-up (the run was too short) fails: no slope, no verdict.
 */
export function judgeSoak(samples: readonly MemorySample[], warmUpMinutes: number, maxSlopeBytesPerMinute: number): SoakVerdict {
  const after = samples.filter((sample) => sample.minute >= warmUpMinutes);
  const rssSlope = leastSquaresSlope(after.map((sample) => ({ x: sample.minute, y: sample.rssBytes })));
  const heapSlope = leastSquaresSlope(after.map((sample) => ({ x: sample.minute, y: sample.heapUsedBytes })));
  const base = { rssSlopeBytesPerMinute: rssSlope, heapSlopeBytesPerMinute: heapSlope, samplesAfterWarmUp: after.length };
  if (rssSlope === undefined || after.length < 3) {
    return { ...base, passed: false, reason: `only ${after.length} samples after the ${warmUpMinutes}-minute warm-up: run longer` };
  }
  if (rssSlope > maxSlopeBytesPerMinute) {
    return { ...base, passed: false, reason: `RSS grows ${formatBytes(rssSlope)}/min after the warm-up, over the ${formatBytes(maxSlopeBytesPerMinute)}/min threshold` };
  }
  return { ...base, passed: true, reason: `RSS slope ${formatBytes(rssSlope)}/min is within the ${formatBytes(maxSlopeBytesPerMinute)}/min threshold` };
}

export function formatBytes(bytes: number): string {
  const sign = bytes < 0 ? '-' : '';
  const magnitude = Math.abs(bytes);
  if (magnitude >= 1024 * 1024) return `${sign}${(magnitude / 1024 / 1024).toFixed(1)} MiB`;
  if (magnitude >= 1024) return `${sign}${(magnitude / 1024).toFixed(1)} KiB`;
  return `${sign}${magnitude.toFixed(0)} B`;
}
