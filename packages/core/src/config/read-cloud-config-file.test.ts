import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CloudConfigError, findCloudConfigError, formatCloudConfigProblem, formatCloudConfigProblems } from './cloud-config-error.js';
import { MAX_CLOUD_CONFIG_BYTES, readCloudConfigFile } from './read-cloud-config-file.js';

describe('readCloudConfigFile', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'ccm-cloud-config-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('reads the text and drops a byte order mark', async () => {
    const path = join(directory, 'cloud.conf');
    await writeFile(path, '\uFEFF[Global]\nzone = a\n');
    expect(await readCloudConfigFile(path)).toBe('[Global]\nzone = a\n');
  });

  it('names a missing file', async () => {
    const path = join(directory, 'missing.conf');
    const error = await readCloudConfigFile(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CloudConfigError);
    expect((error as CloudConfigError).message).toBe(`${path}: cannot read cloud config file: no such file or directory`);
    expect((error as CloudConfigError).fileName).toBe(path);
    expect((error as CloudConfigError).line).toBeUndefined();
  });

  it('names a directory given as the file', async () => {
    await expect(readCloudConfigFile(directory)).rejects.toThrow(`${directory}: cannot read cloud config file: is a directory, not a file`);
  });

  it('refuses a binary file with one problem naming the line of the first bad byte, without echoing it', async () => {
    const path = join(directory, 'binary.conf');
    await writeFile(path, Buffer.concat([Buffer.from('[Global]\nzone = a\n'), Buffer.from([0xc3, 0x28, 0x00, 0xff]), Buffer.from('\n'.repeat(100))]));
    const error = (await readCloudConfigFile(path).catch((caught: unknown) => caught)) as CloudConfigError;
    expect(error).toBeInstanceOf(CloudConfigError);
    expect(error.problems).toEqual([{ fileName: path, line: 3, message: 'not a text file: bytes that are not UTF-8 at byte 18' }]);
  });

  it('refuses a NUL byte in otherwise valid UTF-8', async () => {
    const path = join(directory, 'nul.conf');
    await writeFile(path, '[Global]\nzone = \u00e9\u0000\n');
    await expect(readCloudConfigFile(path)).rejects.toThrow(`${path}:2: not a text file: a NUL byte at byte 18`);
  });

  it('refuses a file over the size limit before reading it', async () => {
    const path = join(directory, 'huge.conf');
    await writeFile(path, `[Global]\nzone = ${'a'.repeat(MAX_CLOUD_CONFIG_BYTES)}\n`);
    await expect(readCloudConfigFile(path)).rejects.toThrow(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: cloud config file is \\d+ bytes, more than the 1048576 bytes`));
  });
});

describe('findCloudConfigError', () => {
  it('finds the error through a cause chain', () => {
    const inner = new CloudConfigError({ fileName: 'a.conf', line: 3, message: 'bad' });
    const outer = new Error('could not init cloud provider "x": a.conf:3: bad', { cause: inner });
    expect(findCloudConfigError(outer)).toBe(inner);
    expect(findCloudConfigError(new Error('plain'))).toBeUndefined();
    expect(inner.message).toBe('a.conf:3: bad');
  });
});

describe('formatCloudConfigProblems', () => {
  it('cuts a message quoting a huge value and counts the rest', () => {
    const line = formatCloudConfigProblem({ fileName: 'a.conf', line: 2, message: `invalid zone "${'z'.repeat(1000)}"` });
    expect(line.length).toBeLessThan(400);
    expect(line).toMatch(/^a\.conf:2: invalid zone "z+\.\.\. \(715 more characters\)$/);
  });

  it('prints at most 20 problems, then how many more', () => {
    const problems = Array.from({ length: 25 }, (_, index) => ({ fileName: 'a.conf', line: index + 1, message: 'bad' }));
    const lines = formatCloudConfigProblems(problems);
    expect(lines).toHaveLength(21);
    expect(lines.at(-1)).toBe('a.conf: and 5 more problems');
    expect(new CloudConfigError(problems).message.split('\n')).toEqual(lines);
  });
});
