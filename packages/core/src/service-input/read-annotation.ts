/**
 * The one parse of Service annotations: `readAnnotation` takes a definition of the registry and
 * returns the typed value, undefined when the annotation is absent, or throws
 * InvalidAnnotationError naming the annotation and the value. The parse functions are exported
 * for values that arrive another way (per-port keys, attributes inside an annotation).
 */
import type { V1Service } from '@kubernetes/client-node';
import { formatCidrAsGo, tryParseCidr } from '../net/cidr.js';
import { parseGoDuration } from '../util/go-duration.js';
import { parseGoBool } from '../util/parse-go-bool.js';
import type { AnnotationDefinition, AnnotationValueKind, AnnotationValueType, KeyValueSyntax } from './annotation-definition.js';
import { InvalidAnnotationError } from './invalid-annotation-error.js';

export type ServiceAnnotations = Readonly<Record<string, string>>;

/** The value a type parses to. */
export type AnnotationValue<Type extends AnnotationValueKind> = Type extends { kind: 'string' }
  ? string
  : Type extends { kind: 'boolean' }
    ? boolean
    : Type extends { kind: 'integer' } | { kind: 'duration' }
      ? number
      : Type extends { kind: 'enum'; values: readonly (infer Value)[] }
        ? Value
        : Type extends { kind: 'key-value-map' }
          ? Record<string, string>
          : string[];

/** The annotations of a Service (an empty object when it has none). */
export function annotationsOf(service: V1Service): ServiceAnnotations {
  return service.metadata?.annotations ?? {};
}

/** The raw text of an annotation (own properties only), or undefined. */
export function annotationText(source: V1Service | ServiceAnnotations, key: string): string | undefined {
  const annotations = isService(source) ? annotationsOf(source) : source;
  return Object.prototype.hasOwnProperty.call(annotations, key) ? annotations[key] : undefined;
}

function isService(source: V1Service | ServiceAnnotations): source is V1Service {
  // Annotation values are strings; a Service's metadata and spec are objects.
  return typeof (source as V1Service).metadata === 'object' || typeof (source as V1Service).spec === 'object';
}

/**
 * The typed value of `definition` on `source` (a Service or its annotations); undefined when the
 * annotation is absent (or empty, unless its type says empty is invalid).
 */
export function readAnnotation<Definition extends AnnotationDefinition & { type: AnnotationValueType }>(
  source: V1Service | ServiceAnnotations,
  definition: Definition,
): AnnotationValue<Definition['type']> | undefined {
  const raw = annotationText(source, definition.key);
  if (raw === undefined) return undefined;
  return parseAnnotationValue(definition.key, raw, definition.type) as AnnotationValue<Definition['type']> | undefined;
}

/** Parses `raw`, the text of annotation `key`, as `type`; undefined when it is empty and empty counts as absent. */
export function parseAnnotationValue<Type extends AnnotationValueType>(key: string, raw: string, type: Type): AnnotationValue<Type> | undefined {
  const text = type.trim === false ? raw : raw.trim();
  if (text === '' && type.empty !== 'invalid') return undefined;
  const fail = (reason: string): InvalidAnnotationError => new InvalidAnnotationError(key, raw, reason);
  return parseText(text, type, fail) as AnnotationValue<Type>;
}

function parseText(text: string, type: AnnotationValueKind, fail: (reason: string) => InvalidAnnotationError): unknown {
  switch (type.kind) {
    case 'string':
      return text;
    case 'boolean':
      return parseBoolean(text, type.syntax, fail);
    case 'integer':
      return parseInteger(text, type, fail);
    case 'duration':
      try {
        return parseGoDuration(text);
      } catch (error) {
        throw fail(`${(error as Error).message} (a Go duration such as 300ms, 5s or 1m30s)`);
      }
    case 'enum':
      return parseEnum(text, type.values, type.caseInsensitive === true, fail);
    case 'list':
      return splitList(text);
    case 'cidr-list':
      return parseCidrList(splitList(text), fail);
    case 'key-value-map':
      return Object.fromEntries(parseKeyValuePairs(text, type.syntax, fail));
  }
}

function parseBoolean(text: string, syntax: 'go' | 'true-false' | 'true-false-any-case', fail: (reason: string) => InvalidAnnotationError): boolean {
  if (syntax === 'go') {
    const parsed = parseGoBool(text);
    if (parsed === undefined) throw fail('expected a boolean (true or false)');
    return parsed;
  }
  const spelled = syntax === 'true-false-any-case' ? text.toLowerCase() : text;
  if (spelled === 'true') return true;
  if (spelled === 'false') return false;
  throw fail('must be true or false');
}

function parseInteger(text: string, bounds: { min?: number; max?: number }, fail: (reason: string) => InvalidAnnotationError): number {
  if (!/^[+-]?\d+$/.test(text)) throw fail('expected an integer');
  const parsed = Number.parseInt(text, 10);
  if (!Number.isSafeInteger(parsed)) throw fail('integer out of range');
  const { min, max } = bounds;
  if (min !== undefined && max !== undefined && (parsed < min || parsed > max)) throw fail(`must be between ${min} and ${max}`);
  if (min !== undefined && parsed < min) throw fail(`must be at least ${min}`);
  if (max !== undefined && parsed > max) throw fail(`must be at most ${max}`);
  return parsed;
}

/** `A`, `A or B`, `A, B or C`. */
function alternatives(values: readonly string[]): string {
  return values.length <= 1 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

function parseEnum(text: string, values: readonly string[], caseInsensitive: boolean, fail: (reason: string) => InvalidAnnotationError): string {
  const found = values.find((value) => (caseInsensitive ? value.toLowerCase() === text.toLowerCase() : value === text));
  if (found === undefined) throw fail(`must be ${alternatives(values)}`);
  return found;
}

/** Comma-separated entries, trimmed, empty ones dropped. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** CIDRs as Go prints them, de-duplicated and sorted; entries that do not parse fail, all named. */
export function parseCidrList(entries: readonly string[], fail: (reason: string) => Error): string[] {
  const ranges = new Set<string>();
  const invalid: string[] = [];
  for (const entry of entries) {
    const cidr = tryParseCidr(entry);
    if (cidr === undefined) invalid.push(JSON.stringify(entry));
    else ranges.add(formatCidrAsGo(cidr));
  }
  if (invalid.length === 1) throw fail(`${invalid[0]} is not a CIDR`);
  if (invalid.length > 1) throw fail(`${invalid.join(', ')} are not CIDRs`);
  return [...ranges].sort();
}

/** Comma-separated `key=value` entries with `syntax` (see KeyValueSyntax), in order. */
export function parseKeyValuePairs(text: string, syntax: KeyValueSyntax, fail: (reason: string) => Error): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  if (syntax === 'lenient') {
    for (const entry of text.trim().split(',')) {
      const parts = entry.trim().split('=');
      const name = parts[0] ?? '';
      if (name !== '') pairs.push([name, parts.length >= 2 ? (parts[1] ?? '') : '']);
    }
    return pairs;
  }
  for (const entry of splitList(text)) {
    const equals = entry.indexOf('=');
    if (syntax === 'pair') {
      if (equals <= 0) throw fail(`${JSON.stringify(entry)} is not key=value`);
      pairs.push([entry.slice(0, equals).trim(), entry.slice(equals + 1).trim()]);
      continue;
    }
    const [name = '', ...rest] = entry.split('=');
    if (name.trim() === '' || rest.length > 1) throw fail(`${JSON.stringify(entry)} is not key=value or key`);
    pairs.push([name.trim(), rest.length === 0 ? '' : (rest[0] ?? '').trim()]);
  }
  return pairs;
}
