import { describe, expect, it } from 'vitest';
import { CloudConfigError, type CloudConfigProblem } from '../config/cloud-config-error.js';
import type { LogFields, Logger } from '../logging/logger.js';
import { MetricsRegistry } from '../app/metrics/prometheus-metrics-sink.js';
import type { CloudProvider, CloudProviderFactoryContext } from './cloud-provider.js';
import { defineCloudProvider, type CloudConfigSchema, type CloudProviderCreateContext } from './define-cloud-provider.js';
import { CloudProviderRegistry } from './provider-registry.js';

function recordingLogger(): Logger & { warnings: Array<{ message: string; fields: LogFields | undefined }> } {
  const warnings: Array<{ message: string; fields: LogFields | undefined }> = [];
  const logger = {
    warnings,
    error() {},
    warn(message: string, fields?: LogFields) {
      warnings.push({ message, fields });
    },
    info() {},
    verbose() {},
    child: () => logger,
  };
  return logger;
}

interface ExampleConfig {
  url: string;
}

/** `url = <value>` on one line; `bad` is a problem on line 1; `old` a warning on line 1. */
const exampleSchema: CloudConfigSchema<ExampleConfig> = {
  read(text, fileName) {
    if (text === undefined) throw new CloudConfigError({ fileName, message: 'the example provider needs --cloud-config' });
    if (text.includes('bad')) throw new CloudConfigError({ fileName, line: 1, message: 'bad value' });
    const warnings: CloudConfigProblem[] = text.includes('old') ? [{ fileName, line: 1, message: 'key "old" is deprecated' }] : [];
    return { config: { url: text.replace(/^url = /, '').trim() }, warnings };
  },
};

const exampleCloud = (providerName = 'example'): CloudProvider => ({ providerName, hasClusterId: () => true });

function context(overrides: Partial<CloudProviderFactoryContext> = {}) {
  const logger = recordingLogger();
  return { logger, context: { logger, metrics: new MetricsRegistry(), ...overrides } };
}

describe('defineCloudProvider', () => {
  it.each([
    { name: 'the --cloud-config path', configPath: '/etc/kubernetes/cloud.conf', defaultConfigFileName: undefined, expected: '/etc/kubernetes/cloud.conf' },
    { name: 'the core default without a path', configPath: undefined, defaultConfigFileName: undefined, expected: 'cloud-config' },
    { name: "the provider's default without a path", configPath: undefined, defaultConfigFileName: 'vsphere.conf', expected: 'vsphere.conf' },
  ])('reads the config under $name and hands the typed config to create', async ({ configPath, defaultConfigFileName, expected }) => {
    const created: Array<{ config: ExampleConfig; context: CloudProviderCreateContext }> = [];
    const provider = defineCloudProvider({
      name: 'example',
      configSchema: exampleSchema,
      ...(defaultConfigFileName === undefined ? {} : { defaultConfigFileName }),
      create(config, createContext) {
        created.push({ config, context: createContext });
        return exampleCloud();
      },
    });
    const { context: factoryContext } = context(configPath === undefined ? {} : { configPath });
    const cloud = await provider.factory('url = http://127.0.0.1:1\n', factoryContext);
    expect(cloud.providerName).toBe('example');
    expect(created).toHaveLength(1);
    expect(created[0]?.config).toEqual({ url: 'http://127.0.0.1:1' });
    expect(created[0]?.context.configFileName).toBe(expected);
    expect(created[0]?.context.metrics).toBe(factoryContext.metrics);
  });

  it.each([
    { name: 'a bad value', text: 'bad', message: 'cloud.conf:1: bad value' },
    { name: 'no cloud-config for a provider that needs one', text: undefined, message: 'cloud.conf: the example provider needs --cloud-config' },
  ])('throws the schema problems at once, before creating anything: $name', ({ text, message }) => {
    let creates = 0;
    const provider = defineCloudProvider({
      name: 'example',
      configSchema: exampleSchema,
      create: () => {
        creates++;
        return exampleCloud();
      },
    });
    expect(() => provider.factory(text, context({ configPath: 'cloud.conf' }).context)).toThrow(CloudConfigError);
    expect(() => provider.factory(text, context({ configPath: 'cloud.conf' }).context)).toThrow(message);
    expect(creates).toBe(0);
  });

  it('logs every warning once, naming file and line', async () => {
    const provider = defineCloudProvider({ name: 'example', configSchema: exampleSchema, create: () => exampleCloud() });
    const { logger, context: factoryContext } = context({ configPath: 'cloud.conf' });
    await provider.factory('url = x old', factoryContext);
    expect(logger.warnings).toEqual([{ message: 'cloud.conf:1: key "old" is deprecated', fields: { file: 'cloud.conf', line: 1 } }]);
  });

  it.each([
    { name: 'synchronously', create: () => exampleCloud('other') },
    { name: 'asynchronously', create: async () => exampleCloud('other') },
  ])('refuses a provider whose name is not the definition name ($name)', async ({ create }) => {
    const provider = defineCloudProvider({ name: 'example', configSchema: exampleSchema, create });
    await expect(async () => provider.factory('url = x', context().context)).rejects.toThrow('cloud provider "example" created a provider named "other"');
  });

  it('registers once under its name, and the registry creates it', async () => {
    const registry = new CloudProviderRegistry();
    const provider = defineCloudProvider({ name: 'example', configSchema: exampleSchema, create: async () => exampleCloud() });
    expect(provider.register(registry)).toBe(registry);
    provider.register(registry);
    expect(registry.names()).toEqual(['example']);
    const cloud = await registry.create('example', 'url = x', context().context);
    expect(cloud?.providerName).toBe('example');
    await expect(registry.create('example', 'bad', context().context)).rejects.toThrow('could not init cloud provider "example": cloud-config:1: bad value');
  });
});
