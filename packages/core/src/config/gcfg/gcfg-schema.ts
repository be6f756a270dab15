/**
 * A declarative schema for gcfg cloud-config files. A provider declares its sections and keys
 * once (name, type, default, description, deprecation) and gets:
 * - a typed configuration object (`read` / `parse`),
 * - every problem at once (unknown sections and keys, bad values, missing required keys), each
 *   naming file, line, section and key,
 * - the documentation table (`renderGcfgSchemaDoc`).
 *
 * Value rules follow Go gcfg: booleans accept true/yes/on/1 and false/no/off/0 (any case) and a
 * bare name means true; integers are decimal or `0x` hexadecimal; strings are taken verbatim
 * (numeric-looking IDs stay strings); `list` keys are multi-valued (the variable is repeated,
 * and a bare name clears the list). A key that is not set keeps its default (or the zero value:
 * `''`, `false`, `0`, `[]`).
 */
import { CloudConfigError, type CloudConfigProblem } from '../cloud-config-error.js';
import { mayHoldSecret } from '../../util/secret-names.js';
import type { GcfgDocument, GcfgSection, GcfgVariable } from './gcfg-document.js';
import { parseGcfg } from './parse-gcfg.js';

export type GcfgKeyType = 'string' | 'bool' | 'int' | 'list';

export type GcfgValueOf<T extends GcfgKeyType> = T extends 'string'
  ? string
  : T extends 'bool'
    ? boolean
    : T extends 'int'
      ? number
      : readonly string[];

export interface GcfgKeySpec<T extends GcfgKeyType = GcfgKeyType> {
  type: T;
  /** The variable name in the file (matched case-insensitively), e.g. `insecure-flag`. */
  name: string;
  description: string;
  /** Used when the key is not set; defaults to the zero value of the type. */
  default?: GcfgValueOf<T>;
  /** Problem "required key ... is not set" when absent. */
  required?: boolean;
  /** Why it is deprecated / what to use instead; using it adds a warning. */
  deprecated?: string;
  /**
   * Marks passwords and tokens in the docs. Their values are never echoed in problems (nor those
   * of keys named like a secret: password, secret, token, key, credential).
   */
  secret?: boolean;
  /** For strings: the allowed values (compared exactly). */
  allowed?: readonly string[];
}

export interface GcfgSectionSpec {
  /** The section name in the file (matched case-insensitively), e.g. `Global`. */
  name: string;
  description?: string;
  /**
   * `true` for `[Name "subsection"]` sections that may repeat (read into a Map keyed by the
   * case-sensitive subsection; a plain `[Name]` lands under the key `''`, as in gcfg).
   */
  subsections?: boolean;
  keys: Readonly<Record<string, GcfgKeySpec>>;
}

export type GcfgSchemaSpec = Readonly<Record<string, GcfgSectionSpec>>;

type KeyValues<Keys extends Readonly<Record<string, GcfgKeySpec>>> = {
  -readonly [K in keyof Keys]: GcfgValueOf<Keys[K]['type']>;
};

/** The typed configuration a schema produces. */
export type GcfgConfigOf<S extends GcfgSchemaSpec> = {
  -readonly [K in keyof S]: S[K]['subsections'] extends true ? Map<string, KeyValues<S[K]['keys']>> : KeyValues<S[K]['keys']>;
};

export interface GcfgReadOptions {
  /** What an unknown section or key is: an `error` (default) or a `warning` (upstream `gcfg.FatalOnly`). */
  unknown?: 'error' | 'warning';
}

export interface GcfgReadResult<S extends GcfgSchemaSpec> {
  config: GcfgConfigOf<S>;
  /** Syntax problems of the document plus schema problems, in file order where possible. */
  problems: CloudConfigProblem[];
  /** Deprecated keys used, and unknown names when `unknown: 'warning'`. */
  warnings: CloudConfigProblem[];
}

export interface GcfgSchema<S extends GcfgSchemaSpec> {
  readonly sections: S;
  /** Reads a parsed document; never throws. */
  read(document: GcfgDocument, options?: GcfgReadOptions): GcfgReadResult<S>;
  /**
   * Parses and reads `text`; throws one `CloudConfigError` with every problem. Returns the
   * warnings for the caller to log.
   */
  parse(text: string, fileName: string, options?: GcfgReadOptions): { config: GcfgConfigOf<S>; warnings: CloudConfigProblem[] };
}

/** Declares a schema; `const` keeps the key types literal, so the config is fully typed. */
export function defineGcfgSchema<const S extends GcfgSchemaSpec>(sections: S): GcfgSchema<S> {
  checkSpec(sections);
  return {
    sections,
    read: (document, options) => readDocument(sections, document, options ?? {}),
    parse(text, fileName, options) {
      const result = readDocument(sections, parseGcfg(text, fileName), options ?? {});
      if (result.problems.length > 0) throw new CloudConfigError(result.problems);
      return { config: result.config, warnings: result.warnings };
    },
  };
}

function checkSpec(sections: GcfgSchemaSpec): void {
  const sectionNames = new Set<string>();
  for (const section of Object.values(sections)) {
    const sectionName = section.name.toLowerCase();
    if (sectionNames.has(sectionName)) throw new Error(`gcfg schema declares section "${section.name}" twice`);
    sectionNames.add(sectionName);
    const keyNames = new Set<string>();
    for (const key of Object.values(section.keys)) {
      const keyName = key.name.toLowerCase();
      if (keyNames.has(keyName)) throw new Error(`gcfg schema declares key "${key.name}" twice in section "${section.name}"`);
      keyNames.add(keyName);
    }
  }
}

function readDocument<S extends GcfgSchemaSpec>(spec: S, document: GcfgDocument, options: GcfgReadOptions): GcfgReadResult<S> {
  const problems: CloudConfigProblem[] = [...document.problems];
  const warnings: CloudConfigProblem[] = [];
  const unknownIsError = (options.unknown ?? 'error') === 'error';
  const fileName = document.fileName;
  const config: Record<string, unknown> = {};

  const sectionSpecs = Object.entries(spec);
  for (const [property, sectionSpec] of sectionSpecs) {
    if (sectionSpec.subsections) {
      const map = new Map<string, Record<string, unknown>>();
      for (const section of document.sectionsNamed(sectionSpec.name)) {
        map.set(section.subsection ?? '', readSection(sectionSpec, section, fileName, problems, warnings, unknownIsError));
      }
      config[property] = map;
    } else {
      const section = document.section(sectionSpec.name);
      config[property] = readSection(sectionSpec, section, fileName, problems, warnings, unknownIsError);
    }
  }

  for (const section of document.sections) {
    const sectionSpec = sectionSpecs.find(([, candidate]) => candidate.name.toLowerCase() === section.name.toLowerCase())?.[1];
    let message: string | undefined;
    if (!sectionSpec) message = `unknown section "${section.name}"`;
    else if (section.subsection !== undefined && !sectionSpec.subsections) {
      message = `section "${sectionSpec.name}" does not take a subsection (found [${section.name} ${JSON.stringify(section.subsection)}])`;
    }
    if (message !== undefined) (unknownIsError ? problems : warnings).push({ fileName, line: section.line, message });
  }

  problems.sort(byLine);
  warnings.sort(byLine);
  return { config: config as GcfgConfigOf<S>, problems, warnings };
}

function readSection(
  sectionSpec: GcfgSectionSpec,
  section: GcfgSection | undefined,
  fileName: string,
  problems: CloudConfigProblem[],
  warnings: CloudConfigProblem[],
  unknownIsError: boolean,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const keySpecs = Object.entries(sectionSpec.keys);
  const where = section?.subsection === undefined ? `[${sectionSpec.name}]` : `[${sectionSpec.name} ${JSON.stringify(section.subsection)}]`;

  for (const [property, keySpec] of keySpecs) {
    const assignments = section ? section.variables.filter((variable) => variable.name.toLowerCase() === keySpec.name.toLowerCase()) : [];
    if (assignments.length === 0) {
      values[property] = defaultValue(keySpec);
      if (keySpec.required && (section !== undefined || !sectionSpec.subsections)) {
        problems.push({ fileName, ...(section ? { line: section.line } : {}), message: `required key "${keySpec.name}" in section ${where} is not set` });
      }
      continue;
    }
    if (keySpec.deprecated !== undefined) {
      const first = assignments[0] as GcfgVariable;
      warnings.push({ fileName, line: first.line, message: `key "${keySpec.name}" in section ${where} is deprecated: ${keySpec.deprecated}` });
    }
    values[property] = convertAssignments(keySpec, assignments, (variable, message) =>
      problems.push({ fileName, line: variable.line, message: `section ${where}, key "${keySpec.name}": ${message}` }),
    );
  }

  if (section) {
    for (const variable of section.variables) {
      if (keySpecs.some(([, keySpec]) => keySpec.name.toLowerCase() === variable.name.toLowerCase())) continue;
      (unknownIsError ? problems : warnings).push({ fileName, line: variable.line, message: `unknown key "${variable.name}" in section ${where}` });
    }
  }
  return values;
}

function convertAssignments(
  keySpec: GcfgKeySpec,
  assignments: readonly GcfgVariable[],
  report: (variable: GcfgVariable, message: string) => void,
): unknown {
  if (keySpec.type === 'list') {
    let list: string[] = [];
    for (const variable of assignments) {
      if (variable.value === undefined) list = [];
      else list.push(variable.value);
    }
    return list;
  }
  // Single-valued: every assignment is checked, the last one wins.
  let result: unknown = defaultValue(keySpec);
  for (const variable of assignments) {
    const converted = convertValue(keySpec, variable);
    if ('problem' in converted) report(variable, converted.problem);
    else result = converted.value;
  }
  return result;
}

function convertValue(keySpec: GcfgKeySpec, variable: GcfgVariable): { value: unknown } | { problem: string } {
  const raw = variable.value;
  // Secret keys (declared, or named like one in the file) never have their value echoed.
  const withheld = keySpec.secret === true || mayHoldSecret(keySpec.name) || mayHoldSecret(variable.name);
  const shown = (value: string): string => (withheld ? '(value withheld)' : JSON.stringify(value));
  switch (keySpec.type) {
    case 'bool': {
      if (raw === undefined) return { value: true };
      const parsed = parseGcfgBool(raw);
      return parsed === undefined ? { problem: `invalid boolean ${shown(raw)} (use true/false, yes/no, on/off or 1/0)` } : { value: parsed };
    }
    case 'int': {
      if (raw === undefined) return { problem: 'a value is required (write name = value)' };
      const parsed = parseGcfgInt(raw);
      return parsed === undefined ? { problem: `invalid integer ${shown(raw)}` } : { value: parsed };
    }
    case 'string': {
      if (raw === undefined) return { problem: 'a value is required (write name = value)' };
      if (keySpec.allowed && !keySpec.allowed.includes(raw)) {
        return { problem: `invalid value ${shown(raw)}: must be one of ${keySpec.allowed.map((value) => JSON.stringify(value)).join(', ')}` };
      }
      return { value: raw };
    }
    case 'list':
      return { value: raw };
  }
}

/** Go gcfg booleans: true/yes/on/1 and false/no/off/0, any case. */
export function parseGcfgBool(text: string): boolean | undefined {
  switch (text.toLowerCase()) {
    case 'true':
    case 'yes':
    case 'on':
    case '1':
      return true;
    case 'false':
    case 'no':
    case 'off':
    case '0':
      return false;
    default:
      return undefined;
  }
}

/** Go gcfg integers: decimal or `0x` hexadecimal, optional sign; zero-padded decimals are decimal, not octal. */
export function parseGcfgInt(text: string): number | undefined {
  const match = /^([+-]?)(?:0[xX]([0-9a-fA-F]+)|([0-9]+))$/.exec(text.trim());
  if (!match) return undefined;
  const magnitude = match[2] !== undefined ? Number.parseInt(match[2], 16) : Number.parseInt(match[3] as string, 10);
  if (!Number.isSafeInteger(magnitude)) return undefined;
  return match[1] === '-' ? -magnitude : magnitude;
}

function defaultValue(keySpec: GcfgKeySpec): unknown {
  if (keySpec.default !== undefined) return keySpec.type === 'list' ? [...(keySpec.default as readonly string[])] : keySpec.default;
  switch (keySpec.type) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'int':
      return 0;
    case 'list':
      return [];
  }
}

function byLine(left: CloudConfigProblem, right: CloudConfigProblem): number {
  return (left.line ?? Number.MAX_SAFE_INTEGER) - (right.line ?? Number.MAX_SAFE_INTEGER);
}
