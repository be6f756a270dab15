import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DirectoryCredentialSource } from './directory-credential-source.js';
import { SecretCredentialSource, credentialsFromSecretData, type SecretState } from './secret-credentials.js';

describe('credentialsFromSecretData', () => {
  it.each([
    ['<server>.username/.password', { 'vc.example.com.username': 'u ', 'vc.example.com.password': 'p\n' }, ['vc.example.com'], { username: 'u', password: 'p' }],
    ['the entry name when the server has none', { 'vc1.username': 'u', 'vc1.password': 'p' }, ['vc.example.com', 'vc1'], { username: 'u', password: 'p' }],
    ['IPv6-safe server_<x> form', { server_a: 'fd00::10', username_a: 'u6', password_a: 'p6' }, ['fd00::10'], { username: 'u6', password: 'p6' }],
    ['nothing for this server', { 'other.username': 'u', 'other.password': 'p' }, ['vc.example.com'], undefined],
    ['a username without password', { 'vc.example.com.username': 'u' }, ['vc.example.com'], undefined],
  ])('%s', (_title, data, servers, expected) => {
    expect(credentialsFromSecretData(new Map(Object.entries(data)), servers)).toEqual(expected);
  });
});

describe('SecretCredentialSource', () => {
  it('says why credentials are unavailable, and reads the current Secret at each call', async () => {
    let state: SecretState = { status: 'unknown', reason: 'it is being read' };
    const source = new SecretCredentialSource({ store: { read: () => state }, namespace: 'kube-system', name: 'creds', servers: ['vc.example.com'], vcenter: 'vc1' });
    await expect(source.credentials()).rejects.toThrow('vCenter "vc1": Secret kube-system/creds is not available yet: it is being read');
    state = { status: 'missing' };
    await expect(source.credentials()).rejects.toThrow('vCenter "vc1": Secret kube-system/creds does not exist');
    state = { status: 'present', data: new Map([['x', 'y']]) };
    await expect(source.credentials()).rejects.toThrow(
      'vCenter "vc1": Secret kube-system/creds has no credentials for it (expected keys vc.example.com.username and vc.example.com.password (or server_<n> = vc.example.com with username_<n> and password_<n>))',
    );
    state = { status: 'present', data: new Map([['vc.example.com.username', 'u'], ['vc.example.com.password', 'rotated']]) };
    await expect(source.credentials()).resolves.toEqual({ username: 'u', password: 'rotated' });
  });
});

describe('DirectoryCredentialSource', () => {
  it('reads one file per key, skipping Kubernetes volume internals', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'vsphere-secrets-'));
    try {
      await mkdir(join(directory, '..2024_01_01'));
      await writeFile(join(directory, 'vc.example.com.username'), 'admin\n');
      await writeFile(join(directory, 'vc.example.com.password'), 'secret\n');
      const source = new DirectoryCredentialSource({ path: directory, servers: ['vc.example.com'], vcenter: 'vc1' });
      await expect(source.credentials()).resolves.toEqual({ username: 'admin', password: 'secret' });
      await writeFile(join(directory, 'vc.example.com.password'), 'rotated\n');
      await expect(source.credentials()).resolves.toEqual({ username: 'admin', password: 'rotated' });
      const missing = new DirectoryCredentialSource({ path: join(directory, 'nope'), servers: ['vc.example.com'], vcenter: 'vc1' });
      await expect(missing.credentials()).rejects.toThrow(`vCenter "vc1": cannot read the secrets directory ${join(directory, 'nope')}: ENOENT`);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
