/**
 * One way to define a provider: its name, how its cloud-config is read, and how it is built.
 * The definition owns what every provider would otherwise repeat: registration, reading the
 * `--cloud-config` text into the typed configuration (every problem at once, as one
 * `CloudConfigError`), and logging the configuration's warnings.
 *
 *   export const sandboxProvider = defineCloudProvider({
 *     name: 'sandbox',
 *     configSchema: { read: (text, fileName) => readSandboxCloudConfig(text, fileName) },
 *     create: (config, context) => createSandboxCloud(config, context),
 *   });
 *   sandboxProvider.register();   // in the bin, before runCloudControllerManager
 *
 * `create` returns the provider with only the capabilities it has (see `CloudProvider`).
 */
import { formatCloudConfigProblem, MAX_PRINTED_PROBLEMS, type CloudConfigProblem } from '../config/cloud-config-error.js';
import type { CloudProvider, CloudProviderFactory, CloudProviderFactoryContext } from './cloud-provider.js';
import { cloudProviders, type CloudProviderRegistry } from './provider-registry.js';

/** What problems and warnings name when no `--cloud-config` was given. */
export const DEFAULT_CLOUD_CONFIG_FILE_NAME = 'cloud-config';

/** How a provider reads its cloud-config. */
export interface CloudConfigSchema<Config> {
  /**
   * Reads the `--cloud-config` text (`undefined` when none was given; a provider that needs one
   * throws). Throws one `CloudConfigError` with every problem; returns the warnings (deprecated
   * or unknown keys), which the definition logs.
   */
  read(text: string | undefined, fileName: string): { config: Config; warnings: readonly CloudConfigProblem[] };
}

export interface CloudProviderCreateContext extends CloudProviderFactoryContext {
  /** The file name problems name: `--cloud-config`, else the definition's default. */
  configFileName: string;
}

export interface CloudProviderDefinition<Config, Cloud extends CloudProvider = CloudProvider> {
  /** `--cloud-provider` name and `providerName` of what `create` builds. Stable: never change it. */
  name: string;
  configSchema: CloudConfigSchema<Config>;
  /** Default `cloud-config`. */
  defaultConfigFileName?: string;
  create(config: Config, context: CloudProviderCreateContext): Cloud | Promise<Cloud>;
}

export interface DefinedCloudProvider<Config, Cloud extends CloudProvider = CloudProvider> {
  readonly name: string;
  readonly configSchema: CloudConfigSchema<Config>;
  /** Reads the config, logs its warnings and creates the provider (a registry factory). */
  readonly factory: CloudProviderFactory;
  /** The factory with the provider's own type: what tests, simulators and tools build it with. */
  createFromText(configText: string | undefined, context: CloudProviderFactoryContext): Promise<Cloud>;
  /** Registers the provider under its name, once (the process-wide registry by default). */
  register(registry?: CloudProviderRegistry): CloudProviderRegistry;
}

export function defineCloudProvider<Config, Cloud extends CloudProvider = CloudProvider>(definition: CloudProviderDefinition<Config, Cloud>): DefinedCloudProvider<Config, Cloud> {
  const checked = (provider: Cloud): Cloud => {
    if (provider.providerName !== definition.name) {
      throw new Error(`cloud provider ${JSON.stringify(definition.name)} created a provider named ${JSON.stringify(provider.providerName)}`);
    }
    return provider;
  };
  // Synchronous as far as the definition is: a config problem throws at once.
  const create = (configText: string | undefined, context: CloudProviderFactoryContext): Cloud | Promise<Cloud> => {
    const configFileName = context.configPath ?? definition.defaultConfigFileName ?? DEFAULT_CLOUD_CONFIG_FILE_NAME;
    const { config, warnings } = definition.configSchema.read(configText, configFileName);
    for (const warning of warnings.slice(0, MAX_PRINTED_PROBLEMS)) {
      context.logger.warn(formatCloudConfigProblem(warning), { file: warning.fileName, ...(warning.line === undefined ? {} : { line: warning.line }) });
    }
    // A file of random text warns on every line: the rest is counted, not logged one by one.
    if (warnings.length > MAX_PRINTED_PROBLEMS) {
      context.logger.warn(`${configFileName}: and ${warnings.length - MAX_PRINTED_PROBLEMS} more warnings`, { file: configFileName });
    }
    const created = definition.create(config, { ...context, configFileName });
    return created instanceof Promise ? created.then(checked) : checked(created);
  };
  const factory: CloudProviderFactory = create;
  return {
    name: definition.name,
    configSchema: definition.configSchema,
    factory,
    createFromText: async (configText, context) => create(configText, context),
    register(registry = cloudProviders) {
      if (!registry.isRegistered(definition.name)) registry.register(definition.name, factory);
      return registry;
    },
  };
}
