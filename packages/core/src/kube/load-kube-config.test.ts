import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KubeConfigError, loadKubeConfig } from './load-kube-config.js';

const kubeconfig = (server: string, extra = ''): string => `apiVersion: v1
kind: Config
clusters:
- name: c1
  cluster:
    server: ${server}
    certificate-authority: ca.crt
users:
- name: u1
  user:
    token: secret-token
contexts:
- name: ctx1
  context:
    cluster: c1
    user: u1
    namespace: kube-system
current-context: ctx1
${extra}`;

const expectKubeConfigError = (load: () => unknown, kind: KubeConfigError['kind'], message: RegExp): KubeConfigError => {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(KubeConfigError);
    const typed = error as KubeConfigError;
    expect(typed.kind).toBe(kind);
    expect(typed.message).toMatch(message);
    return typed;
  }
  throw new Error('expected a KubeConfigError');
};

describe('loadKubeConfig', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'kubeconfig-'));
  });
  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('loads the current context of a kubeconfig file, resolving relative paths against its folder', () => {
    const path = join(directory, 'config');
    writeFileSync(path, kubeconfig('https://10.0.0.1:6443'));
    writeFileSync(join(directory, 'ca.crt'), 'ca');
    const config = loadKubeConfig({ kubeconfigPath: path, environment: {} });
    expect(config.getCurrentCluster()).toMatchObject({ server: 'https://10.0.0.1:6443', caFile: join(directory, 'ca.crt'), skipTLSVerify: false });
    expect(config.getCurrentUser()).toMatchObject({ name: 'u1', token: 'secret-token' });
    expect(config.getContextObject(config.getCurrentContext())?.namespace).toBe('kube-system');
  });

  it('--master overrides the kubeconfig server and keeps its credentials', () => {
    const path = join(directory, 'config');
    writeFileSync(path, kubeconfig('https://10.0.0.1:6443'));
    writeFileSync(join(directory, 'ca.crt'), 'ca');
    const config = loadKubeConfig({ kubeconfigPath: path, master: 'https://api.example:443' });
    expect(config.getCurrentCluster()?.server).toBe('https://api.example:443');
    expect(config.getCurrentUser()?.token).toBe('secret-token');
  });

  it('--master alone gives an anonymous config for that server', () => {
    const config = loadKubeConfig({ master: 'https://api.example:6443', environment: { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' } });
    expect(config.getCurrentCluster()).toMatchObject({ server: 'https://api.example:6443', skipTLSVerify: false });
    expect(config.getCurrentUser()?.token).toBeUndefined();
  });

  it('plain http servers get skipTLSVerify so client-node accepts them, and requests carry the token', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((request, response) => {
      seen.push(request.headers);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const path = join(directory, 'config');
      writeFileSync(path, kubeconfig(`http://127.0.0.1:${port}`));
      writeFileSync(join(directory, 'ca.crt'), 'unused for http');
      const config = loadKubeConfig({ kubeconfigPath: path });
      expect(config.getCurrentCluster()?.skipTLSVerify).toBe(true);
      const node = await config.makeApiClient(CoreV1Api).readNode({ name: 'n1' });
      expect(node.metadata?.name).toBe('n1');
      expect(seen[0]?.authorization).toBe('Bearer secret-token');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('in-cluster: uses KUBERNETES_SERVICE_HOST/PORT (https, IPv6 bracketed) and the service account files', () => {
    writeFileSync(join(directory, 'token'), 'sa-token');
    writeFileSync(join(directory, 'ca.crt'), 'ca');
    writeFileSync(join(directory, 'namespace'), 'kube-system\n');
    const config = loadKubeConfig({
      environment: { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' },
      serviceAccountDirectory: directory,
    });
    expect(config.getCurrentCluster()).toMatchObject({ server: 'https://[fd00::1]:443', caFile: join(directory, 'ca.crt') });
    expect(config.getCurrentUser()?.authProvider).toEqual({ name: 'tokenFile', config: { tokenFile: join(directory, 'token') } });
    expect(config.getContextObject(config.getCurrentContext())?.namespace).toBe('kube-system');
  });

  it('in-cluster with an unreadable token is an error naming the token file', () => {
    const error = expectKubeConfigError(
      () => loadKubeConfig({ environment: { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' }, serviceAccountDirectory: directory }),
      'InClusterInvalid',
      /service account token .*token is unreadable/,
    );
    expect(error.input).toBe(join(directory, 'token'));
  });

  it('never falls back to localhost:8080: with nothing to go on it throws', () => {
    expectKubeConfigError(
      () => loadKubeConfig({ environment: {}, serviceAccountDirectory: directory }),
      'NoConfiguration',
      /^no --kubeconfig given and not running in a cluster: set --kubeconfig or --master$/,
    );
    expectKubeConfigError(() => loadKubeConfig({ environment: { KUBERNETES_SERVICE_HOST: '10.96.0.1' } }), 'NoConfiguration', /not running in a cluster/);
  });

  it('a missing kubeconfig names the file', () => {
    const path = join(directory, 'missing.conf');
    const error = expectKubeConfigError(() => loadKubeConfig({ kubeconfigPath: path }), 'KubeconfigUnreadable', /cannot read kubeconfig .*missing\.conf: no such file/);
    expect(error.input).toBe(path);
  });

  it('an unreadable kubeconfig (a directory) names the file', () => {
    expectKubeConfigError(() => loadKubeConfig({ kubeconfigPath: directory }), 'KubeconfigUnreadable', new RegExp(`cannot read kubeconfig ${directory}`));
  });

  const invalid: Array<{ name: string; text: string; message: RegExp }> = [
    { name: 'malformed YAML', text: 'clusters: [\n  - {name: c1', message: /invalid kubeconfig .*bad\.conf: / },
    { name: 'an empty file', text: '', message: /invalid kubeconfig .*bad\.conf: / },
    { name: 'no current-context', text: kubeconfig('https://x:6443').replace('current-context: ctx1', ''), message: /no current-context set/ },
    { name: 'an unknown current-context', text: kubeconfig('https://x:6443').replace('current-context: ctx1', 'current-context: nope'), message: /current-context "nope" is not defined/ },
    { name: 'a context with an unknown cluster', text: kubeconfig('https://x:6443').replace('cluster: c1', 'cluster: c9'), message: /cluster "c9" of context "ctx1" is not defined/ },
    { name: 'a cluster without a server', text: kubeconfig('""'), message: /invalid kubeconfig .*bad\.conf: / },
    { name: 'a server that is not a URL', text: kubeconfig('not a url'), message: /server "not a url" is not a URL/ },
  ];
  it.each(invalid)('rejects $name, naming the file', ({ text, message }) => {
    writeFileSync(join(directory, 'ca.crt'), 'ca');
    const path = join(directory, 'bad.conf');
    writeFileSync(path, text);
    const error = expectKubeConfigError(() => loadKubeConfig({ kubeconfigPath: path }), 'KubeconfigInvalid', message);
    expect(error.message).toContain(path);
  });

  it('a malformed kubeconfig names the place, never the file text (tokens stay out of the message)', () => {
    const path = join(directory, 'bad.conf');
    const text = [
      'apiVersion: v1',
      'clusters:',
      '- cluster: {server: "https://x:6443"}',
      '  name: c1',
      'users:',
      '- name: u1',
      '  user:',
      '     token: SUPERSECRETTOKEN123',
      '   bad: [',
      'contexts: []',
    ].join('\n');
    for (const content of [text, 'users:\n- name: u1\n  user:\n    token: "SUPERSECRETTOKEN123\n', 'users:\n- name: *SUPERSECRETTOKEN123\n']) {
      writeFileSync(path, content);
      const error = expectKubeConfigError(() => loadKubeConfig({ kubeconfigPath: path }), 'KubeconfigInvalid', /invalid kubeconfig .*bad\.conf: line \d+, column \d+: /);
      expect(error.message).not.toContain('SUPERSECRETTOKEN123');
      expect(error.message).not.toContain('|');
      expect(error.cause).toBeUndefined();
      expect(String(error.stack)).not.toContain('SUPERSECRETTOKEN123');
    }
  });

  it('rejects a kubeconfig whose certificate-authority file is missing', () => {
    const path = join(directory, 'config');
    writeFileSync(path, kubeconfig('https://10.0.0.1:6443'));
    expectKubeConfigError(() => loadKubeConfig({ kubeconfigPath: path }), 'KubeconfigInvalid', /cannot read certificate-authority .*ca\.crt/);
  });

  it('rejects a --master that is not an http(s) URL', () => {
    expectKubeConfigError(() => loadKubeConfig({ master: 'api.example:6443' }), 'KubeconfigInvalid', /--master "api.example:6443"/);
    expectKubeConfigError(() => loadKubeConfig({ master: 'ftp://x' }), 'KubeconfigInvalid', /must be an http or https URL/);
  });
});
