#!/usr/bin/env node
// `pnpm create-provider <cloud>`: scaffolds providers/cloud-provider-<cloud> with the anatomy every
// provider shares (scripts/provider-layout.ts), its manifests overlay, its Helm chart, its
// conformance test in e2e and its image stage, from the templates under
// scripts/create-provider/templates/ (real files, `.tmpl` appended, with the placeholders of
// PLACEHOLDERS in their paths and text). Then installs (links the new workspace), builds it and
// generates its reference docs, unless --no-install.
//
//   pnpm create-provider example              # scaffold, install, build, docs
//   pnpm create-provider example --no-install # only write the files
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TEMPLATES_DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), 'templates');
export const TEMPLATE_SUFFIX = '.tmpl';

/** The layout's rule for a provider folder `cloud-provider-<cloud>` (scripts/provider-layout.ts). */
export const CLOUD_NAME_PATTERN = /^[a-z][a-z0-9]*$/;

/** A problem with the command's input: reported as one line, exit 2. */
export class CreateProviderError extends Error {
  name = 'CreateProviderError';
}

/** What each placeholder stands for: `example` -> `example`, `Example`, `EXAMPLE`. */
export function placeholderValues(cloud) {
  return { __cloud__: cloud, __Cloud__: `${cloud.charAt(0).toUpperCase()}${cloud.slice(1)}`, __CLOUD__: cloud.toUpperCase() };
}

export function substitutePlaceholders(text, cloud) {
  let result = text;
  for (const [placeholder, value] of Object.entries(placeholderValues(cloud))) result = result.replaceAll(placeholder, value);
  return result;
}

/** Every template, relative to the templates folder with `/` separators, sorted. */
export function templateFiles(templatesDirectory = TEMPLATES_DIRECTORY) {
  return readdirSync(templatesDirectory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(TEMPLATE_SUFFIX))
    .map((entry) => relative(templatesDirectory, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/** The files of a new provider: repository path -> text. */
export function renderTemplates(cloud, templatesDirectory = TEMPLATES_DIRECTORY) {
  const files = new Map();
  for (const template of templateFiles(templatesDirectory)) {
    const path = substitutePlaceholders(template.slice(0, -TEMPLATE_SUFFIX.length), cloud);
    files.set(path, substitutePlaceholders(readFileSync(join(templatesDirectory, template), 'utf8'), cloud));
  }
  return files;
}

/** Symbolic links of the new chart, as every provider chart has them: path -> target. */
export function chartLinks(cloud) {
  const chart = `charts/${cloud}-cloud-controller-manager`;
  return new Map([
    [`${chart}/charts/ccm-common`, '../../ccm-common'],
    [`${chart}/values.schema.json`, '../ccm-common/provider-values.schema.json'],
  ]);
}

/** The root Dockerfile with one more final stage, `FROM runtime AS <cloud>`, before the last line that picks the stage. */
export function addDockerfileStage(text, cloud) {
  const marker = '\n# The image: the stage named by PROVIDER.';
  if (!text.includes(marker)) throw new CreateProviderError(`Dockerfile: no line "${marker.trim()}" to add the ${cloud} stage before`);
  if (new RegExp(`^FROM runtime AS ${cloud}$`, 'm').test(text)) return text;
  const stage = `FROM runtime AS ${cloud}\nENTRYPOINT ["/nodejs/bin/node", "--enable-source-maps", "/app/${cloud}-cloud-controller-manager.mjs"]\n`;
  // The lists of providers in the comment and in the message of a missing PROVIDER name it too.
  return text
    .replace(marker, `${stage}${marker}`)
    .replace(/^# PROVIDER: (.+) or (\w+)\.$/m, `# PROVIDER: $1, $2 or ${cloud}.`)
    .replace(/--build-arg PROVIDER=<([a-z0-9|]+)>/, `--build-arg PROVIDER=<$1|${cloud}>`);
}

/** e2e/package.json with the provider as a dependency (its conformance driver). */
export function addE2eDependency(text, cloud) {
  const manifest = JSON.parse(text);
  manifest.dependencies = { ...manifest.dependencies, [`@ccm/cloud-provider-${cloud}`]: 'workspace:*' };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** e2e/tsconfig.json referencing the provider's conformance build. */
export function addE2eReference(text, cloud) {
  const config = JSON.parse(text);
  const path = `../providers/cloud-provider-${cloud}/tsconfig.conformance.json`;
  const references = config.references ?? [];
  if (!references.some((reference) => reference.path === path)) references.push({ path });
  config.references = references;
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** Why `cloud` cannot be scaffolded in `root`, or undefined. */
export function refusal(root, cloud) {
  if (!CLOUD_NAME_PATTERN.test(cloud)) return `cloud name ${JSON.stringify(cloud)}: use lower-case letters and digits, starting with a letter (the folder is providers/cloud-provider-<cloud>)`;
  for (const path of [`providers/cloud-provider-${cloud}`, `manifests/${cloud}`, `charts/${cloud}-cloud-controller-manager`]) {
    if (existsSync(join(root, path))) return `${path} exists already: the ${cloud} provider is there`;
  }
  return undefined;
}

/** Writes the new provider into `root`; returns the paths written. Touches no file of another provider. */
export function writeProvider(root, cloud, templatesDirectory = TEMPLATES_DIRECTORY) {
  const reason = refusal(root, cloud);
  if (reason !== undefined) throw new CreateProviderError(reason);
  const written = [];
  for (const [path, text] of renderTemplates(cloud, templatesDirectory)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    written.push(path);
  }
  for (const [path, target] of chartLinks(cloud)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    symlinkSync(target, join(root, path));
    written.push(path);
  }
  const edits = [
    ['Dockerfile', addDockerfileStage],
    ['e2e/package.json', addE2eDependency],
    ['e2e/tsconfig.json', addE2eReference],
  ];
  for (const [path, edit] of edits) {
    writeFileSync(join(root, path), edit(readFileSync(join(root, path), 'utf8'), cloud));
    written.push(path);
  }
  return written;
}

/** The pnpm of the root package.json "packageManager", through npx (the README's way of running it). */
function pnpmCommand(root) {
  const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return ['npx', ['-y', packageManager]];
}

function run(root, command, commandArguments, environment = {}) {
  const result = spawnSync(command, commandArguments, { cwd: root, stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', ...environment } });
  if (result.status !== 0) throw new CreateProviderError(`\`${[command, ...commandArguments].join(' ')}\` failed (exit ${result.status ?? result.signal})`);
}

/**
 * Links the new workspace (the lockfile gains its importer, no new package is fetched), builds it
 * and what it depends on, and writes its generated reference docs.
 */
export function installAndBuild(root, cloud) {
  const [npx, pnpm] = pnpmCommand(root);
  run(root, npx, [...pnpm, 'install', '--prefer-offline', '--no-frozen-lockfile']);
  run(root, npx, [...pnpm, 'exec', 'turbo', 'run', 'build', `--filter=@ccm/cloud-provider-${cloud}...`, '--output-logs=errors-only']);
  run(root, npx, [...pnpm, '--filter', `@ccm/cloud-provider-${cloud}`, 'run', 'docs']);
}

export function nextSteps(cloud) {
  return [
    `providers/cloud-provider-${cloud} is ready; see docs/adding-a-provider.md. Next:`,
    `  pnpm exec vitest run providers/cloud-provider-${cloud} scripts/provider-layout.test.ts   # its tests and the layout check`,
    `  pnpm exec vitest run e2e/src/conformance/${cloud}.conformance.test.ts                  # the conformance suite against its fake cloud`,
    `  then replace src/ports/sdk/http-${cloud}-cloud-port.ts with an adapter over the cloud's SDK, and add`,
    `  the chart to charts/charts.test.ts (PROVIDERS) and docs/helm.md.`,
  ].join('\n');
}

function main(argv) {
  const options = argv.filter((argument) => argument.startsWith('--'));
  const names = argv.filter((argument) => !argument.startsWith('--'));
  const unknown = options.filter((option) => option !== '--no-install');
  if (names.length !== 1 || unknown.length > 0) {
    console.error('usage: pnpm create-provider <cloud> [--no-install]   (cloud: lower-case letters and digits, e.g. example)');
    return 2;
  }
  const cloud = names[0];
  try {
    const written = writeProvider(repositoryRoot, cloud);
    console.log(`wrote ${written.length} files for the ${cloud} provider`);
    if (!options.includes('--no-install')) installAndBuild(repositoryRoot, cloud);
    console.log(nextSteps(cloud));
    return 0;
  } catch (error) {
    if (error instanceof CreateProviderError) {
      console.error(`create-provider: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
