import { silentLogger } from '@ccm/core';
import { startKubeEmulator, type KubeEmulator } from '@ccm/kube-emulator';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { ProblemReporter } from '../operations/problem-reporter.js';
import { KubeSecretStore } from './kube-secret-store.js';

let emulator: KubeEmulator | undefined;
let store: KubeSecretStore | undefined;
afterEach(async () => {
  await store?.stop();
  await emulator?.close();
  store = undefined;
  emulator = undefined;
});

async function eventually<T>(read: () => T, accept: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met; last value ${JSON.stringify(value, (_key, item: unknown) => (item instanceof Map ? Object.fromEntries(item) : item))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('KubeSecretStore against the kube emulator', () => {
  it('reads a Secret, follows updates and deletion', async () => {
    emulator = await startKubeEmulator();
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(emulator.kubeconfigYaml());
    const reporter = new ProblemReporter(silentLogger);
    store = new KubeSecretStore({ kubeConfig, logger: silentLogger, reporter });
    expect(store.read('kube-system', 'vsphere-creds')).toEqual({ status: 'unknown', reason: 'it is not watched (the provider is not initialized yet)' });
    store.watch('kube-system', 'vsphere-creds');
    await eventually(() => store!.read('kube-system', 'vsphere-creds').status, (status) => status === 'missing');

    const api = emulator;
    api.create('secrets', { metadata: { name: 'vsphere-creds', namespace: 'kube-system' }, stringData: { 'vc.example.com.username': 'u', 'vc.example.com.password': 'first' } });
    api.create('secrets', { metadata: { name: 'unrelated', namespace: 'kube-system' }, stringData: { a: 'b' } });
    const first = await eventually(() => store!.read('kube-system', 'vsphere-creds'), (state) => state.status === 'present');
    expect(first.status === 'present' && first.data.get('vc.example.com.password')).toBe('first');

    api.patch('secrets', 'vsphere-creds', { stringData: { 'vc.example.com.password': 'rotated' } }, 'merge', { namespace: 'kube-system' });
    await eventually(() => store!.read('kube-system', 'vsphere-creds'), (state) => state.status === 'present' && state.data.get('vc.example.com.password') === 'rotated');

    api.delete('secrets', 'vsphere-creds', { namespace: 'kube-system' });
    await eventually(() => store!.read('kube-system', 'vsphere-creds').status, (status) => status === 'missing');
  });
});
