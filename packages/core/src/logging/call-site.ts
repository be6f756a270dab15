/**
 * The source file and line of a log call (klog's `file:line` header field, the JSON `caller`).
 * Read from a one-frame stack trace taken just below the logger's own method, so it costs one
 * `Error.captureStackTrace` per written line (never for a line dropped by `--v`). Compiled
 * JavaScript is mapped back to the TypeScript source with the `.js.map` file next to it (read
 * once per file); without a map the JavaScript position is kept. When Node already maps stack
 * traces (`--enable-source-maps`, vitest) the frame names the `.ts` file and is used as is.
 */
import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CallSite {
  /** klog's text header: the basename, `service-controller.ts`. */
  readonly file: string;
  /** zap's short caller (component-base JSON): the parent directory and basename, `service/service-controller.ts`. */
  readonly shortFile: string;
  readonly line: number;
}

export const UNKNOWN_CALL_SITE: CallSite = { file: '???', shortFile: 'undefined', line: 1 };

// V8 frames: `    at name (file:///a/b.js:12:34)`, `    at file:///a/b.js:12:34`, `    at async name (/a/b.js:1:2)`.
const FRAME = /(?:\(|at )((?:file:\/\/)?\/[^()]*?|[A-Za-z]:\\[^()]*?):(\d+):(\d+)\)?\s*$/;

const sourceMaps = new Map<string, SourceMap | undefined>();
/** Parsed frames by their text: a program has a bounded number of log calls. */
const parsedFrames = new Map<string, CallSite>();
const MAX_PARSED_FRAMES = 10_000;

/** The call site of whoever called `boundary` (a logger method). */
export function callSiteOf(boundary: (...args: never[]) => unknown): CallSite {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 1;
  try {
    Error.captureStackTrace(holder, boundary);
  } finally {
    Error.stackTraceLimit = limit;
  }
  return parseCallSite(holder.stack ?? '');
}

/** The call site named by the first frame of a V8 stack trace. */
export function parseCallSite(stack: string): CallSite {
  const frame = stack.split('\n').find((candidate) => candidate.trimStart().startsWith('at '));
  if (frame === undefined) return UNKNOWN_CALL_SITE;
  const known = parsedFrames.get(frame);
  if (known !== undefined) return known;
  const parsed = parseFrame(frame);
  if (parsedFrames.size >= MAX_PARSED_FRAMES) parsedFrames.clear();
  parsedFrames.set(frame, parsed);
  return parsed;
}

function parseFrame(frame: string): CallSite {
  const match = FRAME.exec(frame);
  if (match === null) return UNKNOWN_CALL_SITE;
  const location = match[1] as string;
  let path = location.startsWith('file://') ? safeFileUrlToPath(location) : location;
  let line = Number(match[2]);
  if (path.endsWith('.js') || path.endsWith('.mjs') || path.endsWith('.cjs')) {
    const original = originalPosition(path, line, Number(match[3]));
    if (original !== undefined) ({ path, line } = original);
  }
  const file = basename(path);
  const parent = basename(dirname(path));
  return { file, shortFile: parent === '' || parent === '.' || parent === '/' ? file : `${parent}/${file}`, line };
}

function safeFileUrlToPath(url: string): string {
  try {
    return fileURLToPath(url);
  } catch {
    return url.slice('file://'.length);
  }
}

function originalPosition(path: string, line: number, column: number): { path: string; line: number } | undefined {
  let map = sourceMaps.get(path);
  if (!sourceMaps.has(path)) {
    map = loadSourceMap(path);
    sourceMaps.set(path, map);
  }
  if (map === undefined) return undefined;
  const entry = map.findEntry(line - 1, column - 1) as Partial<{ originalSource: string; originalLine: number }>;
  if (entry.originalSource === undefined || entry.originalLine === undefined) return undefined;
  const source = entry.originalSource.startsWith('file://') ? safeFileUrlToPath(entry.originalSource) : resolve(dirname(path), entry.originalSource);
  return { path: source, line: entry.originalLine + 1 };
}

function loadSourceMap(path: string): SourceMap | undefined {
  try {
    return new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')) as SourceMapPayload);
  } catch {
    return undefined;
  }
}
