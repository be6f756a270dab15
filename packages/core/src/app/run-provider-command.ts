/**
 * A provider binary's whole `main`: core's command with the provider registered in the
 * process-wide registry and made the default of `--cloud-provider`, the process's arguments, and
 * what the binary adds (its flag groups, `onFlagsParsed`, its controllers). Every provider's bin is
 * this one call, so a reader who knows one bin knows all.
 */
import type { CloudProviderRegistry } from '../provider/provider-registry.js';
import { cloudProviders } from '../provider/provider-registry.js';
import { runCloudControllerManager, type RunCloudControllerManagerOptions } from './run-cloud-controller-manager.js';

/** What a provider binary gives its command besides the provider (`commandName`, flags, controllers, ...). */
export type ProviderCommandSettings = Omit<RunCloudControllerManagerOptions, 'registry' | 'argv' | 'defaultCloudProvider'>;

/** The provider of a binary: a `defineCloudProvider` result. */
export interface ProviderCommandProvider {
  readonly name: string;
  register(registry?: CloudProviderRegistry): CloudProviderRegistry;
}

/** Runs `settings.commandName` with `provider` and `argv` (default: the process's arguments); resolves to the exit code. */
export function runProviderCommand(provider: ProviderCommandProvider, settings: ProviderCommandSettings, argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  return runCloudControllerManager({ ...settings, registry: provider.register(cloudProviders), argv, defaultCloudProvider: provider.name });
}
