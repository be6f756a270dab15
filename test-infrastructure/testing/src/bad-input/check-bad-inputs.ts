/**
 * Runs a parser over a seeded stream of bad inputs and checks its contract on each: it returns,
 * or throws the format's typed error whose message names the input, within a time limit, with no
 * stack trace in the message. Anything else (another exception, a message without the input's
 * name, a parse slower than the limit) fails with the seed, the path and the smallest case.
 */
import fc from 'fast-check';
import { badInputArbitrary, type BadInput, type BadInputFormat } from './bad-input-arbitrary.js';

export interface BadInputContract {
  /** Parses `text` as the file `fileName`; throws on a bad input. */
  parse(text: string, fileName: string): unknown;
  /** Whether `error` is the format's typed error (e.g. `instanceof CloudConfigError`). */
  isExpectedError(error: unknown): boolean;
  /** The error's message (default `error.message`). */
  messageOf?(error: unknown): string;
}

export interface BadInputRunOptions {
  seed: number;
  /** Cases to run. Default: `BAD_INPUT_RUNS` from the environment, else 2000. */
  numRuns?: number;
  /** The most CPU time one parse may use (default 2000 ms). */
  timeLimitMs?: number;
  hugeBytes?: number;
}

export interface BadInputRunSummary {
  cases: number;
  rejected: number;
  accepted: number;
  byKind: Record<string, number>;
  /** CPU time of the slowest case. */
  slowestMs: number;
}

/** `BAD_INPUT_RUNS` or 2000. */
export function badInputRuns(): number {
  const fromEnvironment = Number(process.env['BAD_INPUT_RUNS']);
  return Number.isInteger(fromEnvironment) && fromEnvironment > 0 ? fromEnvironment : 2000;
}

/** The contract's verdict on one case: undefined when it holds, else why not. */
export function badInputViolation(contract: BadInputContract, input: BadInput, fileName: string, timeLimitMs: number): { violation?: string; rejected: boolean; elapsedMs: number } {
  // CPU time, not wall time: a parse is synchronous, and on a shared machine the wall clock
  // measures the neighbours; a quadratic parser or a hang burns CPU either way.
  const started = process.cpuUsage();
  let thrown: unknown;
  let threw = false;
  try {
    contract.parse(input.text, fileName);
  } catch (error) {
    threw = true;
    thrown = error;
  }
  const used = process.cpuUsage(started);
  const elapsedMs = (used.user + used.system) / 1000;
  if (elapsedMs > timeLimitMs) return { violation: `took ${elapsedMs.toFixed(0)} ms of CPU (limit ${timeLimitMs} ms)`, rejected: threw, elapsedMs };
  if (!threw) return { rejected: false, elapsedMs };
  if (!contract.isExpectedError(thrown)) {
    const described = thrown instanceof Error ? `${thrown.name}: ${thrown.message.slice(0, 300)}` : String(thrown);
    return { violation: `threw an unexpected ${described}`, rejected: true, elapsedMs };
  }
  const message = contract.messageOf ? contract.messageOf(thrown) : (thrown as Error).message;
  if (!message.includes(fileName)) return { violation: `message does not name ${fileName}: ${message.slice(0, 300)}`, rejected: true, elapsedMs };
  if (/\n\s+at /.test(message)) return { violation: `message carries a stack trace: ${message.slice(0, 300)}`, rejected: true, elapsedMs };
  return { rejected: true, elapsedMs };
}

/** Runs the corpus; throws (with fast-check's seed and counterexample) on the first violation. */
export function checkBadInputs(format: BadInputFormat, contract: BadInputContract, fileName: string, options: BadInputRunOptions): BadInputRunSummary {
  const summary: BadInputRunSummary = { cases: 0, rejected: 0, accepted: 0, byKind: {}, slowestMs: 0 };
  const timeLimitMs = options.timeLimitMs ?? 2000;
  fc.assert(
    fc.property(badInputArbitrary(format, options.hugeBytes === undefined ? {} : { hugeBytes: options.hugeBytes }), (input) => {
      const outcome = badInputViolation(contract, input, fileName, timeLimitMs);
      summary.cases += 1;
      summary.byKind[input.kind] = (summary.byKind[input.kind] ?? 0) + 1;
      if (outcome.rejected) summary.rejected += 1;
      else summary.accepted += 1;
      summary.slowestMs = Math.max(summary.slowestMs, outcome.elapsedMs);
      if (outcome.violation !== undefined) throw new Error(`${input.kind} input (${input.text.length} characters): ${outcome.violation}`);
    }),
    { seed: options.seed, numRuns: options.numRuns ?? badInputRuns(), endOnFailure: true },
  );
  return summary;
}
