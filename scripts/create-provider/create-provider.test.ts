// `pnpm create-provider <cloud>`: the templates render into a provider with the whole anatomy, the
// shared files gain the new provider and nothing else; then, end to end, the command scaffolds
// `example` into a copy of this repository, installs, builds and documents it, and the copy's
// layout check, the scaffold's own tests (and their typecheck) and the conformance suite against its
// fake cloud pass there.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDockerfile } from '../parse-dockerfile.js';
import { checkProviderLayout } from '../provider-layout.js';
import {
  addDockerfileStage,
  addE2eDependency,
  addE2eReference,
  chartLinks,
  refusal,
  renderTemplates,
  repositoryRoot,
  substitutePlaceholders,
  templateFiles,
  writeProvider,
} from './create-provider.mjs';

const root = repositoryRoot as string;

describe('the templates', () => {
  const rendered = renderTemplates('acme') as Map<string, string>;

  it('name every placeholder they use, and only the three of create-provider', () => {
    for (const template of templateFiles() as string[]) {
      const text = readFileSync(join(root, 'scripts', 'create-provider', 'templates', template), 'utf8');
      const placeholders = new Set([...`${template}\n${text}`.matchAll(/__[A-Za-z]+__/g)].map((match) => match[0]));
      for (const placeholder of placeholders) expect(['__cloud__', '__Cloud__', '__CLOUD__'], `${template}: ${placeholder}`).toContain(placeholder);
    }
  });

  it('render without a placeholder left, and speak of no other cloud', () => {
    for (const [path, text] of rendered) {
      expect(`${path}\n${text}`, path).not.toMatch(/__[A-Za-z]+__/);
      expect(text, path).not.toMatch(/sandbox|Sandbox|SANDBOX/);
    }
  });

  it('write only the new provider: its workspace, overlay, chart and conformance test', () => {
    for (const path of rendered.keys()) {
      expect(path).toMatch(/^(providers\/cloud-provider-acme\/|manifests\/acme\/|charts\/acme-cloud-controller-manager\/|e2e\/src\/conformance\/acme\.conformance\.test\.ts$)/);
    }
    for (const [path, text] of rendered) if (path.endsWith('.json')) expect(() => JSON.parse(text) as unknown, path).not.toThrow();
  });

  it('substitute the three spellings of the cloud', () => {
    expect(substitutePlaceholders('__cloud__ __Cloud__ __CLOUD___PIPELINE', 'acme2')).toBe('acme2 Acme2 ACME2_PIPELINE');
  });

  it('give a provider with the whole anatomy but the generated reference, which the command writes after the build', () => {
    const directory = mkdtempSync(join(tmpdir(), 'create-provider-render-'));
    try {
      for (const [path, text] of rendered) {
        if (!path.startsWith('providers/cloud-provider-acme/')) continue;
        mkdirSync(dirname(join(directory, path)), { recursive: true });
        writeFileSync(join(directory, path), text);
      }
      expect(checkProviderLayout(join(directory, 'providers', 'cloud-provider-acme'))).toEqual(['docs/cloud-controller-manager.md is missing (KEP: flags, config keys and annotations)']);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('the shared files the command edits', () => {
  it('adds a final image stage for the cloud to the root Dockerfile, once', () => {
    const text = readFileSync(join(root, 'Dockerfile'), 'utf8');
    const edited = addDockerfileStage(text, 'acme') as string;
    const stage = parseDockerfile(edited).findIndex((instruction) => instruction.keyword === 'FROM' && instruction.arguments === 'runtime AS acme');
    expect(stage).toBeGreaterThan(0);
    expect(parseDockerfile(edited)[stage + 1]).toMatchObject({ keyword: 'ENTRYPOINT', arguments: '["/nodejs/bin/node", "--enable-source-maps", "/app/acme-cloud-controller-manager.mjs"]' });
    expect(parseDockerfile(edited).at(-1)).toMatchObject({ keyword: 'FROM', arguments: '${PROVIDER}' });
    expect(edited).toContain('# PROVIDER: sandbox, aws, gcp, azure, openstack, vsphere or acme.');
    expect(edited).toContain('set --build-arg PROVIDER=<sandbox|aws|gcp|azure|openstack|vsphere|acme>');
    expect(addDockerfileStage(edited, 'acme')).toBe(edited);
    expect(() => addDockerfileStage('FROM x\n', 'acme')).toThrow(/no line "# The image: the stage named by PROVIDER\."/);
  });

  it('makes e2e depend on the provider and reference its conformance build', () => {
    const manifest = JSON.parse(addE2eDependency(readFileSync(join(root, 'e2e', 'package.json'), 'utf8'), 'acme') as string) as { dependencies: Record<string, string> };
    expect(manifest.dependencies['@ccm/cloud-provider-acme']).toBe('workspace:*');
    expect(manifest.dependencies['@ccm/cloud-provider-sandbox']).toBe('workspace:*');
    const once = addE2eReference(readFileSync(join(root, 'e2e', 'tsconfig.json'), 'utf8'), 'acme') as string;
    const config = JSON.parse(addE2eReference(once, 'acme') as string) as { references: Array<{ path: string }> };
    expect(config.references.filter((reference) => reference.path === '../providers/cloud-provider-acme/tsconfig.conformance.json')).toHaveLength(1);
  });

  it('links the chart to the shared chart and schema, as every provider chart', () => {
    expect(Object.fromEntries(chartLinks('acme') as Map<string, string>)).toEqual({
      'charts/acme-cloud-controller-manager/charts/ccm-common': '../../ccm-common',
      'charts/acme-cloud-controller-manager/values.schema.json': '../ccm-common/provider-values.schema.json',
    });
  });

  it.each([
    ['Example', /lower-case letters and digits/],
    ['9lives', /starting with a letter/],
    ['my-cloud', /lower-case letters and digits/],
    ['sandbox', /providers\/cloud-provider-sandbox exists already/],
  ])('refuses %s', (cloud, expected) => {
    expect(refusal(root, cloud)).toMatch(expected);
    expect(() => writeProvider(root, cloud)).toThrow(expected);
  });
});

/** Files and folders a copy of the repository leaves out: installs, caches, build products of other tools. */
const NOT_COPIED = new Set(['node_modules', '.git', '.turbo', 'bundle', 'coverage', '.test-results', '.bench', '.bin', '.images']);

/** Runs a command in `cwd`; resolves with its exit code and output (stdout and stderr interleaved). */
function runIn(cwd: string, command: string, commandArguments: readonly string[], environment: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  // The child vitest must not believe it runs inside this one.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && !['NODE_OPTIONS', 'TEST', 'FORCE_COLOR'].includes(name)));
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArguments, { cwd, env: { ...inherited, CI: 'true', NO_COLOR: '1', TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', ...environment } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const tail = (output: string): string => output.split('\n').slice(-60).join('\n');

/** `Tests  12 passed | 1 skipped (13)` of a vitest run. */
function vitestCounts(output: string): { passed: number; failed: number; skipped: number } {
  const line = output.replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((candidate) => /^\s*Tests\s/.test(candidate)) ?? '';
  const count = (word: string): number => Number(new RegExp(`(\\d+) ${word}`).exec(line)?.[1] ?? 0);
  return { passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
}

describe('pnpm create-provider example, in a copy of the repository', () => {
  let copy = '';
  let scaffold: { code: number | null; output: string } | undefined;
  const vitest = (): string => join(copy, 'node_modules', '.bin', 'vitest');

  beforeAll(async () => {
    copy = join(mkdtempSync(join(tmpdir(), 'create-provider-')), basename(root));
    // The sources and the build products (dist/, dist-test/: the workspaces the new one depends on
    // need not be rebuilt), without installs or caches; the command installs from the pnpm store.
    const started = Date.now();
    cpSync(root, copy, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true, filter: (source) => !NOT_COPIED.has(basename(source)) });
    const copied = Date.now();
    scaffold = await runIn(copy, process.execPath, ['scripts/create-provider/create-provider.mjs', 'example']);
    console.info(`[create-provider] copied the repository in ${copied - started} ms; scaffolded, installed, built and documented example in ${Date.now() - copied} ms`);
  }, 300_000);

  afterAll(() => {
    if (copy !== '') rmSync(dirname(copy), { recursive: true, force: true });
  });

  it('scaffolds, installs, builds and documents the provider', () => {
    expect(scaffold?.code, tail(scaffold?.output ?? '')).toBe(0);
    expect(scaffold?.output).toContain('providers/cloud-provider-example is ready');
    expect(readFileSync(join(copy, 'providers', 'cloud-provider-example', 'docs', 'cloud-controller-manager.md'), 'utf8')).toContain('# example-cloud-controller-manager reference');
  });

  it('passes the layout check of the copy, its generated reference included', { timeout: 120_000 }, async () => {
    expect(checkProviderLayout(join(copy, 'providers', 'cloud-provider-example'))).toEqual([]);
    const run = await runIn(copy, vitest(), ['run', 'scripts/provider-layout.test.ts', '-t', 'cloud-provider-example']);
    expect(run.code, tail(run.output)).toBe(0);
    expect(vitestCounts(run.output)).toMatchObject({ passed: 2, failed: 0 });
  });

  it('has a manifests overlay that renders, validates and carries a cloud-config its reader accepts (manifests/manifests.test.ts)', { timeout: 120_000 }, async () => {
    const run = await runIn(copy, vitest(), ['run', 'manifests/manifests.test.ts', '-t', 'kubectl kustomize manifests/example']);
    expect(run.code, tail(run.output)).toBe(0);
    expect(vitestCounts(run.output)).toMatchObject({ failed: 0 });
    expect(vitestCounts(run.output).passed).toBeGreaterThanOrEqual(8);
  });

  it('typechecks with its tests, and its own tests pass (config, planner, the contract suites over the fake cloud)', { timeout: 180_000 }, async () => {
    const [typecheck, tests] = await Promise.all([
      runIn(copy, join(copy, 'node_modules', '.bin', 'tsc'), ['-p', 'providers/cloud-provider-example/tsconfig.test.json', '--noEmit']),
      runIn(copy, vitest(), ['run', 'providers/cloud-provider-example']),
    ]);
    expect(typecheck.code, tail(typecheck.output)).toBe(0);
    expect(tests.code, tail(tests.output)).toBe(0);
    expect(vitestCounts(tests.output)).toMatchObject({ failed: 0, skipped: 0 });
    expect(vitestCounts(tests.output).passed).toBeGreaterThan(30);
  });

  // Against @ccm/kube-emulator: the real kube-apiserver's run of the same suite belongs to the
  // provider once it is committed (e2e/src/conformance/<cloud>.conformance.test.ts).
  it('passes the conformance suite against its fake cloud', { timeout: 300_000 }, async () => {
    const run = await runIn(copy, vitest(), ['run', 'e2e/src/conformance/example.conformance.test.ts'], { CCM_KUBE_API: 'emulator' });
    expect(run.code, tail(run.output)).toBe(0);
    expect(vitestCounts(run.output)).toMatchObject({ failed: 0, skipped: 0 });
    expect(vitestCounts(run.output).passed).toBeGreaterThan(20);
  });
});
