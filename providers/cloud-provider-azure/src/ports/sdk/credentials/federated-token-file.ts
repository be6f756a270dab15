/**
 * The workload identity's client assertion: the projected service account token in
 * `aadFederatedTokenFile` (or `AZURE_FEDERATED_TOKEN_FILE`). The kubelet rotates the file; it is
 * read again whenever its modification time, size or inode changed since the last read, so the
 * next token request after a rotation presents the new token.
 */
import { readFileSync, statSync, type Stats } from 'node:fs';
import { AzureCredentialSetupError } from '../../../errors.js';

export class FederatedTokenFile {
  readonly path: string;
  readonly #key: string;
  #read: { signature: string; token: string } | undefined;

  /** `key`: the config key (or environment variable) that named the file, for errors. */
  constructor(path: string, key: string) {
    this.path = path;
    this.#key = key;
  }

  /** The current token, re-read when the file changed. */
  token(): string {
    let stats: Stats;
    try {
      stats = statSync(this.path);
    } catch (error) {
      throw new AzureCredentialSetupError(this.#key, `cannot read the federated token file ${this.path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
    }
    const signature = `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
    if (this.#read?.signature === signature) return this.#read.token;
    const token = readFileSync(this.path, 'utf8').trim();
    if (token === '') throw new AzureCredentialSetupError(this.#key, `the federated token file ${this.path} is empty`);
    this.#read = { signature, token };
    return token;
  }
}
