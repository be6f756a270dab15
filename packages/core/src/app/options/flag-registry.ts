/**
 * Holds the flag groups of a command and parses argv with kube/pflag semantics:
 * - `--flag=value` and `--flag value`; booleans (and flags with a no-value default) take their
 *   value only through `=`: `--leader-elect`, `--leader-elect=false`;
 * - shorthands: `-v 2`, `-v=2`, `-v2`, and combined booleans `-hv2`;
 * - `strings` flags: comma-separated and repeatable (the first use replaces the default);
 * - `--` ends the flags; other arguments are positional (interspersed, like pflag).
 * Problems throw `FlagError` naming the flag and the value.
 */
import { FlagError } from './flag-error.js';
import type { FlagDefinition, FlagGroup, FlagGroupValues, FlagValue } from './flag-definition.js';
import { parseFlagValue } from './parse-flag-value.js';

interface RegisteredFlag {
  definition: FlagDefinition;
  group: FlagGroup;
  property: string;
}

export class FlagRegistry {
  readonly #groups: FlagGroup[] = [];
  readonly #byName = new Map<string, RegisteredFlag>();
  readonly #byShorthand = new Map<string, RegisteredFlag>();
  readonly #defaultOverrides = new Map<string, FlagValue>();

  constructor(groups: readonly FlagGroup[] = []) {
    for (const group of groups) this.add(group);
  }

  /** Adds a group; a flag name or shorthand declared twice is a programming error. */
  add(group: FlagGroup): this {
    for (const [property, definition] of Object.entries(group.flags)) {
      if (!/^[a-z0-9][a-z0-9-]*$/.test(definition.name)) throw new Error(`invalid flag name ${JSON.stringify(definition.name)}`);
      if (this.#byName.has(definition.name)) throw new Error(`flag --${definition.name} is declared twice`);
      if (definition.shorthand !== undefined) {
        if (definition.shorthand.length !== 1) throw new Error(`flag --${definition.name}: a shorthand is one letter`);
        if (this.#byShorthand.has(definition.shorthand)) throw new Error(`shorthand -${definition.shorthand} is declared twice`);
      }
      const entry: RegisteredFlag = { definition, group, property };
      this.#byName.set(definition.name, entry);
      if (definition.shorthand !== undefined) this.#byShorthand.set(definition.shorthand, entry);
    }
    this.#groups.push(group);
    return this;
  }

  /** Changes a default (e.g. a provider's bin fixing `--cloud-provider`); shown in `--help` too. */
  setDefault(name: string, value: FlagValue): this {
    const entry = this.#byName.get(name);
    if (!entry) throw new Error(`unknown flag --${name}`);
    this.#defaultOverrides.set(name, value);
    return this;
  }

  defaultOf(name: string): FlagValue {
    const entry = this.#byName.get(name);
    if (!entry) throw new Error(`unknown flag --${name}`);
    return this.#defaultOverrides.has(name) ? (this.#defaultOverrides.get(name) as FlagValue) : entry.definition.default;
  }

  groups(): readonly FlagGroup[] {
    return this.#groups;
  }

  definition(name: string): FlagDefinition | undefined {
    return this.#byName.get(name)?.definition;
  }

  parse(argv: readonly string[]): ParsedFlags {
    const values = new Map<string, FlagValue>();
    for (const name of this.#byName.keys()) values.set(name, this.defaultOf(name));
    const setOrder: string[] = [];
    const positional: string[] = [];
    const warnings: string[] = [];

    const assign = (entry: RegisteredFlag, text: string, written: string): void => {
      const { definition } = entry;
      const parsed = parseFlagValue(definition, text);
      let problem = 'problem' in parsed ? parsed.problem : undefined;
      if (problem === undefined && definition.check) problem = definition.check(('value' in parsed ? parsed.value : undefined) as never);
      if (problem !== undefined || !('value' in parsed)) {
        throw new FlagError(`invalid argument ${JSON.stringify(text)} for ${JSON.stringify(written)} flag: ${problem}`, { flag: written, value: text });
      }
      const alreadySet = setOrder.includes(definition.name);
      if ((definition.type === 'stringList' || definition.type === 'stringArray') && alreadySet) {
        values.set(definition.name, [...(values.get(definition.name) as readonly string[]), ...(parsed.value as readonly string[])]);
      } else {
        values.set(definition.name, parsed.value);
      }
      if (!alreadySet) {
        setOrder.push(definition.name);
        if (definition.deprecated !== undefined) warnings.push(`Flag --${definition.name} has been deprecated, ${definition.deprecated}`);
      }
    };
    const takesValueOnlyWithEquals = (definition: FlagDefinition): string | undefined =>
      definition.type === 'bool' ? (definition.noValueDefault ?? 'true') : definition.noValueDefault;

    let index = 0;
    while (index < argv.length) {
      const argument = argv[index++] as string;
      if (argument === '--') {
        positional.push(...argv.slice(index));
        break;
      }
      if (argument.startsWith('--')) {
        const body = argument.slice(2);
        if (body.startsWith('-') || body.startsWith('=')) throw new FlagError(`bad flag syntax: ${argument}`, { flag: argument });
        const equals = body.indexOf('=');
        const name = equals === -1 ? body : body.slice(0, equals);
        const entry = this.#byName.get(name);
        if (!entry) throw new FlagError(`unknown flag: --${name}`, { flag: `--${name}` });
        const written = describeFlag(entry.definition);
        if (equals !== -1) {
          assign(entry, body.slice(equals + 1), written);
          continue;
        }
        const implicit = takesValueOnlyWithEquals(entry.definition);
        if (implicit !== undefined) assign(entry, implicit, written);
        else if (index < argv.length) assign(entry, argv[index++] as string, written);
        else throw new FlagError(`flag needs an argument: --${name}`, { flag: `--${name}` });
        continue;
      }
      if (argument.startsWith('-') && argument.length > 1) {
        let shorthands = argument.slice(1);
        while (shorthands.length > 0) {
          const letter = shorthands[0] as string;
          const entry = this.#byShorthand.get(letter);
          if (!entry) {
            if (letter === '=') throw new FlagError(`bad flag syntax: ${argument}`, { flag: argument });
            throw new FlagError(`unknown shorthand flag: '${letter}' in ${argument}`, { flag: `-${letter}` });
          }
          const written = describeFlag(entry.definition);
          if (shorthands[1] === '=') {
            assign(entry, shorthands.slice(2), written);
            break;
          }
          const implicit = takesValueOnlyWithEquals(entry.definition);
          if (implicit !== undefined) {
            assign(entry, implicit, written);
            shorthands = shorthands.slice(1);
            continue;
          }
          if (shorthands.length > 1) assign(entry, shorthands.slice(1), written);
          else if (index < argv.length) assign(entry, argv[index++] as string, written);
          else throw new FlagError(`flag needs an argument: '${letter}' in ${argument}`, { flag: `-${letter}` });
          break;
        }
        continue;
      }
      positional.push(argument);
    }
    return new ParsedFlags(this, values, setOrder, positional, warnings);
  }
}

/** pflag's way of naming a flag in messages: `--name` or `-v, --v`. */
export function describeFlag(definition: FlagDefinition): string {
  return definition.shorthand === undefined ? `--${definition.name}` : `-${definition.shorthand}, --${definition.name}`;
}

/** The result of parsing: every flag's value (defaults included) and which flags were given. */
export class ParsedFlags {
  readonly #registry: FlagRegistry;
  readonly #values: ReadonlyMap<string, FlagValue>;
  readonly #setOrder: readonly string[];
  /** Arguments that are not flags (the command rejects them). */
  readonly positional: readonly string[];
  /** Deprecation warnings for flags that were used. */
  readonly warnings: readonly string[];

  constructor(registry: FlagRegistry, values: ReadonlyMap<string, FlagValue>, setOrder: readonly string[], positional: readonly string[], warnings: readonly string[]) {
    this.#registry = registry;
    this.#values = values;
    this.#setOrder = setOrder;
    this.positional = positional;
    this.warnings = warnings;
  }

  value(name: string): FlagValue {
    const value = this.#values.get(name);
    if (value === undefined) throw new Error(`unknown flag --${name}`);
    return value;
  }

  /** pflag's `Changed`: given on the command line (even if equal to the default). */
  isSet(name: string): boolean {
    return this.#setOrder.includes(name);
  }

  /** Given with a value other than its default (the default of the registry, overrides included). */
  differsFromDefault(name: string): boolean {
    const value = this.value(name);
    const fallback = this.#registry.defaultOf(name);
    if (Array.isArray(value) && Array.isArray(fallback)) return value.length !== fallback.length || value.some((entry, index) => entry !== fallback[index]);
    return value !== fallback;
  }

  /** Names of the flags given, in the order first given. */
  setFlags(): readonly string[] {
    return this.#setOrder;
  }

  /** The typed values of one group (defaults for flags not given). */
  valuesOf<F extends Readonly<Record<string, FlagDefinition>>>(group: FlagGroup<F>): FlagGroupValues<F> {
    const result: Record<string, FlagValue> = {};
    for (const [property, definition] of Object.entries(group.flags)) result[property] = this.value(definition.name);
    return result as FlagGroupValues<F>;
  }

  /** Runs every group's `validate` and returns all messages. */
  validateGroups(): string[] {
    const messages: string[] = [];
    for (const group of this.#registry.groups()) {
      if (group.validate) messages.push(...group.validate(this.valuesOf(group)));
    }
    return messages;
  }

  registry(): FlagRegistry {
    return this.#registry;
  }
}
