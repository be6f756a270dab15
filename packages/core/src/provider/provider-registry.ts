import { errorMessage } from '../util/error-message.js';
import type { CloudProvider, CloudProviderFactory, CloudProviderFactoryContext } from './cloud-provider.js';

/** Upstream `plugins.go`: name -> factory. Registering a name twice is an error. */
export class CloudProviderRegistry {
  readonly #factories = new Map<string, CloudProviderFactory>();

  register(name: string, factory: CloudProviderFactory): void {
    if (this.#factories.has(name)) throw new Error(`cloud provider ${JSON.stringify(name)} was registered twice`);
    this.#factories.set(name, factory);
  }

  isRegistered(name: string): boolean {
    return this.#factories.has(name);
  }

  names(): string[] {
    return [...this.#factories.keys()].sort();
  }

  /**
   * Upstream `InitCloudProvider` without the file access: `''` and `'external'` give `undefined`;
   * an unknown name throws "unknown cloud provider"; factory errors are wrapped with the name.
   */
  async create(name: string, configText: string | undefined, context: CloudProviderFactoryContext): Promise<CloudProvider | undefined> {
    if (name === '' || name === 'external') return undefined;
    const factory = this.#factories.get(name);
    if (!factory) throw new Error(`unknown cloud provider ${JSON.stringify(name)}`);
    try {
      return await factory(configText, context);
    } catch (error) {
      throw new Error(`could not init cloud provider ${JSON.stringify(name)}: ${errorMessage(error)}`, { cause: error });
    }
  }
}

/** The process-wide registry providers register into. */
export const cloudProviders = new CloudProviderRegistry();
