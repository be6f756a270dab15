/**
 * Reads the YAML cloud config (upstream's preferred format) into a RawVsphereConfig. Like
 * upstream (gopkg.in/yaml.v2) it uses YAML 1.1 (`yes`/`on` are booleans) and matches key names
 * exactly; string keys take the scalar as written (`password: 0123` stays "0123"). Unknown keys
 * are warnings (upstream ignores them); wrong types, duplicate keys and syntax errors are
 * problems; everything carries its line.
 */
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node, type Pair, type YAMLMap } from 'yaml';
import { findDuplicateYamlKeys } from '@ccm/core/config';
import { VSPHERE_CONFIG_SECTIONS, type ConfigKeySpec, type ConfigSectionSpec, type SectionId } from './config-keys.js';
import { emptyRawConfig, emptyRawSection, problemAt, splitCommaList, type ConfigPlace, type RawSection, type RawValue, type RawVsphereConfig } from './raw-config.js';

/** Real configs are a few kilobytes; parsing megabytes of YAML takes seconds to minutes. */
export const MAX_YAML_CONFIG_LENGTH = 256 * 1024;

export function readYamlConfig(text: string, fileName: string): RawVsphereConfig {
  const raw = emptyRawConfig(fileName, 'yaml');
  const lineCounter = new LineCounter();
  if (text.length > MAX_YAML_CONFIG_LENGTH) {
    raw.problems.push({ fileName, message: `the YAML cloud config is ${text.length} characters long, more than the ${MAX_YAML_CONFIG_LENGTH} a cloud config can be` });
    raw.incomplete = true;
    return raw;
  }
  // Duplicate keys are found in one pass: the parser's own `uniqueKeys` check is quadratic.
  const document = parseDocument(text, { version: '1.1', lineCounter, prettyErrors: false, uniqueKeys: false });
  const placeOf = (node: Node | null | undefined): ConfigPlace => {
    const offset = node?.range?.[0];
    return offset === undefined ? { fileName } : { fileName, line: lineCounter.linePos(offset).line };
  };
  // The first syntax error only: the ones after it are mostly its echo (an unclosed `[` inside
  // an unclosed `{` is two errors on one line).
  for (const error of document.errors.slice(0, 1)) {
    raw.problems.push({ fileName, line: lineCounter.linePos(error.pos[0]).line, message: `YAML: ${firstLine(error.message)}` });
  }
  if (document.errors.length === 0) {
    for (const duplicate of findDuplicateYamlKeys(document)) {
      raw.problems.push({ fileName, line: lineCounter.linePos(duplicate.range?.[0] ?? 0).line, message: 'YAML: Map keys must be unique' });
    }
  }
  for (const warning of document.warnings) {
    raw.warnings.push({ fileName, line: lineCounter.linePos(warning.pos[0]).line, message: `YAML: ${firstLine(warning.message)}` });
  }
  if (raw.problems.length > 0) {
    raw.incomplete = true;
    return raw;
  }

  const root = document.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) return raw;
  if (!isMap(root)) {
    raw.problems.push(problemAt(placeOf(root), 'the YAML cloud config must be a mapping with global, vcenter, labels and nodes sections'));
    raw.incomplete = true;
    return raw;
  }

  for (const pair of root.items as Array<Pair<Node, Node | null>>) {
    const name = keyName(pair.key);
    const keyPlace = placeOf(pair.key);
    const entry = Object.entries(VSPHERE_CONFIG_SECTIONS).find(([, section]) => section.yaml === name);
    if (entry === undefined) {
      raw.warnings.push(problemAt(keyPlace, `unknown section ${JSON.stringify(name)} (known: ${knownSectionNames()}); ignored`));
      continue;
    }
    const [sectionId, section] = entry as [SectionId, ConfigSectionSpec];
    if (section.status === 'not-supported') {
      raw.warnings.push(problemAt(keyPlace, `section ${JSON.stringify(name)} is not supported: ${section.description}`));
      continue;
    }
    const value = pair.value;
    if (value !== null && !isMap(value) && !(isScalar(value) && value.value === null)) {
      raw.problems.push(problemAt(placeOf(value), `section ${JSON.stringify(name)} must be a mapping`));
      continue;
    }
    const map = isMap(value) ? value : undefined;
    if (section.named) {
      for (const named of (map?.items ?? []) as Array<Pair<Node, Node | null>>) {
        const vcenterName = keyName(named.key);
        const place = placeOf(named.key);
        if (named.value !== null && !isMap(named.value) && !(isScalar(named.value) && named.value.value === null)) {
          raw.problems.push(problemAt(placeOf(named.value), `${name}.${vcenterName} must be a mapping`));
          continue;
        }
        const target = emptyRawSection(place);
        readKeys(isMap(named.value) ? named.value : undefined, section, `${name}.${vcenterName}`, target, raw, placeOf);
        raw.vcenters.set(vcenterName, target);
      }
    } else {
      const target = raw[sectionId as 'global' | 'labels' | 'nodes'];
      target.place = keyPlace;
      readKeys(map, section, name, target, raw, placeOf);
    }
  }
  return raw;
}

function readKeys(
  map: YAMLMap | undefined,
  section: ConfigSectionSpec,
  path: string,
  target: RawSection,
  raw: RawVsphereConfig,
  placeOf: (node: Node | null | undefined) => ConfigPlace,
): void {
  for (const pair of (map?.items ?? []) as Array<Pair<Node, Node | null>>) {
    const name = keyName(pair.key);
    const found = Object.entries(section.keys).find(([, key]) => key.yaml === name);
    if (found === undefined) {
      raw.warnings.push(problemAt(placeOf(pair.key), `unknown key ${JSON.stringify(`${path}.${name}`)}; ignored`));
      continue;
    }
    const [keyId, keySpec] = found;
    const place = placeOf(pair.value ?? pair.key);
    const converted = convert(pair.value, keySpec);
    if (typeof converted === 'object' && converted !== null && 'problem' in converted) {
      raw.problems.push(problemAt(place, `${path}.${name}: ${converted.problem}`));
      continue;
    }
    target.entries.set(keyId, { value: converted, place });
  }
}

function convert(node: Node | null, key: ConfigKeySpec): RawValue | { problem: string } {
  if (node === null || (isScalar(node) && node.value === null)) return emptyValue(key);
  switch (key.type) {
    case 'string':
      if (!isScalar(node)) return { problem: 'must be a string' };
      return scalarText(node);
    case 'boolean':
      if (!isScalar(node) || typeof node.value !== 'boolean') return { problem: `must be true or false, not ${describe(node)}` };
      return node.value;
    case 'integer': {
      if (!isScalar(node)) return { problem: 'must be a number' };
      const value = typeof node.value === 'number' ? node.value : typeof node.value === 'string' && /^\d+$/.test(node.value.trim()) ? Number(node.value.trim()) : Number.NaN;
      if (!Number.isSafeInteger(value) || value < 0) return { problem: `must be a non-negative integer, not ${describe(node)}` };
      return value;
    }
    case 'list':
      if (isSeq(node)) {
        const items: string[] = [];
        for (const item of node.items as Node[]) {
          if (!isScalar(item)) return { problem: 'must be a list of strings' };
          items.push(...splitCommaList(scalarText(item)));
        }
        return items;
      }
      if (isScalar(node)) return splitCommaList(scalarText(node));
      return { problem: 'must be a list of strings' };
  }
}

function emptyValue(key: ConfigKeySpec): RawValue {
  switch (key.type) {
    case 'string':
      return '';
    case 'boolean':
      return false;
    case 'integer':
      return 0;
    case 'list':
      return [];
  }
}

/** The scalar as written for plain scalars (yaml.v2 keeps `0123` for a string field). */
function scalarText(node: Node): string {
  if (!isScalar(node)) return '';
  if (typeof node.value === 'string') return node.value;
  if (node.type === 'PLAIN' && typeof node.source === 'string') return node.source;
  return String(node.value);
}

function keyName(node: Node | null | undefined): string {
  if (node !== null && node !== undefined && isScalar(node)) return String(node.value);
  return String(node);
}

function describe(node: Node): string {
  return isScalar(node) ? JSON.stringify(scalarText(node)) : isSeq(node) ? 'a list' : 'a mapping';
}

function knownSectionNames(): string {
  return Object.values(VSPHERE_CONFIG_SECTIONS)
    .filter((section) => section.status === 'supported')
    .map((section) => section.yaml)
    .join(', ');
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}
