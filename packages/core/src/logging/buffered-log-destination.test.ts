import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { BufferedLogDestination } from './buffered-log-destination.js';
import { createLogger } from './create-logger.js';

function harness() {
  const writes: string[] = [];
  const scheduled: Array<() => void> = [];
  const exitHooks = new EventEmitter();
  const destination = new BufferedLogDestination({ write: (text) => writes.push(text) }, { schedule: (flush) => scheduled.push(flush), exitHooks });
  const runScheduled = (): void => {
    for (const flush of scheduled.splice(0)) flush();
  };
  return { writes, scheduled, exitHooks, destination, runScheduled };
}

describe('BufferedLogDestination', () => {
  it('writes the lines of one turn in one write, in order, when the scheduled flush runs', () => {
    const { writes, scheduled, destination, runScheduled } = harness();
    destination.write('a\n');
    destination.write('b\n');
    destination.write('c\n');
    expect(writes).toEqual([]);
    expect(scheduled).toHaveLength(1);
    runScheduled();
    expect(writes).toEqual(['a\nb\nc\n']);
    destination.write('d\n');
    expect(scheduled).toHaveLength(1);
    runScheduled();
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('flushes the pending lines when the process exits or before an uncaught exception is reported', () => {
    for (const event of ['exit', 'uncaughtExceptionMonitor']) {
      const { writes, exitHooks, destination } = harness();
      destination.write('last words\n');
      exitHooks.emit(event);
      expect(writes, event).toEqual(['last words\n']);
    }
  });

  it('after close writes straight through and no longer listens for exit', () => {
    const { writes, exitHooks, destination } = harness();
    destination.write('pending\n');
    destination.close();
    expect(writes).toEqual(['pending\n']);
    expect(exitHooks.listenerCount('exit')).toBe(0);
    expect(exitHooks.listenerCount('uncaughtExceptionMonitor')).toBe(0);
    destination.write('late\n');
    expect(writes).toEqual(['pending\n', 'late\n']);
    destination.close();
  });

  it('a logger over it writes exactly the lines of a logger writing directly', () => {
    const direct: string[] = [];
    const { writes, destination, runScheduled } = harness();
    const options = { now: () => 0, pid: 1 };
    for (const logger of [createLogger({ ...options, destination: { write: (line) => direct.push(line) } }), createLogger({ ...options, destination })]) {
      logger.info('Initializing node', { node: 'n1' });
      logger.warn('Event queue full, dropping event');
    }
    runScheduled();
    expect(writes).toEqual([direct.join('')]);
  });

  it('loses no line when the process calls process.exit() or dies of an uncaught exception right after logging', () => {
    // The module as JavaScript (its only import is a type), run in a child process writing to a pipe.
    const source = readFileSync(fileURLToPath(new URL('./buffered-log-destination.ts', import.meta.url)), 'utf8');
    const compiled = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    const directory = mkdtempSync(join(tmpdir(), 'buffered-log-'));
    try {
      const module = join(directory, 'buffered-log-destination.mjs');
      writeFileSync(module, compiled);
      for (const ending of ['process.exit(3)', "throw new Error('boom')"]) {
        const script = [
          `const { BufferedLogDestination } = await import(${JSON.stringify(module)});`,
          'const destination = new BufferedLogDestination(process.stderr);',
          "for (let i = 0; i < 1000; i += 1) destination.write(`line ${i}\\n`);",
          ending,
        ].join('\n');
        const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
        expect(child.status, ending).toBe(ending.startsWith('throw') ? 1 : 3);
        const lines = child.stderr.split('\n').filter((line) => line.startsWith('line '));
        expect(lines, ending).toEqual(Array.from({ length: 1000 }, (_, i) => `line ${i}`));
        if (ending.startsWith('throw')) expect(child.stderr.indexOf('line 999')).toBeLessThan(child.stderr.indexOf('boom'));
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
