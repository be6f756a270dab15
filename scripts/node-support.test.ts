// Which Node.js versions the repository supports is said once and kept in step: `engines` of every
// package.json, the README's sentence, the Node the images run (a supported major) and CI, which
// checks the machine's own Node quickly and runs the test command on the images' Node.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NODE_RUNTIME } from './image/image-inputs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const SUPPORTED = '^20.19.0 || ^22.12.0 || ^24.0.0';

function workspacePackageFiles(): string[] {
  const files = ['package.json', 'e2e/package.json'];
  for (const parent of ['packages', 'test-infrastructure', 'examples', 'providers']) {
    for (const name of readdirSync(join(root, parent))) if (existsSync(join(root, parent, name, 'package.json'))) files.push(`${parent}/${name}/package.json`);
  }
  return files;
}

describe('supported Node.js versions', () => {
  it.each(workspacePackageFiles())('%s: engines.node is the supported range', (file) => {
    expect((JSON.parse(read(file)) as { engines?: { node?: string } }).engines?.node).toBe(SUPPORTED);
  });

  it('the README names the same versions and the Node the images run', () => {
    const readme = read('README.md');
    expect(readme).toContain('Node.js 20 (20.19 or later), 22 (22.12 or later) or 24');
    expect(readme).toContain(`run Node ${NODE_RUNTIME.version}`);
    expect(readme).toContain(NODE_RUNTIME.endOfLife);
  });

  it('the images run a supported major, and CI runs the test command on it after the quick check', () => {
    const major = NODE_RUNTIME.version.split('.')[0]!;
    expect(SUPPORTED).toContain(`^${major}.`);
    const run = read('.ci/run').split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
    const quick = run.findIndex((line) => line.trim() === 'node scripts/quick-check.mjs');
    const path = run.findIndex((line) => /^export PATH="\$image_node_directory\/bin:\$PATH"$/.test(line.trim()));
    const test = run.findIndex((line) => line.includes('pnpm@') && line.trim().endsWith(' test'));
    expect(quick, 'quick check').toBeGreaterThan(-1);
    expect(path, 'image Node first on PATH').toBeGreaterThan(quick);
    expect(test, "the README's test command").toBeGreaterThan(path);
  });
});
