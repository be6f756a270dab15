import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { promisify } from 'node:util';
import { buildGoBinary, parseGoVersion, requiredGoVersion } from './go-binary.js';

const execFileAsync = promisify(execFile);

describe('Go versions', () => {
  it('reads the go directive of go.mod', () => {
    expect(requiredGoVersion('module x\n\ngo 1.26.0\n')).toEqual([1, 26]);
    expect(requiredGoVersion('module x\n')).toBeUndefined();
  });

  it('reads `go version`', () => {
    expect(parseGoVersion('go version go1.26.8 linux/amd64')).toEqual([1, 26]);
  });
});

describe('buildGoBinary', () => {
  it('says Go is too old when go.mod needs a newer one, with the hint', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'go-binary-'));
    try {
      await writeFile(join(directory, 'go.mod'), 'module example.com/x\n\ngo 1.26\n');
      await writeFile(join(directory, 'main.go'), 'package main\n\nfunc main() {}\n');
      const path = process.env['PATH'];
      // No go on PATH at all.
      process.env['PATH'] = directory;
      try {
        const result = await buildGoBinary({ moduleDirectory: directory, name: 'x', installHint: 'HINT' });
        expect(result).toEqual({ kind: 'unavailable', reason: 'Go is not installed (needed to build x). HINT' });
      } finally {
        process.env['PATH'] = path;
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('rebuilds from a copy of the last build: unchanged sources give the same program, a changed source a new one', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'go-binary-'));
    try {
      await writeFile(join(directory, 'go.mod'), 'module example.com/x\n\ngo 1.21\n');
      const program = (word: string): string => `package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("${word}") }\n`;
      await writeFile(join(directory, 'main.go'), program('first'));
      const run = async (): Promise<string> => {
        const built = await buildGoBinary({ moduleDirectory: directory, name: 'x', installHint: 'HINT' });
        if (built.kind !== 'built') throw new Error(built.reason);
        return (await execFileAsync(built.path)).stdout.trim();
      };
      expect(await run()).toBe('first');
      expect(await run()).toBe('first');
      await writeFile(join(directory, 'main.go'), program('second'));
      expect(await run()).toBe('second');
      expect((await readdir(join(directory, '.bin'))).sort()).toEqual(['x']);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }, 120_000);
});
