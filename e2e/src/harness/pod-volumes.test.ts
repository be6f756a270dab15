import { lstat, mkdtemp, readFile, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PodConfigError } from './pod-runtime-config.js';
import { projectKeys, writeAtomicVolume } from './pod-volumes.js';

const DATA = { 'cloud.conf': Buffer.from('[Global]\n'), 'ca.pem': Buffer.from('PEM') };

describe('projectKeys', () => {
  it.each([
    { name: 'every key, mode 0644 by default', items: undefined, defaultMode: undefined, expected: [['cloud.conf', 0o644], ['ca.pem', 0o644]] },
    { name: 'every key with defaultMode 0440', items: undefined, defaultMode: 0o440, expected: [['cloud.conf', 0o440], ['ca.pem', 0o440]] },
    { name: 'items select, rename and set a mode', items: [{ key: 'ca.pem', path: 'certs/ca.crt', mode: 0o400 }], defaultMode: 0o440, expected: [['certs/ca.crt', 0o400]] },
  ])('$name', ({ items, defaultMode, expected }) => {
    expect(projectKeys('configmap c', DATA, items, defaultMode).map((file) => [file.path, file.mode])).toEqual(expected);
  });

  it('refuses an item naming a missing key', () => {
    expect(() => projectKeys('secret s', DATA, [{ key: 'nope', path: 'x' }], undefined)).toThrow(PodConfigError);
    expect(() => projectKeys('secret s', DATA, [{ key: 'nope', path: 'x' }], undefined)).toThrow('secret s has no key nope');
  });
});

describe('writeAtomicVolume', () => {
  it("lays files out as the kubelet's atomic writer: ..data -> timestamped folder, one symlink per key", async () => {
    const directory = await mkdtemp(join(tmpdir(), 'ccm-volume-test-'));
    try {
      await writeAtomicVolume(join(directory, 'v'), projectKeys('configmap c', DATA, [{ key: 'cloud.conf', path: 'cloud.conf' }, { key: 'ca.pem', path: 'certs/ca.crt' }], 0o440));
      const volume = join(directory, 'v');
      expect((await readlink(join(volume, '..data'))).startsWith('..')).toBe(true);
      expect(await readlink(join(volume, 'cloud.conf'))).toBe('..data/cloud.conf');
      expect(await readlink(join(volume, 'certs'))).toBe('..data/certs');
      expect(await readFile(join(volume, 'certs', 'ca.crt'), 'utf8')).toBe('PEM');
      expect((await stat(join(volume, 'cloud.conf'))).mode & 0o777).toBe(0o440);
      expect((await lstat(join(volume, 'cloud.conf'))).isSymbolicLink()).toBe(true);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
