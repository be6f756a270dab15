/**
 * A Service annotation declared once: its key, the type of its value, its status and what the
 * docs say about it. Providers keep one registry (`src/annotations.ts`) of these; the typed
 * readers (`readAnnotation`) and the docs table (`renderAnnotationTable`) both read it.
 */
import type { InputStatus } from './input-status.js';

/**
 * How the text is taken before it is parsed: trimmed unless `trim` is false; an empty text
 * counts as absent (the reader returns undefined) unless `empty` is `invalid`.
 */
export interface AnnotationTextOptions {
  trim?: boolean;
  empty?: 'absent' | 'invalid';
}

/** How the text of an annotation becomes a value. */
export type AnnotationValueType = AnnotationTextOptions & AnnotationValueKind;

export type AnnotationValueKind =
  /** Any text. */
  | { kind: 'string' }
  /**
   * `go`: strconv.ParseBool (`1`, `t`, `TRUE`, `False`, ...); `true-false`: exactly `true` or
   * `false`; `true-false-any-case`: `true` or `false` in any case.
   */
  | { kind: 'boolean'; syntax: 'go' | 'true-false' | 'true-false-any-case' }
  /** A decimal integer (Go strconv.ParseInt base 10: an optional sign, digits), within the bounds. */
  | { kind: 'integer'; min?: number; max?: number }
  /** A Go duration (`300ms`, `1m30s`), in milliseconds. */
  | { kind: 'duration' }
  /** One of `values`; with `caseInsensitive` the value is returned as spelled in `values`. */
  | { kind: 'enum'; values: readonly string[]; caseInsensitive?: boolean }
  /** Comma-separated CIDRs, each as Go prints it (`10.0.0.7/8` is `10.0.0.0/8`), de-duplicated, sorted. */
  | { kind: 'cidr-list' }
  /** Comma-separated entries, trimmed, empty ones dropped. */
  | { kind: 'list' }
  /**
   * Comma-separated `key=value` entries (see parseKeyValuePairs for the syntaxes).
   */
  | { kind: 'key-value-map'; syntax: KeyValueSyntax };

/**
 * - `lenient` (upstream AWS `getKeyValuePropertiesFromAnnotation`): never fails; a bare key or
 *   `k=` gives '', `k=v=w` gives `v`, entries without a key are skipped.
 * - `key-or-pair` (upstream OpenStack `getKeyValueFromServiceAnnotation`): `k=v` or a bare `k`;
 *   an empty key or a second `=` is an error.
 * - `pair`: `k=v` only (the value is everything after the first `=`); a missing key or `=` is
 *   an error.
 */
export type KeyValueSyntax = 'lenient' | 'key-or-pair' | 'pair';

export interface AnnotationDefinition {
  /** The full key; `{port}` stands for a service port number. */
  key: string;
  /** The value type the typed reader parses; undefined for annotations read in a way of their own. */
  type?: AnnotationValueType;
  /** Behaviour when the annotation is absent, as the docs say it. */
  defaultValue: string;
  status: InputStatus;
  /** Why the annotation is accepted and ignored, or not supported. */
  reason?: string;
  description: string;
  /** Extra docs columns of the provider (e.g. which load balancer kind reads it), by header. */
  columns?: Readonly<Record<string, string>>;
}

/** Checks a registry: every key once, a reason for every status but `supported`. Returns it unchanged. */
export function defineAnnotations<const Registry extends Readonly<Record<string, AnnotationDefinition>>>(registry: Registry): Registry {
  const seen = new Set<string>();
  for (const [name, definition] of Object.entries(registry)) {
    if (seen.has(definition.key)) throw new Error(`annotation ${definition.key} (${name}) is declared twice`);
    seen.add(definition.key);
    if (definition.status !== 'supported' && (definition.reason === undefined || definition.reason === '')) {
      throw new Error(`annotation ${definition.key} (${name}) is ${definition.status} without a reason`);
    }
  }
  return registry;
}
