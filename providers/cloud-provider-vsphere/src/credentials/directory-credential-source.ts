/** Credentials from a mounted secrets directory: one file per key, read at every login. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { VcenterCredentials } from '../ports/vcenter-port.js';
import { VsphereProviderError } from '../errors.js';
import type { CredentialSource } from './credential-source.js';
import { credentialsFromSecretData, expectedKeys } from './secret-credentials.js';

export class DirectoryCredentialSource implements CredentialSource {
  readonly description: string;
  readonly #path: string;
  readonly #servers: readonly string[];
  readonly #vcenter: string;

  constructor(options: { path: string; servers: readonly string[]; vcenter: string }) {
    this.#path = options.path;
    this.#servers = options.servers;
    this.#vcenter = options.vcenter;
    this.description = `secrets directory ${options.path}`;
  }

  async credentials(): Promise<VcenterCredentials> {
    let names: string[];
    try {
      names = await readdir(this.#path);
    } catch (error) {
      throw new VsphereProviderError('CredentialsUnavailable', `vCenter ${JSON.stringify(this.#vcenter)}: cannot read the ${this.description}: ${(error as { code?: string }).code ?? String(error)}`, {
        vcenter: this.#vcenter,
        cause: error,
      });
    }
    const data = new Map<string, string>();
    for (const name of names) {
      // Kubernetes Secret volumes hold `..data` links and dot files: skip them.
      if (name.startsWith('.')) continue;
      try {
        data.set(name, await readFile(join(this.#path, name), 'utf8'));
      } catch {
        // a directory or an unreadable entry: not a credential key
      }
    }
    const credentials = credentialsFromSecretData(data, this.#servers);
    if (credentials === undefined) {
      throw new VsphereProviderError('CredentialsUnavailable', `vCenter ${JSON.stringify(this.#vcenter)}: the ${this.description} has no credentials for it (expected files ${expectedKeys(this.#servers)})`, {
        vcenter: this.#vcenter,
      });
    }
    return credentials;
  }
}
