// The root Dockerfile (for people with a Docker engine) and the daemonless build
// (scripts/image/) describe one image: the same Node major, user, working directory, port,
// entrypoint per provider and label keys. Its build stage builds and bundles the provider named
// by ARG PROVIDER; no provider keeps a Dockerfile of its own.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDockerfile, type DockerInstruction } from '../parse-dockerfile.js';
import { describeProviderImage, imageLabels, knownProviders, repositoryRoot } from './build-image.mjs';
import { IMAGE_DEFINITION, NODE_RUNTIME, entrypointOf } from './image-inputs.mjs';

const dockerfile = readFileSync(join(repositoryRoot, 'Dockerfile'), 'utf8');
const instructions = parseDockerfile(dockerfile);
const nodeMajor = NODE_RUNTIME.version.split('.')[0];
const pinnedPnpm = (JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { packageManager: string }).packageManager.replace(/^pnpm@/, '');

/** The stages: the FROM line and the instructions up to the next FROM. */
function stages(): Array<{ from: DockerInstruction; name: string | undefined; body: DockerInstruction[] }> {
  const result: Array<{ from: DockerInstruction; name: string | undefined; body: DockerInstruction[] }> = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') result.push({ from: instruction, name: /\sAS\s+(\S+)$/i.exec(instruction.arguments)?.[1], body: [] });
    else result.at(-1)?.body.push(instruction);
  }
  return result;
}
const byName = (name: string) => stages().find((stage) => stage.name === name);
const argumentsOf = (stage: { body: DockerInstruction[] }, keyword: string) => stage.body.filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.arguments);

/** LABEL key="value" pairs of one stage. */
function labelsOf(stage: { body: DockerInstruction[] }): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const text of argumentsOf(stage, 'LABEL')) for (const match of text.matchAll(/([\w.-]+)="([^"]*)"/g)) labels[match[1]!] = match[2]!;
  return labels;
}
/** ARG NAME[=default] of one stage. */
function defaultsOf(stage: { body: DockerInstruction[] }): Record<string, string> {
  return Object.fromEntries(argumentsOf(stage, 'ARG').map((text) => {
    const [name, ...value] = text.split('=');
    return [name!, value.join('=').replace(/^"(.*)"$/, '$1')];
  }));
}

describe('the root Dockerfile', () => {
  it('is the only Dockerfile: no provider keeps its own', () => {
    for (const provider of knownProviders()) expect(existsSync(join(repositoryRoot, 'providers', `cloud-provider-${provider}`, 'Dockerfile')), provider).toBe(false);
  });

  it(`builds on node:${nodeMajor}-bookworm-slim and runs on distroless nodejs${nodeMajor} nonroot, the Node major of the daemonless build (${NODE_RUNTIME.version})`, () => {
    expect(instructions[0]).toMatchObject({ keyword: 'ARG', arguments: 'PROVIDER' });
    expect(byName('build')?.from.arguments).toBe(`node:${nodeMajor}-bookworm-slim AS build`);
    expect(byName('runtime')?.from.arguments).toBe(`gcr.io/distroless/nodejs${nodeMajor}-debian12:nonroot AS runtime`);
    expect(labelsOf(byName('runtime')!)['org.opencontainers.image.base.name']).toBe(`gcr.io/distroless/nodejs${nodeMajor}-debian12:nonroot`);
    expect(stages().at(-1)!.from.arguments).toBe('${PROVIDER}');
  });

  it('builds and bundles the provider named by PROVIDER, with the pinned pnpm and the frozen lockfile', () => {
    const build = byName('build')!;
    const runs = argumentsOf(build, 'RUN');
    expect(defaultsOf(build)['PNPM_VERSION']).toBe(pinnedPnpm);
    expect(runs.join('\n')).not.toMatch(/corepack/);
    expect(runs).toContain('npm install --global --no-fund --no-audit pnpm@${PNPM_VERSION}');
    expect(runs).toContain('pnpm install --frozen-lockfile --offline');
    expect(runs).toContain('pnpm turbo run build --filter=@ccm/cloud-provider-${PROVIDER}... --output-logs=errors-only');
    expect(runs).toContain('node scripts/bundle-provider.mjs providers/cloud-provider-${PROVIDER}');
  });

  it('the runtime stage has the user, working directory, port and only the bundle of the daemonless build', () => {
    const runtime = byName('runtime')!;
    expect(argumentsOf(runtime, 'USER')).toEqual([`${IMAGE_DEFINITION.user.uid}:${IMAGE_DEFINITION.user.gid}`]);
    expect(argumentsOf(runtime, 'WORKDIR')).toEqual([IMAGE_DEFINITION.workingDirectory]);
    const ports = new Set(knownProviders().flatMap((provider) => describeProviderImage(provider).ports));
    expect(argumentsOf(runtime, 'EXPOSE').map((port) => (port.includes('/') ? port : `${port}/tcp`))).toEqual([...ports]);
    const copies = argumentsOf(runtime, 'COPY');
    expect(copies).toEqual([
      '--from=build /src/providers/cloud-provider-${PROVIDER}/bundle/${PROVIDER}-cloud-controller-manager.mjs /src/providers/cloud-provider-${PROVIDER}/bundle/${PROVIDER}-cloud-controller-manager.mjs.map /app/',
    ]);
    expect(argumentsOf(runtime, 'RUN')).toEqual([]);
  });

  it('sets the label keys of the daemonless build (plus base.name), with the same title, documentation, source and vendor', () => {
    const runtime = byName('runtime')!;
    const labels = labelsOf(runtime);
    const defaults = defaultsOf(runtime);
    for (const provider of knownProviders()) {
      const description = describeProviderImage(provider);
      const expected = imageLabels(description, { revision: 'r', created: 'c' });
      const { ['org.opencontainers.image.base.name']: base, ...dockerLabels } = labels;
      expect(base).toBeDefined();
      expect(Object.keys(dockerLabels).sort()).toEqual(Object.keys(expected).sort());
      const substitute = (value: string) => value.replaceAll('${PROVIDER}', provider).replaceAll('${SOURCE_URL}', defaults['SOURCE_URL']!).replaceAll('${VERSION}', defaults['VERSION']!);
      for (const key of ['org.opencontainers.image.title', 'org.opencontainers.image.documentation', 'org.opencontainers.image.source', 'org.opencontainers.image.vendor', 'org.opencontainers.image.version']) {
        expect(substitute(dockerLabels[key]!), `${provider}: ${key}`).toBe(expected[key as keyof typeof expected]);
      }
    }
  });

  it('has one final stage per provider whose ENTRYPOINT is the daemonless build\'s', () => {
    const finals = stages().filter((stage) => stage.from.arguments.startsWith('runtime AS '));
    expect(finals.map((stage) => stage.name).sort()).toEqual(knownProviders());
    for (const stage of finals) {
      const entrypoints = argumentsOf(stage, 'ENTRYPOINT');
      expect(entrypoints).toHaveLength(1);
      expect(JSON.parse(entrypoints[0]!)).toEqual(entrypointOf(describeProviderImage(stage.name!).binName));
      expect(stage.body.filter((instruction) => instruction.keyword !== 'ENTRYPOINT')).toEqual([]);
    }
  });

  it('the build context excludes local installs and outputs but keeps what the build needs', () => {
    const patterns = readFileSync(join(repositoryRoot, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(patterns).toEqual(expect.arrayContaining(['.git', '**/node_modules', '**/dist', '**/bundle', '.images']));
    for (const needed of ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', 'scripts', 'packages', 'test-infrastructure', 'examples', 'providers', 'turbo.json', 'tsconfig.base.json']) {
      expect(patterns, `.dockerignore must not exclude ${needed}`).not.toContain(needed);
    }
  });
});
