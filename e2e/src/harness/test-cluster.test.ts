import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION_PROVIDED_NODE_IP, TAINT_UNINITIALIZED } from '@ccm/core/api';
import { KubeRequestError } from './kube-test-client.js';
import { findCondition, findTaint, registerNode, setNodeReady } from './node-registration.js';
import { TestCluster } from './test-cluster.js';

const FAKE_CCM = fileURLToPath(new URL('./test-fixtures/fake-ccm.mjs', import.meta.url));

describe('TestCluster against the kube emulator', () => {
  let cluster: TestCluster;

  beforeAll(async () => {
    cluster = await TestCluster.start({ kubeApi: 'emulator' });
  });

  afterAll(async () => {
    await cluster.close();
  });

  it('writes a kubeconfig pointing at the emulator', async () => {
    const kubeconfig = await readFile(cluster.kubeconfigPath, 'utf8');
    expect(kubeconfig).toContain(cluster.emulator.url);
  });

  it('registers a node the way a kubelet does', async () => {
    await registerNode(cluster.client, { name: 'kubelet-node', providedNodeIp: '10.0.0.9', podCidrs: ['10.244.9.0/24'] });
    const node = await cluster.client.getNode('kubelet-node');
    expect(findTaint(node, TAINT_UNINITIALIZED, 'NoSchedule')?.value).toBe('true');
    expect(node.metadata.annotations?.[ANNOTATION_PROVIDED_NODE_IP]).toBe('10.0.0.9');
    expect(node.spec?.podCIDR).toBe('10.244.9.0/24');
    expect(node.status?.addresses).toEqual([
      { type: 'InternalIP', address: '10.0.0.9' },
      { type: 'Hostname', address: 'kubelet-node' },
    ]);
    expect(findCondition(node, 'Ready')?.status).toBe('True');
  });

  it('flips readiness with a strategic merge patch that keeps the other conditions', async () => {
    await registerNode(cluster.client, { name: 'flipping-node' });
    await cluster.client.patchNodeStatus('flipping-node', {
      status: { conditions: [{ type: 'NetworkUnavailable', status: 'False', reason: 'RouteCreated', message: 'by the CCM' }] },
    }, 'strategic');
    const node = await setNodeReady(cluster.client, 'flipping-node', false);
    expect(findCondition(node, 'Ready')?.status).toBe('False');
    expect(findCondition(node, 'NetworkUnavailable')?.reason).toBe('RouteCreated');
    expect(findCondition(node, 'MemoryPressure')?.status).toBe('False');
  });

  it('finds, patches and deletes nodes', async () => {
    await registerNode(cluster.client, { name: 'short-lived' });
    const patched = await cluster.client.patchNode('short-lived', { metadata: { labels: { tier: 'test' } } });
    expect(patched.metadata.labels?.['tier']).toBe('test');
    expect((await cluster.client.listNodes()).map((node) => node.metadata.name)).toContain('short-lived');
    await cluster.client.deleteNode('short-lived');
    expect(await cluster.client.findNode('short-lived')).toBeUndefined();
    await cluster.client.deleteNode('short-lived');
    await expect(cluster.client.getNode('short-lived')).rejects.toBeInstanceOf(KubeRequestError);
  });

  it('creates, patches and deletes services', async () => {
    const created = await cluster.client.createService({
      metadata: { name: 'web', namespace: 'default' },
      spec: { type: 'LoadBalancer', selector: { app: 'web' }, ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080, nodePort: 31080 }] },
    });
    expect(created.metadata.uid).toBeTruthy();
    const patched = await cluster.client.patchService('default', 'web', { metadata: { annotations: { touched: 'yes' } } });
    expect(patched.metadata.annotations?.['touched']).toBe('yes');
    await cluster.client.deleteService('default', 'web');
    expect(await cluster.client.findService('default', 'web')).toBeUndefined();
  });

  it('lists events and reports a missing lease as undefined', async () => {
    expect(Array.isArray(await cluster.client.listEvents())).toBe(true);
    expect(await cluster.client.findLease('kube-system', 'cloud-controller-manager')).toBeUndefined();
  });

  it('starts a CCM process with the common flags and waits for /healthz', async () => {
    const ccm = await cluster.startCcm({ command: process.execPath, args: [FAKE_CCM, '--cloud-provider=fake'] }, { label: 'fake' });
    expect(ccm.process.output()).toContain('--cloud-provider=fake');
    expect(ccm.process.output()).toContain(`--kubeconfig=${cluster.kubeconfigPath}`);
    expect(ccm.process.output()).toContain(`--secure-port=${ccm.securePort}`);
    expect(ccm.process.output()).toContain('--leader-elect-lease-duration=3s');
    expect(await ccm.healthz()).toEqual({ status: 200, body: 'ok' });
    await ccm.stop();
    expect(ccm.process.output()).toContain('fake-ccm got SIGTERM');
    expect(cluster.unexpectedExit()).toBeUndefined();
  });

  it('stops waiting as soon as a CCM dies unexpectedly, and shows its output', async () => {
    await cluster.startCcm(
      { command: process.execPath, args: [FAKE_CCM], env: { FAKE_CCM_EXIT_AFTER_MS: '300' } },
      { label: 'crashing', waitUntilHealthy: false },
    );
    const started = Date.now();
    await expect(cluster.waitFor('something that never happens', () => undefined, 10_000)).rejects.toThrow(
      /gave up waiting for something that never happens: crashing \(pid \d+\) exited \(code 3, signal null\) unexpectedly[\s\S]*fake-ccm args/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
