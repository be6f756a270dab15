// The tar writer of the image layers: sorted, parents present, one mtime, numeric owners, long
// paths through PAX, read back by our reader and by GNU tar.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { completeAndSort, normalizeEntryPath, readTar, writeTar, type TarEntry } from './tar-archive.mjs';

const longDirectory = `${'d'.repeat(60)}/${'e'.repeat(60)}/${'f'.repeat(60)}`;
const entries: TarEntry[] = [
  { path: 'usr/share/zoneinfo/Europe/Paris', type: 'file', mode: 0o644, content: Buffer.from('TZif') },
  { path: './etc/passwd', type: 'file', mode: 0o644, content: Buffer.from('root:x:0:0\n') },
  { path: 'lib64/ld-linux-x86-64.so.2', type: 'symlink', mode: 0o777, linkTarget: '/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2' },
  { path: 'home/nonroot', type: 'directory', mode: 0o700, uid: 65532, gid: 65532 },
  { path: `${longDirectory}/${'g'.repeat(120)}.txt`, type: 'file', mode: 0o755, content: Buffer.from('long') },
  { path: 'a-b', type: 'file', mode: 0o644, content: Buffer.alloc(0) },
  { path: 'a/b', type: 'file', mode: 0o644, content: Buffer.alloc(700, 1) },
];

describe('tar archive', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'ccm-tar-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('normalises entry paths', () => {
    expect(normalizeEntryPath('./usr/lib/')).toBe('usr/lib');
    expect(normalizeEntryPath('/etc/passwd')).toBe('etc/passwd');
    expect(normalizeEntryPath('./')).toBe('');
  });

  it('adds missing parents and sorts every parent before its children', () => {
    const paths = completeAndSort(entries).map((entry) => (entry.type === 'directory' ? `${entry.path}/` : entry.path));
    expect(paths).toContain('usr/share/zoneinfo/Europe/');
    expect(paths).toEqual([...paths].sort());
    for (const [index, path] of paths.entries()) {
      const parent = path.replace(/\/$/, '').split('/').slice(0, -1).join('/');
      if (parent !== '') expect(paths.indexOf(`${parent}/`), path).toBeLessThan(index);
    }
  });

  it('refuses two entries for one path and a file with children', () => {
    expect(() => completeAndSort([entries[0]!, { ...entries[0]! }])).toThrow(/two entries for usr\/share\/zoneinfo\/Europe\/Paris/);
    expect(() => completeAndSort([{ path: 'a', type: 'file', mode: 0o644 }, { path: 'a/b', type: 'file', mode: 0o644 }])).toThrow(/a is a file/);
  });

  it('gives the same bytes for the same entries in any order, and reads back what it wrote', () => {
    const first = writeTar(entries, { mtime: 1_700_000_000 });
    const second = writeTar([...entries].reverse(), { mtime: 1_700_000_000 });
    expect(first.equals(second)).toBe(true);
    expect(first.length % 512).toBe(0);
    const read = readTar(first);
    const byPath = new Map(read.map((entry) => [entry.path, entry]));
    expect(byPath.get('etc/passwd')?.content?.toString()).toBe('root:x:0:0\n');
    expect(byPath.get('lib64/ld-linux-x86-64.so.2')).toMatchObject({ type: 'symlink', linkTarget: '/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2' });
    expect(byPath.get('home/nonroot')).toMatchObject({ type: 'directory', mode: 0o700, uid: 65532, gid: 65532 });
    expect(byPath.get(`${longDirectory}/${'g'.repeat(120)}.txt`)).toMatchObject({ type: 'file', mode: 0o755 });
    expect(byPath.get('a/b')?.content?.length).toBe(700);
    expect(writeTar(entries, { mtime: 1_700_000_001 }).equals(first)).toBe(false);
  });

  it('is read by GNU tar with the fixed mtime and numeric owners', () => {
    const file = join(scratch, 'layer.tar');
    writeFileSync(file, writeTar(entries, { mtime: 1_700_000_000 }));
    const listing = execFileSync('tar', ['--numeric-owner', '--full-time', '-tvf', file], { encoding: 'utf8', env: { ...process.env, TZ: 'UTC', LANG: 'C' } });
    const lines = listing.trim().split('\n');
    expect(lines.length).toBe(completeAndSort(entries).length);
    for (const line of lines) expect(line).toContain('2023-11-14 22:13:20');
    expect(listing).toMatch(/drwx------ 65532\/65532 .* home\/nonroot\//);
    expect(listing).toContain(`${'g'.repeat(120)}.txt`);
  });
});
