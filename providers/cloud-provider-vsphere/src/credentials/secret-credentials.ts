/**
 * Credentials from Secret data (upstream credentialmanager): keys `<server>.username` and
 * `<server>.password`, or the IPv6-safe form `server_<x>` (the server) with `username_<x>` and
 * `password_<x>`. Used for Kubernetes Secrets and for a mounted secrets directory (one file
 * per key).
 */
import type { VcenterCredentials } from '../ports/vcenter-port.js';
import { VsphereProviderError } from '../errors.js';
import type { CredentialSource } from './credential-source.js';

/**
 * The credentials for the first of `servers` (server host, then the vCenter entry name) that
 * the data has; undefined when none.
 */
export function credentialsFromSecretData(data: ReadonlyMap<string, string>, servers: readonly string[]): VcenterCredentials | undefined {
  for (const server of servers) {
    const username = data.get(`${server}.username`);
    const password = data.get(`${server}.password`);
    if (username !== undefined && password !== undefined) return { username: username.trim(), password: password.trim() };
  }
  for (const [key, value] of data) {
    if (!key.startsWith('server_') || !servers.includes(value.trim())) continue;
    const suffix = key.slice('server_'.length);
    const username = data.get(`username_${suffix}`);
    const password = data.get(`password_${suffix}`);
    if (username !== undefined && password !== undefined) return { username: username.trim(), password: password.trim() };
  }
  return undefined;
}

export function expectedKeys(servers: readonly string[]): string {
  const server = servers[0] ?? '<server>';
  return `${server}.username and ${server}.password (or server_<n> = ${server} with username_<n> and password_<n>)`;
}

export type SecretState =
  /** Not known yet: the watch has not listed it (or the provider is not initialized). */
  | { status: 'unknown'; reason: string }
  | { status: 'missing' }
  | { status: 'present'; data: ReadonlyMap<string, string> };

/** Read access to watched Secrets (decoded data). */
export interface SecretStore {
  read(namespace: string, name: string): SecretState;
  /** Optional: resolves once the Secret's state is known, or after a bounded wait (`read` then says why not). */
  settled?(namespace: string, name: string): Promise<void>;
}

export class SecretCredentialSource implements CredentialSource {
  readonly description: string;
  readonly #store: SecretStore;
  readonly #namespace: string;
  readonly #name: string;
  readonly #servers: readonly string[];
  readonly #vcenter: string;

  constructor(options: { store: SecretStore; namespace: string; name: string; servers: readonly string[]; vcenter: string }) {
    this.#store = options.store;
    this.#namespace = options.namespace;
    this.#name = options.name;
    this.#servers = options.servers;
    this.#vcenter = options.vcenter;
    this.description = `Secret ${options.namespace}/${options.name}`;
  }

  async credentials(): Promise<VcenterCredentials> {
    let state = this.#store.read(this.#namespace, this.#name);
    if (state.status === 'unknown' && this.#store.settled !== undefined) {
      await this.#store.settled(this.#namespace, this.#name);
      state = this.#store.read(this.#namespace, this.#name);
    }
    if (state.status === 'unknown') {
      throw new VsphereProviderError('CredentialsUnavailable', `vCenter ${JSON.stringify(this.#vcenter)}: ${this.description} is not available yet: ${state.reason}`, { vcenter: this.#vcenter });
    }
    if (state.status === 'missing') {
      throw new VsphereProviderError('CredentialsUnavailable', `vCenter ${JSON.stringify(this.#vcenter)}: ${this.description} does not exist`, { vcenter: this.#vcenter });
    }
    const credentials = credentialsFromSecretData(state.data, this.#servers);
    if (credentials === undefined) {
      throw new VsphereProviderError('CredentialsUnavailable', `vCenter ${JSON.stringify(this.#vcenter)}: ${this.description} has no credentials for it (expected keys ${expectedKeys(this.#servers)})`, {
        vcenter: this.#vcenter,
      });
    }
    return credentials;
  }
}
