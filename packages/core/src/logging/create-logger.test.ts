import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateHealth } from '../app/serving/health-checks.js';
import { parseCallSite } from './call-site.js';
import { createLogger, type CreateLoggerOptions } from './create-logger.js';
import { goQuote } from './go-quote.js';
import { formatKlogLine, formatKlogValue } from './klog-text-format.js';
import { REDACTED, redactLogFields } from './redact-log-fields.js';

// 2026-11-21T22:44:34.123456Z
const NOW = Date.UTC(2026, 10, 21, 22, 44, 34, 123) + 0.456;

const THIS_FILE = fileURLToPath(import.meta.url);
const THIS_SOURCE = readFileSync(THIS_FILE, 'utf8').split('\n');

/** The 1-based line of this file holding `marker` (a comment at the end of a log call). */
function lineOf(marker: string, lines: readonly string[] = THIS_SOURCE): number {
  const index = lines.findIndex((line) => line.includes(marker) && !line.includes('lineOf('));
  if (index === -1) throw new Error(`marker ${marker} not found`);
  return index + 1;
}

function capture(options: CreateLoggerOptions = {}) {
  const lines: string[] = [];
  const logger = createLogger({ now: () => NOW, pid: 4242, destination: { write: (line) => lines.push(line) }, ...options });
  return { logger, lines };
}

/**
 * klog's published line grammar. The header is the one documented and written by
 * k8s.io/klog/v2 klog.go (`Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg...`, formatHeader, with
 * the buffer helpers of internal/buffer/buffer.go: two-digit month/day/time fields, six-digit
 * microseconds, the thread id space-padded to 7 columns). The payload of a structured line is
 * internal/serialize/keyvalues.go: the message with %q, then ` key=value` pairs where a string is
 * %q or the multi-line `<\n\t...\n >` form and other values are printed bare.
 */
const KLOG_HEADER = /^([IWEF])(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d)\.(\d{6}) ([ \d]{7}|\d{8,}) ([^\s:\]]+):(\d+)\] /;
const GO_QUOTED = String.raw`"(?:[^"\\\n]|\\.)*"`;
const KLOG_PAIR = new RegExp(String.raw`^ ([^\s=]+)=(${GO_QUOTED}|<\n(?:\t[^\n]*\n)* >|[^\s"][^\s]*)`);

const GO_ESCAPES: Readonly<Record<string, string>> = { a: '\u0007', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"' };

/** Go's strconv.Unquote of a double-quoted string. */
function goUnquote(quoted: string): string {
  return quoted.slice(1, -1).replace(/\\(x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}|.)/g, (_, escape: string) =>
    escape.length > 1 ? String.fromCodePoint(Number.parseInt(escape.slice(1), 16)) : (GO_ESCAPES[escape] ?? escape),
  );
}

interface ParsedKlogLine {
  severity: string;
  month: number;
  day: number;
  time: string;
  threadId: number;
  file: string;
  line: number;
  message: string;
  pairs: Array<[string, string]>;
}

function parseKlogLine(text: string): ParsedKlogLine {
  expect(text.endsWith('\n')).toBe(true);
  const header = KLOG_HEADER.exec(text);
  if (header === null) throw new Error(`not a klog header: ${JSON.stringify(text)}`);
  let rest = text.slice(header[0].length, -1);
  const message = new RegExp(`^${GO_QUOTED}`).exec(rest);
  if (message === null) throw new Error(`no quoted message: ${JSON.stringify(rest)}`);
  rest = rest.slice(message[0].length);
  const pairs: Array<[string, string]> = [];
  while (rest !== '') {
    const pair = KLOG_PAIR.exec(rest);
    if (pair === null) throw new Error(`not a key=value pair: ${JSON.stringify(rest)}`);
    pairs.push([pair[1] as string, pair[2] as string]);
    rest = rest.slice(pair[0].length);
  }
  return {
    severity: header[1] as string,
    month: Number(header[2]),
    day: Number(header[3]),
    time: `${header[4]}:${header[5]}:${header[6]}.${header[7]}`,
    threadId: Number((header[8] as string).trim()),
    file: header[9] as string,
    line: Number(header[10]),
    message: goUnquote(message[0]),
    pairs,
  };
}

describe('text format (klog)', () => {
  it('writes klog lines with the call site of each call, at every severity and verbosity', () => {
    const { logger, lines } = capture({ verbosity: 3 });
    logger.info('Starting controller', { controller: 'cloud-node-controller', workers: 2, enabled: true }); // @info-call
    logger.warn('Slow', { object: { a: 1 } }); // @warn-call
    logger.error('Failed', { node: 'n1', err: new Error('boom') }); // @error-call
    logger.verbose(3, 'detail'); // @verbose-call
    logger.verbose(4, 'dropped');
    logger.child({ controller: 'route' }).info('Reconciled', { routes: 3 }); // @child-call
    const parsed = lines.map(parseKlogLine);
    expect(parsed.map(({ severity, file, line, message, pairs, threadId, time, month, day }) => ({ severity, file, line, message, pairs, threadId, time, month, day }))).toEqual([
      {
        severity: 'I',
        file: 'create-logger.test.ts',
        line: lineOf('@info-call'),
        message: 'Starting controller',
        pairs: [['controller', '"cloud-node-controller"'], ['workers', '2'], ['enabled', 'true']],
        threadId: 4242,
        time: '22:44:34.123456',
        month: 11,
        day: 21,
      },
      expect.objectContaining({ severity: 'W', line: lineOf('@warn-call'), message: 'Slow', pairs: [['object', '{"a":1}']] }),
      // klog's ErrorS writes err first.
      expect.objectContaining({ severity: 'E', line: lineOf('@error-call'), pairs: [['err', '"boom"'], ['node', '"n1"']] }),
      expect.objectContaining({ severity: 'I', line: lineOf('@verbose-call'), message: 'detail', pairs: [] }),
      expect.objectContaining({ severity: 'I', line: lineOf('@child-call'), pairs: [['controller', '"route"'], ['routes', '3']] }),
    ]);
    expect(lines[0]).toBe(`I1121 22:44:34.123456    4242 create-logger.test.ts:${lineOf('@info-call')}] "Starting controller" controller="cloud-node-controller" workers=2 enabled=true\n`);
  });

  it('names the call site inside core modules (the health checks log their failures)', async () => {
    const { logger, lines } = capture();
    await evaluateHealth([{ name: 'broken', check: () => Promise.reject(new Error('down')) }], { endpoint: 'healthz', verbose: false, exclude: [] }, logger);
    const source = readFileSync(new URL('../app/serving/health-checks.ts', import.meta.url), 'utf8').split('\n');
    const parsed = parseKlogLine(lines[0] as string);
    expect(parsed).toMatchObject({ severity: 'W', file: 'health-checks.ts', line: lineOf("logger.warn('Health check failed'", source), message: 'Health check failed' });
  });

  it('quotes as Go %q and writes multi-line values as klog does', () => {
    const { logger, lines } = capture();
    logger.info('tab\there "quoted" \u0001 é \u00a0 \u{1F600}', { text: 'a\nb', trailing: 'line\n', plain: 'x y', control: '\u007f', number: 1.5, big: 1234567.5, none: undefined }); // @quote-call
    const parsed = parseKlogLine(lines[0] as string);
    expect(parsed.message).toBe('tab\there "quoted" \u0001 é \u00a0 \u{1F600}');
    expect(lines[0]).toContain(String.raw`] "tab\there \"quoted\" \x01 é \u00a0 ` + '\u{1F600}" text=<\n\ta\n\tb\n > trailing=<\n\tline\n > plain="x y" control="\\x7f" number=1.5 big=1.2345675e+06 none=<nil>\n');
    expect(parsed.pairs.map(([key]) => key)).toEqual(['text', 'trailing', 'plain', 'control', 'number', 'big', 'none']);
  });
});

describe('json format (component-base)', () => {
  it('writes ts, caller, msg, the context, v and the fields; err last on error lines', () => {
    const { logger, lines } = capture({ format: 'json', verbosity: 2 });
    logger.info('hello', { node: 'n1' }); // @json-info
    logger.verbose(2, 'detail'); // @json-verbose
    logger.child({ controller: 'route' }).error('bad', { err: new TypeError('nope'), node: 'n2' }); // @json-error
    logger.warn('careful'); // @json-warn
    logger.verbose(3, 'dropped');
    expect(lines).toEqual([
      `{"ts":${NOW},"caller":"logging/create-logger.test.ts:${lineOf('@json-info')}","msg":"hello","v":0,"node":"n1"}\n`,
      `{"ts":${NOW},"caller":"logging/create-logger.test.ts:${lineOf('@json-verbose')}","msg":"detail","v":2}\n`,
      `{"ts":${NOW},"caller":"logging/create-logger.test.ts:${lineOf('@json-error')}","msg":"bad","controller":"route","node":"n2","err":"nope"}\n`,
      `{"ts":${NOW},"caller":"logging/create-logger.test.ts:${lineOf('@json-warn')}","msg":"careful","v":0}\n`,
    ]);
    // ts is epoch milliseconds (component-base's epochMillisTimeEncoder), no level key.
    for (const line of lines) {
      const record = JSON.parse(line) as Record<string, unknown>;
      expect(Object.keys(record).slice(0, 3)).toEqual(['ts', 'caller', 'msg']);
      expect(record).not.toHaveProperty('level');
      expect(record.caller).toMatch(/^[^/\s]+\/[^/\s]+\.ts:\d+$/);
    }
  });
});

describe('verbosity', () => {
  it('writes verbose lines only up to --v, changeable at run time', () => {
    const { logger, lines } = capture({ verbosity: 2 });
    logger.verbose(1, 'one');
    logger.verbose(2, 'two');
    logger.verbose(3, 'three');
    logger.child({ a: 1 }).verbose(4, 'four');
    logger.setVerbosity(4);
    logger.child({ a: 1 }).verbose(4, 'four again');
    expect(lines.map((line) => parseKlogLine(line)).map(({ message, pairs }) => [message, pairs])).toEqual([
      ['one', []],
      ['two', []],
      ['four again', [['a', '1']]],
    ]);
    expect(logger.verbosity()).toBe(4);
  });
});

describe('call sites of compiled JavaScript', () => {
  const directory = mkdtempSync(join(tmpdir(), 'call-site-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('maps a .js frame back to the TypeScript source through the .js.map next to it', () => {
    const source = ['// one', '// two', 'export function run(log: (m: string) => void): void {', '  const unused: number = 1;', '  log(`x${unused}`);', '}', ''].join('\n');
    const output = ts.transpileModule(source, { fileName: 'worker.ts', compilerOptions: { sourceMap: true, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
    const jsPath = join(directory, 'worker.js');
    writeFileSync(jsPath, output.outputText);
    writeFileSync(`${jsPath}.map`, output.sourceMapText as string);
    const jsLine = output.outputText.split('\n').findIndex((line) => line.includes('log(`x')) + 1;
    expect(parseCallSite(`Error\n    at run (${pathToFileURL(jsPath).href}:${jsLine}:5)`)).toEqual({ file: 'worker.ts', shortFile: `${join(directory).split('/').pop()}/worker.ts`, line: 5 });
    // Without a map the JavaScript position is kept.
    expect(parseCallSite(`Error\n    at /nowhere/dist/app/x.js:12:3`)).toEqual({ file: 'x.js', shortFile: 'app/x.js', line: 12 });
    expect(parseCallSite('Error')).toEqual({ file: '???', shortFile: 'undefined', line: 1 });
  });
});

describe('goQuote (strconv.Quote)', () => {
  it.each([
    ['plain', '"plain"'],
    ['a"b\\c', String.raw`"a\"b\\c"`],
    ['\u0007\b\f\n\r\t\v', String.raw`"\a\b\f\n\r\t\v"`],
    ['\u0000\u001b\u007f', String.raw`"\x00\x1b\x7f"`],
    ['\u0085\u200b\u2028', String.raw`"\u0085\u200b\u2028"`],
    ['日本語 ü', '"日本語 ü"'],
    ['\u{E0001}', String.raw`"\U000e0001"`],
    ['\ud800', '"\ufffd"'],
  ])('%j -> %s', (input, expected) => {
    expect(goQuote(input)).toBe(expected);
  });
});

describe('redaction', () => {
  it('never writes secrets, at any depth', () => {
    const { logger, lines } = capture({ format: 'json' });
    logger.info('config', {
      password: 'hunter2',
      nested: { clientSecret: 's3cr3t', list: [{ token: 't0k3n' }], user: 'admin' },
      credentials: { accessKeyId: 'AKIA' },
      emptyPassword: '',
    });
    logger.child({ apiToken: 'abc' }).info('child');
    const text = lines.join('');
    for (const secret of ['hunter2', 's3cr3t', 't0k3n', 'AKIA', 'abc']) expect(text).not.toContain(secret);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      password: REDACTED,
      nested: { clientSecret: REDACTED, list: [{ token: REDACTED }], user: 'admin' },
      credentials: REDACTED,
      emptyPassword: '',
    });
  });

  it('handles cycles, maps, dates and errors', () => {
    const cyclic: Record<string, unknown> = { name: 'x' };
    cyclic.self = cyclic;
    expect(redactLogFields({ cyclic, map: new Map([['secret', 'v'], ['k', 'v']]), when: new Date(0), err: new Error('') })).toEqual({
      cyclic: { name: 'x', self: '[Circular]' },
      map: { secret: REDACTED, k: 'v' },
      when: '1970-01-01T00:00:00.000Z',
      err: 'Error',
    });
  });
});

describe('formatKlogLine', () => {
  it('pads pid and microseconds', () => {
    expect(
      formatKlogLine({ severity: 'info', timeMs: Date.UTC(2026, 0, 2, 3, 4, 5, 6), pid: 1, file: 'a.ts', line: 7, message: 'm', fields: [['u', undefined], ['n', null]] }),
    ).toBe('I0102 03:04:05.006000       1 a.ts:7] "m" u=<nil> n=<nil>\n');
    expect(formatKlogValue(new Error('x\ny'))).toBe('<\n\tx\n\ty\n >');
  });
});
