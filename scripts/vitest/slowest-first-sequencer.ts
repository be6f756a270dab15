/**
 * The order in which the test files reach the workers: the files that run in their own process
 * first, then those that share one; within each, the slowest first. The workers take files from
 * the front of this queue, so a long file never starts last and leaves the other worker idle
 * (longest-processing-time-first scheduling). A file's seconds come from vitest's results cache of
 * an earlier run on this machine when there is one, else from the checked-in
 * test-file-seconds.json (a clean clone has no cache; refresh the list with
 * `node scripts/vitest/record-test-file-seconds.mjs` after a full run), else 0.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const TEST_FILE_SECONDS_PATH = new URL('./test-file-seconds.json', import.meta.url);

export interface QueuedFile<T> {
  file: T;
  /** 0 for files that run in their own process, 1 for files that share a worker process. */
  group: number;
  seconds: number;
}

/** Stable: files of equal group and seconds keep the order they came in. */
export function orderSlowestFirst<T>(files: ReadonlyArray<QueuedFile<T>>): T[] {
  return files
    .map((entry, index) => ({ ...entry, index }))
    .sort((a, b) => a.group - b.group || b.seconds - a.seconds || a.index - b.index)
    .map((entry) => entry.file);
}

/** The checked-in seconds per file (relative path with forward slashes). */
export function parseTestFileSeconds(text: string, source: string): ReadonlyMap<string, number> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: not JSON: ${(error as Error).message}`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw new Error(`${source}: expected an object of "path": seconds`);
  const seconds = new Map<string, number>();
  for (const [path, value] of Object.entries(document)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error(`${source}: "${path}" must be a non-negative number of seconds, got ${JSON.stringify(value)}`);
    seconds.set(path, value);
  }
  return seconds;
}

export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const checkedIn = parseTestFileSeconds(readFileSync(TEST_FILE_SECONDS_PATH, 'utf8'), TEST_FILE_SECONDS_PATH.pathname);
    const root = this.ctx.config.root;
    return orderSlowestFirst(
      (await super.sort(files)).map((file) => {
        const path = relative(root, file.moduleId).split('\\').join('/');
        const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`);
        return { file, group: file.project.config.isolate ? 0 : 1, seconds: cached !== undefined ? cached.duration / 1000 : (checkedIn.get(path) ?? 0) };
      }),
    );
  }
}
