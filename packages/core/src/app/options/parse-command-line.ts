/**
 * Parses the command line of a cloud-controller-manager bin: flags (kube/pflag semantics),
 * `-h/--help`, `--version`, and the rejection of positional arguments. Validation is separate
 * (`validateOptions`), so tests and tools can build options without a provider.
 */
import {
  createCloudControllerManagerFlagRegistry,
  optionsFromFlags,
  type CloudControllerManagerOptions,
  type FlagRegistrySettings,
} from './cloud-controller-manager-flags.js';
import { FlagError } from './flag-error.js';
import type { FlagRegistry, ParsedFlags } from './flag-registry.js';

export type CommandLine =
  | { kind: 'help'; registry: FlagRegistry }
  | { kind: 'version'; raw: boolean }
  | { kind: 'run'; options: CloudControllerManagerOptions; flags: ParsedFlags; registry: FlagRegistry };

export interface ParseCommandLineSettings extends FlagRegistrySettings {
  /** Used in the positional-argument message; defaults to `cloud-controller-manager`. */
  commandName?: string;
}

/** Throws `FlagError` for unknown flags, bad values, missing values and positional arguments. */
export function parseCommandLine(argv: readonly string[], settings: ParseCommandLineSettings = {}): CommandLine {
  const registry = createCloudControllerManagerFlagRegistry(settings);
  const flags = registry.parse(argv);
  if (flags.value('help') === true) return { kind: 'help', registry };
  const version = flags.value('version');
  if (version === 'true' || version === 'raw') return { kind: 'version', raw: version === 'raw' };
  const positional = flags.positional.filter((argument) => argument.length > 0);
  if (positional.length > 0) {
    throw new FlagError(`${JSON.stringify(settings.commandName ?? 'cloud-controller-manager')} does not take any arguments, got ${JSON.stringify(positional)}`);
  }
  return { kind: 'run', options: optionsFromFlags(flags), flags, registry };
}
