/** `pnpm bench soak`: see SOAK_USAGE and docs/performance.md. */
import { parseSoakArguments, SOAK_USAGE, SoakArgumentError, type SoakArguments } from './soak-arguments.js';
import { formatBytes } from './soak-statistics.js';
import { runSoak } from './run-soak.js';

export async function soakCommand(argv: readonly string[]): Promise<number> {
  let options: SoakArguments;
  try {
    options = parseSoakArguments(argv);
  } catch (error) {
    if (!(error instanceof SoakArgumentError)) throw error;
    process.stderr.write(`bench soak: ${error.message}\n\n${SOAK_USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(SOAK_USAGE);
    return 0;
  }
  process.stderr.write(`soak: ${options.minutes} min on ${options.provider}, ${options.nodes} nodes and ${options.services} services churning, error rate ${options.errorRate} (seed ${options.seed})\n`);
  const result = await runSoak(options, (line) => process.stderr.write(`${line}\n`));
  const { verdict } = result;
  const peak = Math.max(...result.samples.map((sample) => sample.rssBytes));
  const worstLag = Math.max(...result.samples.map((sample) => sample.eventLoopLagMaxMs));
  const slope = (value: number | undefined): string => (value === undefined ? 'n/a' : `${formatBytes(value)}/min (${Math.round(value)} B/min)`);
  process.stderr.write(
    [
      '',
      `soak finished: ${options.minutes} min, ${result.samples.length} samples`,
      `churn: ${result.churn.nodesJoined} nodes joined, ${result.churn.nodesLeft} left; ${result.churn.servicesCreated} services created, ${result.churn.servicesUpdated} updated, ${result.churn.servicesDeleted} deleted`,
      `cloud: ${result.cloud.calls} calls, ${result.cloud.throttled} throttled, ${result.cloud.injectedErrors} injected errors`,
      `peak RSS ${formatBytes(peak)}, worst event-loop lag ${worstLag.toFixed(1)} ms`,
      `RSS slope after ${options.warmUpMinutes} min: ${slope(verdict.rssSlopeBytesPerMinute)}; heap slope: ${slope(verdict.heapSlopeBytesPerMinute)} (${verdict.samplesAfterWarmUp} samples)`,
      `${verdict.passed ? 'PASS' : 'FAIL'}: ${verdict.reason}`,
      '',
    ].join('\n'),
  );
  return verdict.passed ? 0 : 1;
}
