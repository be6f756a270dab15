/** The workload identity token file: read again when the kubelet rotates it, and named when it cannot be read. */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FederatedTokenFile } from '../../src/ports/sdk/credentials/federated-token-file.js';

const directory = mkdtempSync(join(tmpdir(), 'azure-federated-token-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('FederatedTokenFile', () => {
  it('reads the token once and again after the file changed (atomic rename, as the kubelet writes it)', () => {
    const path = join(directory, 'token');
    writeFileSync(path, 'token-one\n');
    const file = new FederatedTokenFile(path, 'aadFederatedTokenFile');
    expect(file.token()).toBe('token-one');
    expect(file.token()).toBe('token-one');
    writeFileSync(`${path}.new`, 'token-two-longer\n');
    renameSync(`${path}.new`, path);
    expect(file.token()).toBe('token-two-longer');
  });

  it('names the key and the file when it is missing or empty', () => {
    expect(() => new FederatedTokenFile(join(directory, 'missing'), 'AZURE_FEDERATED_TOKEN_FILE').token()).toThrow(/key "AZURE_FEDERATED_TOKEN_FILE": cannot read the federated token file .*missing: ENOENT/);
    writeFileSync(join(directory, 'empty'), '');
    expect(() => new FederatedTokenFile(join(directory, 'empty'), 'aadFederatedTokenFile').token()).toThrow(/key "aadFederatedTokenFile": the federated token file .*empty is empty/);
  });
});
