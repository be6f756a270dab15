/**
 * The typed flag registry: every command-line flag is declared once (name, type, default,
 * section, help) in a `FlagGroup`; parsing, `--help`, docs/flags.md and the typed options are
 * all derived from these declarations. Providers declare their own groups the same way.
 */
import { formatGoDuration } from '../../util/go-duration.js';

export type FlagType = 'string' | 'bool' | 'int' | 'float' | 'duration' | 'stringList' | 'stringArray';

/**
 * Parsed values: durations are milliseconds; `stringList` is pflag's comma-separated, repeatable
 * `strings`; `stringArray` is pflag's `stringArray`: repeatable, each use one entry (commas kept).
 */
export type FlagValueOf<T extends FlagType> = T extends 'string'
  ? string
  : T extends 'bool'
    ? boolean
    : T extends 'int' | 'float' | 'duration'
      ? number
      : readonly string[];

export type FlagValue = string | boolean | number | readonly string[];

/** A flag's declaration; without a type argument, the union over every flag type. */
export type FlagDefinition<T extends FlagType = FlagType> = T extends FlagType ? TypedFlagDefinition<T> : never;

export interface TypedFlagDefinition<T extends FlagType> {
  /** Without dashes: `cloud-provider`. */
  name: string;
  type: T;
  default: FlagValueOf<T>;
  help: string;
  /** One letter, used as `-v 2`, `-v=2`, `-v2`. */
  shorthand?: string;
  /**
   * pflag's NoOptDefVal: the value taken when the flag is given without `=value` (the next
   * argument is then never consumed). Booleans always behave as if this were `'true'`.
   */
  noValueDefault?: string;
  /** Extra check of a parsed value; returns the reason it is invalid. */
  check?(value: FlagValueOf<T>): string | undefined;
  /** Type name shown in `--help` (pflag's), e.g. `int32`, `float32`, `ip`, `mapStringBool`. */
  valueName?: string;
  /** Accepted so upstream manifests keep working, but has no effect here; this says why. Logged when set. */
  ignored?: string;
  /** pflag deprecation: a warning is printed when used, and the flag is hidden from `--help`. */
  deprecated?: string;
  /** Only range-checked ints: inclusive bounds, as Go's int32 etc. */
  minimum?: number;
  maximum?: number;
}

export interface FlagGroup<F extends Readonly<Record<string, FlagDefinition>> = Readonly<Record<string, FlagDefinition>>> {
  /** Upstream NamedFlagSets name, e.g. `generic`, `secure serving`; `--help` prints "<Section> flags:". */
  readonly section: string;
  /** Property name -> flag. Property names become the keys of the typed values. */
  readonly flags: F;
  /** Cross-flag validation of this group's values; every returned message is printed. */
  validate?(values: FlagGroupValues<F>): string[];
}

export type FlagGroupValues<F extends Readonly<Record<string, FlagDefinition>>> = {
  -readonly [K in keyof F]: FlagValueOf<F[K]['type']>;
};

/** Declares a group; `const` keeps the flag types literal so the values are fully typed. */
export function defineFlagGroup<const F extends Readonly<Record<string, FlagDefinition>>>(
  section: string,
  flags: F,
  options: { validate?: (values: FlagGroupValues<F>) => string[] } = {},
): FlagGroup<F> {
  return options.validate ? { section, flags, validate: options.validate } : { section, flags };
}

/** The type name `--help` shows after the flag name (pflag conventions); bools show none. */
export function flagValueName(definition: FlagDefinition): string {
  if (definition.valueName !== undefined) return definition.valueName;
  switch (definition.type) {
    case 'string':
      return 'string';
    case 'bool':
      return '';
    case 'int':
      return 'int';
    case 'float':
      return 'float';
    case 'duration':
      return 'duration';
    case 'stringList':
      return 'strings';
    case 'stringArray':
      return 'stringArray';
  }
}

/** The default as pflag prints it, or `undefined` when pflag would not print it (zero values). */
export function formatFlagDefault(definition: FlagDefinition, value: FlagValue = definition.default): string | undefined {
  switch (definition.type) {
    case 'string':
      return value === '' ? undefined : JSON.stringify(value);
    case 'bool':
      return value === true ? 'true' : undefined;
    case 'int':
    case 'float':
      return value === 0 ? undefined : String(value);
    case 'duration':
      return value === 0 ? undefined : formatGoDuration(value as number);
    case 'stringList':
    case 'stringArray':
      return (value as readonly string[]).length === 0 ? undefined : `[${(value as readonly string[]).join(',')}]`;
  }
}
