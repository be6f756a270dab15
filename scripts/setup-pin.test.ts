// The set-up must not depend on the day: pnpm is pinned exactly (package.json "packageManager"),
// never switches versions by itself, and the README's commands are the ones CI runs.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const rootPackage = JSON.parse(read('package.json')) as { packageManager: string; scripts: Record<string, string> };
const pinned = /^pnpm@(\d+\.\d+\.\d+)$/.exec(rootPackage.packageManager)?.[1];

function fencedShellLines(markdown: string): string[] {
  const lines: string[] = [];
  for (const block of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) lines.push(...block[1]!.split('\n').map((line) => line.trim()).filter(Boolean));
  return lines;
}

describe('pnpm pin', () => {
  it('package.json pins one exact pnpm version', () => {
    expect(pinned, `packageManager "${rootPackage.packageManager}" must be pnpm@<major.minor.patch>`).toBeDefined();
  });

  it('pnpm-workspace.yaml stops pnpm from switching to another version behind the user', () => {
    const settings = read('pnpm-workspace.yaml').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
    expect(settings).toContain('managePackageManagerVersions: false');
    // Not in .npmrc: npm (npx) warns about keys it does not know.
    expect(existsSync(join(root, '.npmrc')) ? read('.npmrc') : '').not.toMatch(/manage-package-manager-versions/);
  });

  it('every pnpm@ in the README, docs, CI and Dockerfiles is the pinned version', () => {
    const files = ['README.md', 'Dockerfile', '.ci/run', '.ci/install-prerequisites', ...readdirSync(join(root, 'docs')).map((name) => `docs/${name}`)];
    for (const folder of readdirSync(join(root, 'providers'))) {
      for (const name of ['README.md', 'Makefile']) if (existsSync(join(root, 'providers', folder, name))) files.push(`providers/${folder}/${name}`);
    }
    for (const file of files) {
      if (!existsSync(join(root, file))) continue;
      const text = read(file);
      for (const match of text.matchAll(/pnpm@([\w.${}-]+)/g)) {
        if (match[1] === '${PNPM_VERSION}') continue;
        expect(match[1], `${file}: "${match[0]}"`).toBe(pinned);
      }
      for (const match of text.matchAll(/ARG PNPM_VERSION=(\S+)/g)) expect(match[1], `${file}: ${match[0]}`).toBe(pinned);
    }
  });

  it("the README's test command is exactly the command .ci/run runs", () => {
    const readmeTest = fencedShellLines(read('README.md')).find((line) => / test$/.test(line));
    expect(readmeTest).toBe(`npx -y pnpm@${pinned} install && npx -y pnpm@${pinned} test`);
    const ciCommands = read('.ci/run').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
    expect(ciCommands).toContain(readmeTest);
    expect(ciCommands.filter((line) => line.includes('pnpm@'))).toEqual([readmeTest]);
  });

  it('the README demo command uses the pinned version', () => {
    expect(fencedShellLines(read('README.md'))).toContain(`npx -y pnpm@${pinned} install && npx -y pnpm@${pinned} demo`);
  });

  it('turbo telemetry is off in every root script a user runs', () => {
    for (const [name, command] of Object.entries(rootPackage.scripts)) {
      if (!/\bturbo\b/.test(command)) continue;
      for (const segment of command.split('&&').filter((part) => /\bturbo\b/.test(part))) {
        expect(segment, `script "${name}"`).toMatch(/TURBO_TELEMETRY_DISABLED=1/);
      }
    }
    expect(read('scripts/run-tests.mjs')).toMatch(/TURBO_TELEMETRY_DISABLED: '1'/);
  });
});
