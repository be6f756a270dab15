import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CloudConfigError, findCloudConfigError } from './cloud-config-error.js';
import { readCloudConfigFile } from './read-cloud-config-file.js';

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
