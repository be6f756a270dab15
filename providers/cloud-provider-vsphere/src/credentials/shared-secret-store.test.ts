import type { InformerHandlers, SharedInformer } from '@ccm/core/kube';
import type { LogFields, Logger } from '@ccm/core/logging';
import { InMemoryInformer } from '@ccm/testing/kube';
import type { V1Secret } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { SharedSecretStore } from './shared-secret-store.js';

function recordingLogger(lines: string[]): Logger {
  const record = (message: string, _fields?: LogFields): void => void lines.push(message);
  const logger: Logger = { error: record, warn: record, info: record, verbose: (_level, message) => record(message), child: () => logger };
  return logger;
}

const secret = (password: string, resourceVersion: string): V1Secret => ({
  metadata: { name: 'vsphere-creds', namespace: 'kube-system', resourceVersion },
  stringData: { 'vc.example.com.username': 'u', 'vc.example.com.password': password },
});

describe('SharedSecretStore over the shared Secret informers', () => {
  it('reads a Secret, follows updates and deletion', () => {
    const informer = new InMemoryInformer<V1Secret>();
    const asked: string[] = [];
    const lines: string[] = [];
    const store = new SharedSecretStore({
      informers: {
        secrets: (namespace, name) => {
          asked.push(`${namespace}/${name ?? ''}`);
          return informer;
        },
      },
      logger: recordingLogger(lines),
    });
    expect(store.read('kube-system', 'vsphere-creds')).toEqual({ status: 'unknown', reason: 'it is not watched (the provider is not initialized yet)' });
    store.watch('kube-system', 'vsphere-creds');
    store.watch('kube-system', 'vsphere-creds');
    expect(asked).toEqual(['kube-system/vsphere-creds']);
    expect(store.read('kube-system', 'vsphere-creds').status).toBe('missing');

    informer.deliverAdd('kube-system/vsphere-creds', secret('first', '1'));
    const first = store.read('kube-system', 'vsphere-creds');
    expect(first.status === 'present' && first.data.get('vc.example.com.password')).toBe('first');

    informer.deliverUpdate('kube-system/vsphere-creds', secret('rotated', '2'));
    const rotated = store.read('kube-system', 'vsphere-creds');
    expect(rotated.status === 'present' && rotated.data.get('vc.example.com.password')).toBe('rotated');
    expect(lines).toEqual(['Credential Secret changed; the next vCenter login uses it']);

    informer.deliverDelete('kube-system/vsphere-creds');
    expect(store.read('kube-system', 'vsphere-creds').status).toBe('missing');
    expect(lines).toContain('Credential Secret deleted');
  });

  it('answers "being read" until the first list, and lets a login wait for it (bounded)', async () => {
    let synced = false;
    let finishSync: () => void = () => {};
    const listed = new Promise<void>((resolve) => (finishSync = resolve));
    const slow: SharedInformer<V1Secret> = {
      store: { get: () => (synced ? secret('late', '1') : undefined), list: () => [] },
      addHandlers: (_handlers: InformerHandlers<V1Secret>) => {},
      hasSynced: () => synced,
      waitForSync: () => listed,
    };
    const store = new SharedSecretStore({ informers: { secrets: () => slow }, logger: recordingLogger([]), syncTimeoutMs: 5_000 });
    store.watch('kube-system', 'vsphere-creds');
    expect(store.read('kube-system', 'vsphere-creds')).toEqual({ status: 'unknown', reason: 'it is being read' });
    const waiting = store.settled('kube-system', 'vsphere-creds');
    synced = true;
    finishSync();
    await waiting;
    expect(store.read('kube-system', 'vsphere-creds').status).toBe('present');

    const never: SharedInformer<V1Secret> = { ...slow, hasSynced: () => false, waitForSync: (signal) => new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason))) };
    const bounded = new SharedSecretStore({ informers: { secrets: () => never }, logger: recordingLogger([]), syncTimeoutMs: 20 });
    bounded.watch('kube-system', 'other');
    await bounded.settled('kube-system', 'other');
    expect(bounded.read('kube-system', 'other')).toEqual({ status: 'unknown', reason: 'it is being read' });
  });
});
