// The one docs generator: finds a provider's built renderer by convention, writes the pages its
// referenceDocs() returns into the provider's docs/, and reports a provider it cannot render in one
// line. (That every committed page is current is checked in provider-layout.test.ts.)
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { DocsInputError, generateReferenceDocs, providerDirectories, renderReferenceDocs, rendererModule } from './generate-docs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const generator = join(root, 'scripts', 'generate-docs.mjs');

let temporary = '';
afterEach(() => {
  if (temporary !== '') rmSync(temporary, { recursive: true, force: true });
  temporary = '';
});

/** A built provider `cloud-provider-acme` whose renderer module is `rendererText`. */
function builtProvider(rendererText: string | undefined): string {
  temporary = mkdtempSync(join(tmpdir(), 'generate-docs-'));
  const provider = join(temporary, 'cloud-provider-acme');
  mkdirSync(join(provider, 'docs'), { recursive: true });
  if (rendererText !== undefined) {
    mkdirSync(join(provider, 'dist', 'docs'), { recursive: true });
    writeFileSync(join(provider, 'dist', 'docs', 'render-acme-reference.js'), rendererText);
  }
  return provider;
}

describe('the docs generator', () => {
  it('finds the renderer of a provider folder by its cloud, built or source', () => {
    expect(rendererModule('providers/cloud-provider-aws')).toBe(join(root, 'providers/cloud-provider-aws/dist/docs/render-aws-reference.js'));
    expect(rendererModule('providers/cloud-provider-gcp', { source: true })).toBe(join(root, 'providers/cloud-provider-gcp/src/docs/render-gcp-reference.ts'));
    expect(() => rendererModule('providers/aws')).toThrow('providers/aws: not a provider folder (providers/cloud-provider-<cloud>)');
  });

  it('lists every provider folder', () => {
    expect(providerDirectories(root).map((directory) => directory.split('/').at(-1))).toEqual(expect.arrayContaining(['cloud-provider-aws', 'cloud-provider-sandbox', 'cloud-provider-vsphere']));
  });

  it("writes each page referenceDocs() returns into the provider's docs/", async () => {
    const provider = builtProvider("export function referenceDocs() {\n  return { 'cloud-controller-manager.md': '# acme\\n', 'policy.json': '{}\\n' };\n}\n");
    const written = await generateReferenceDocs(provider);
    expect(written).toEqual([join(provider, 'docs', 'cloud-controller-manager.md'), join(provider, 'docs', 'policy.json')]);
    expect(readFileSync(join(provider, 'docs', 'cloud-controller-manager.md'), 'utf8')).toBe('# acme\n');
    expect(readFileSync(join(provider, 'docs', 'policy.json'), 'utf8')).toBe('{}\n');
  });

  it.each([
    { name: 'no built renderer', renderer: undefined, problem: /render-acme-reference\.js: no such renderer \(run `pnpm build` first\)$/ },
    { name: 'no referenceDocs()', renderer: 'export function renderAcmeReference() {\n  return "";\n}\n', problem: /exports no referenceDocs\(\) \(the pages of docs\/ by file name\)$/ },
    { name: 'no page', renderer: 'export function referenceDocs() {\n  return {};\n}\n', problem: /referenceDocs\(\) returned no page$/ },
    { name: 'a page outside docs/', renderer: "export function referenceDocs() {\n  return { '../README.md': 'x' };\n}\n", problem: /page "\.\.\/README\.md" must be a file name under docs\/ with text content$/ },
    { name: 'a page without text', renderer: "export function referenceDocs() {\n  return { 'a.md': 1 };\n}\n", problem: /page "a\.md" must be a file name under docs\/ with text content$/ },
  ])('refuses a provider with $name', async ({ renderer, problem }) => {
    const provider = builtProvider(renderer);
    const failure = await renderReferenceDocs(provider).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DocsInputError);
    expect((failure as Error).message).toMatch(problem);
  });

  it('as a command: writes and says so, or exits 2 with one line', async () => {
    const provider = builtProvider("export function referenceDocs() {\n  return { 'cloud-controller-manager.md': '# acme\\n' };\n}\n");
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [generator, provider]);
    expect(stdout).toBe(`wrote ${join(provider, 'docs', 'cloud-controller-manager.md')}\n`);
    const failed = await run(process.execPath, [generator, join(temporary, 'not-a-provider')]).catch((error: unknown) => error as { code: number; stderr: string });
    expect(failed).toMatchObject({ code: 2, stderr: `generate-docs: ${join(temporary, 'not-a-provider')}: not a provider folder (providers/cloud-provider-<cloud>)\n` });
  });
});
