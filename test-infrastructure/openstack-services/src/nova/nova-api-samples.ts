/**
 * Nova's API samples (`nova/tests/functional/api_sample_tests/api_samples/**.json.tpl` from the
 * pinned python3-nova, extracted by `.ci/install-prerequisites`, section nova-api-samples) and a
 * structural comparison: the same keys at every level, values of the same JSON type. Templates
 * hold `%(name)s` placeholders, inside strings (any text) or bare (a value of unknown type).
 *
 * Leniencies, each as Nova's own API allows: a sample's `null` stands for a nullable string (and
 * an answer's null for a sample string); maps keyed by data (`addresses`, `metadata`,
 * `extra_specs`) are compared by value type, not by key; list item i is compared with the
 * sample's item i, or its first item past the sample's end.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareMicroversions, parseMicroversion, type Microversion } from './nova-microversion.js';

export const NOVA_API_SAMPLES_VARIABLE = 'NOVA_API_SAMPLES';
export const DEFAULT_NOVA_API_SAMPLES = '/var/cache/ccm/nova/api_samples';
export const NOVA_API_SAMPLES_INSTALL_HINT =
  'run `bash .ci/install-prerequisites` as root (section nova-api-samples: `apt-get download python3-nova=2:26.2.2-1~deb12u5` and `dpkg -x`), or set NOVA_API_SAMPLES to the api_samples directory';

/** Object keys whose names are data, not attributes. */
const DATA_KEYED_MAPS = new Set(['addresses', 'metadata', 'extra_specs']);

/** A bare placeholder's stand-in value: it matches any JSON value. */
const ANY = Symbol('any value');

export function novaApiSamplesDirectory(): string {
  return process.env[NOVA_API_SAMPLES_VARIABLE] || DEFAULT_NOVA_API_SAMPLES;
}

export function novaApiSamplesUnavailableReason(directory = novaApiSamplesDirectory()): string | undefined {
  if (!existsSync(join(directory, 'servers', 'server-get-resp.json.tpl'))) return `Nova's API samples are not in ${directory}`;
  return undefined;
}

/** The versions (`vX.Y` folders) that have their own copy of a sample, oldest first; 2.1 is the base. */
export function sampleVersions(directory: string, sample: string): Microversion[] {
  const [group, file] = splitSample(sample);
  const versions: Microversion[] = existsSync(join(directory, group, file)) ? [{ major: 2, minor: 1 }] : [];
  for (const entry of existsSync(join(directory, group)) ? readdirSync(join(directory, group)) : []) {
    const version = /^v(\d+\.\d+)$/.exec(entry) === null ? undefined : parseMicroversion(entry.slice(1));
    if (version !== undefined && existsSync(join(directory, group, entry, file))) versions.push(version);
  }
  return versions.sort(compareMicroversions);
}

/** The file describing `sample` at `version`: the newest `vX.Y` copy not newer than it, else the base. */
export function sampleFile(directory: string, sample: string, version: Microversion): string | undefined {
  const [group, file] = splitSample(sample);
  const applicable = sampleVersions(directory, sample).filter((candidate) => compareMicroversions(candidate, version) <= 0);
  const newest = applicable[applicable.length - 1];
  if (newest === undefined) return undefined;
  return newest.major === 2 && newest.minor === 1 ? join(directory, group, file) : join(directory, group, `v${newest.major}.${newest.minor}`, file);
}

function splitSample(sample: string): [string, string] {
  const slash = sample.indexOf('/');
  return [sample.slice(0, slash), sample.slice(slash + 1)];
}

/** A template's JSON with quoted placeholders replaced by `values[name]` (default: the name) and bare ones by ANY. */
export function parseTemplate(text: string, values: Readonly<Record<string, string>> = {}): unknown {
  const marker = '"__nova_sample_any__"';
  // Bare placeholders first: a `%(x)s` outside quotes (JSON strings are on one line in samples).
  const bare = text.replace(/("(?:[^"\\]|\\.)*")|%\((\w+)\)s/g, (whole, quoted: string | undefined) => (quoted !== undefined ? quoted : marker));
  const filled = bare.replace(/%\((\w+)\)s/g, (_, name: string) => (values[name] ?? name).replace(/["\\]/g, '\\$&'));
  return markAny(JSON.parse(filled));
}

function markAny(value: unknown): unknown {
  if (value === '__nova_sample_any__') return ANY;
  if (Array.isArray(value)) return value.map(markAny);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, markAny(entry)]));
  return value;
}

export function loadSample(directory: string, sample: string, version: Microversion, values: Readonly<Record<string, string>> = {}): { file: string; body: unknown } {
  const file = sampleFile(directory, sample, version);
  if (file === undefined) throw new Error(`no API sample ${sample} in ${directory} for ${version.major}.${version.minor}`);
  return { file, body: parseTemplate(readFileSync(file, 'utf8'), values) };
}

type JsonType = 'null' | 'string' | 'number' | 'boolean' | 'array' | 'object';

function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as JsonType;
}

function compatible(actual: JsonType, expected: JsonType): boolean {
  if (actual === expected) return true;
  // Nullable strings: Nova answers null where a sample shows a value, and the reverse.
  return (actual === 'null' && expected === 'string') || (actual === 'string' && expected === 'null');
}

/** The differences between an answer and a sample ([] when they have the same structure). */
export function compareWithSample(actual: unknown, sample: unknown, path = '$'): string[] {
  if (sample === ANY) return [];
  const actualType = jsonType(actual);
  const sampleType = jsonType(sample);
  if (!compatible(actualType, sampleType)) return [`${path}: ${actualType} where the sample has ${sampleType}`];
  if (actualType === 'array' && sampleType === 'array') {
    const sampleItems = sample as unknown[];
    if (sampleItems.length === 0) return [];
    // Item i against the sample's item i (links: self, then describedby), past its end the first one.
    return (actual as unknown[]).flatMap((item, index) => compareWithSample(item, sampleItems[index] ?? sampleItems[0], `${path}[${index}]`));
  }
  if (actualType === 'object' && sampleType === 'object') {
    const actualObject = actual as Record<string, unknown>;
    const sampleObject = sample as Record<string, unknown>;
    const key = path.slice(path.lastIndexOf('.') + 1);
    if (DATA_KEYED_MAPS.has(key)) {
      const sampleValues = Object.values(sampleObject);
      if (sampleValues.length === 0) return [];
      return Object.entries(actualObject).flatMap(([name, value]) => compareWithSample(value, sampleValues[0], `${path}[${JSON.stringify(name)}]`));
    }
    const differences: string[] = [];
    for (const name of Object.keys(sampleObject)) if (!(name in actualObject)) differences.push(`${path}.${name}: missing (the sample has it)`);
    for (const name of Object.keys(actualObject)) if (!(name in sampleObject)) differences.push(`${path}.${name}: not in the sample`);
    for (const name of Object.keys(sampleObject)) if (name in actualObject) differences.push(...compareWithSample(actualObject[name], sampleObject[name], `${path}.${name}`));
    return differences;
  }
  return [];
}
