import { describe, expect, it } from 'vitest';
import { createLogger, type CreateLoggerOptions } from './create-logger.js';
import { formatKlogLine } from './klog-text-format.js';
import { REDACTED, redactLogFields } from './redact-log-fields.js';

// 2026-11-21T22:44:34.123456Z
const NOW = Date.UTC(2026, 10, 21, 22, 44, 34, 123) + 0.456;
const NOW_SECONDS = 1_795_301_074.123456;

function capture(options: CreateLoggerOptions = {}) {
  const lines: string[] = [];
  const logger = createLogger({ now: () => NOW, pid: 4242, destination: { write: (line) => lines.push(line) }, ...options });
  return { logger, lines };
}

describe('text format (klog)', () => {
  it('writes klog structured lines', () => {
    const { logger, lines } = capture();
    logger.info('Starting controller', { controller: 'cloud-node-controller', workers: 2, enabled: true });
    logger.warn('Slow', { object: { a: 1 } });
    logger.error('Failed', { err: new Error('boom') });
    expect(lines).toEqual([
      'I1121 22:44:34.123456    4242] "Starting controller" controller="cloud-node-controller" workers=2 enabled=true\n',
      'W1121 22:44:34.123456    4242] "Slow" object={"a":1}\n',
      'E1121 22:44:34.123456    4242] "Failed" err="boom"\n',
    ]);
  });

  it('includes child fields before call fields', () => {
    const { logger, lines } = capture();
    logger.child({ controller: 'route' }).info('Reconciled', { routes: 3 });
    expect(lines).toEqual(['I1121 22:44:34.123456    4242] "Reconciled" controller="route" routes=3\n']);
  });
});

describe('json format', () => {
  it('writes one JSON object per line', () => {
    const { logger, lines } = capture({ format: 'json', verbosity: 2 });
    logger.info('hello', { node: 'n1' });
    logger.verbose(2, 'detail');
    logger.error('bad', { err: new TypeError('nope') });
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { level: 'info', ts: NOW_SECONDS, node: 'n1', v: 0, msg: 'hello' },
      { level: 'info', ts: NOW_SECONDS, v: 2, msg: 'detail' },
      { level: 'error', ts: NOW_SECONDS, err: 'nope', msg: 'bad' },
    ]);
    expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
  });
});

describe('verbosity', () => {
  it('writes verbose lines only up to --v', () => {
    const { logger, lines } = capture({ verbosity: 2 });
    logger.verbose(1, 'one');
    logger.verbose(2, 'two');
    logger.verbose(3, 'three');
    logger.child({ a: 1 }).verbose(4, 'four');
    logger.setVerbosity(4);
    logger.child({ a: 1 }).verbose(4, 'four again');
    expect(lines.map((line) => line.slice(line.indexOf('"')))).toEqual(['"one"\n', '"two"\n', '"four again" a=1\n']);
    expect(logger.verbosity()).toBe(4);
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
    expect(formatKlogLine({ severity: 'info', timeMs: Date.UTC(2026, 0, 2, 3, 4, 5, 6), pid: 1, message: 'm', fields: [['u', undefined], ['n', null]] })).toBe(
      'I0102 03:04:05.006000       1] "m" u=<nil> n=null\n',
    );
  });
});
