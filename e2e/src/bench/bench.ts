#!/usr/bin/env node
// `pnpm bench`: the scale benchmark of the sandbox CCM (see BENCH_USAGE and docs/performance.md).
import { BENCH_USAGE, BenchArgumentError, parseBenchArguments, type BenchArguments } from './bench-arguments.js';
import { benchJson, checkTargets, describeMachine, formatReport } from './bench-report.js';
import { runBench } from './run-bench.js';
import { soakCommand } from './soak.js';

async function main(): Promise<number> {
  if (process.argv[2] === 'soak') return soakCommand(process.argv.slice(3));
  let options: BenchArguments;
  try {
    options = parseBenchArguments(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof BenchArgumentError)) throw error;
    process.stderr.write(`bench: ${error.message}\n\n${BENCH_USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(BENCH_USAGE);
    return 0;
  }
  // Ctrl-C: exit now; the harness's exit hook kills the CCM child so none is left behind.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(signal === 'SIGINT' ? 130 : 143));
  const machine = describeMachine();
  const started = performance.now();
  const results = await runBench(options, (line) => process.stderr.write(`${line}\n`));
  process.stderr.write(`\n${formatReport(results, machine)}\n\nfinished in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  if (options.json) process.stdout.write(`${JSON.stringify(benchJson(results, machine), null, 2)}\n`);
  const missed = results.flatMap((result) => checkTargets(result).filter((check) => !check.met).map((check) => `${result.scenario} ${check.metric}`));
  if (missed.length > 0) process.stderr.write(`targets missed: ${missed.join(', ')}\n`);
  return 0;
}

process.exitCode = await main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
});
