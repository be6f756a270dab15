/**
 * Problems in a cloud-config file (`--cloud-config`). Every problem names the file and, when it
 * is about a place in the file, the 1-based line. Parsers collect every problem before throwing
 * one `CloudConfigError` carrying all of them, so users fix their file in one round.
 */
export interface CloudConfigProblem {
  fileName: string;
  /** 1-based line; absent for whole-file problems (missing file, required key not set). */
  line?: number;
  message: string;
}

/**
 * Longest message printed whole: messages quote the offending value, and a value may be a
 * megabyte long (a pasted blob, a truncated file); the rest is counted, not printed.
 */
export const MAX_PROBLEM_MESSAGE_LENGTH = 300;

/** At most this many problems are printed; the rest are counted in one last line. */
export const MAX_PRINTED_PROBLEMS = 20;

/** `cloud.conf:12: missing '=' after variable "Zone"` (or `cloud.conf: ...` without a line). */
export function formatCloudConfigProblem(problem: CloudConfigProblem): string {
  const place = problem.line === undefined ? problem.fileName : `${problem.fileName}:${problem.line}`;
  const { message } = problem;
  const shown = message.length <= MAX_PROBLEM_MESSAGE_LENGTH ? message : `${message.slice(0, MAX_PROBLEM_MESSAGE_LENGTH)}... (${message.length - MAX_PROBLEM_MESSAGE_LENGTH} more characters)`;
  return `${place}: ${shown}`;
}

/**
 * One line per problem, at most {@link MAX_PRINTED_PROBLEMS} of them, then `and N more problems
 * in <file>` (random or binary input has a problem on every line).
 */
export function formatCloudConfigProblems(problems: readonly CloudConfigProblem[]): string[] {
  const lines = problems.slice(0, MAX_PRINTED_PROBLEMS).map(formatCloudConfigProblem);
  const rest = problems.length - MAX_PRINTED_PROBLEMS;
  if (rest > 0) lines.push(`${(problems[0] as CloudConfigProblem).fileName}: and ${rest} more problem${rest === 1 ? '' : 's'}`);
  return lines;
}

export class CloudConfigError extends Error {
  /** Never empty. */
  readonly problems: readonly CloudConfigProblem[];

  constructor(problems: CloudConfigProblem | readonly CloudConfigProblem[], options?: { cause?: unknown }) {
    const list: readonly CloudConfigProblem[] = Array.isArray(problems) ? problems : [problems as CloudConfigProblem];
    if (list.length === 0) throw new TypeError('CloudConfigError needs at least one problem');
    super(formatCloudConfigProblems(list).join('\n'), options);
    this.name = 'CloudConfigError';
    this.problems = list;
  }

  /** The file of the first problem. */
  get fileName(): string {
    return (this.problems[0] as CloudConfigProblem).fileName;
  }

  /** The line of the first problem, if it has one. */
  get line(): number | undefined {
    return (this.problems[0] as CloudConfigProblem).line;
  }
}

/** Finds a `CloudConfigError` in `error` or its `cause` chain (factories may get wrapped). */
export function findCloudConfigError(error: unknown): CloudConfigError | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current !== undefined && current !== null && !seen.has(current)) {
    if (current instanceof CloudConfigError) return current;
    seen.add(current);
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
