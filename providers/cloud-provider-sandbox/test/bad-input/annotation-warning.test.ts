/**
 * A bad annotation through the real service controller and the sandbox provider over HTTP:
 * exactly one Warning event naming the annotation and the value, no retry, and no cloud change.
 */
import { ANNOTATION_LOAD_BALANCER_SOURCE_RANGES } from '@ccm/core/api';
import { registerServiceControllerMetrics, SERVICE_CONTROLLER_EVENT_COMPONENT, ServiceController } from '@ccm/core/controllers';
import { createWorkQueue } from '@ccm/core/kube';
import { silentLogger } from '@ccm/core/logging';
import { InMemoryKubeAccess } from '@ccm/testing/kube';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxFixture, type SandboxFixture } from '../helpers.js';

describe('a bad annotation through the service controller (sandbox)', () => {
  let fixture: SandboxFixture | undefined;
  afterEach(async () => {
    await fixture?.sandbox.close();
  });

  it('gives one Warning event naming the annotation and value, no requeue, no cloud change', async () => {
    fixture = await startSandboxFixture();
    const instance = fixture.sandbox.state.createInstance({ name: 'node-1' });
    const kube = new InMemoryKubeAccess();
    kube.addNode({
      metadata: { name: 'node-1' },
      spec: { providerID: `sandbox://${instance.id}` },
      status: { conditions: [{ type: 'Ready', status: 'True' }], addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] },
    });
    const loadBalancer = fixture.provider.loadBalancer();
    if (loadBalancer === undefined) throw new Error('the sandbox provider has no load balancer interface');
    const serviceQueue = createWorkQueue<string>({ name: 'service', baseDelayMs: 5_000, maxDelayMs: 300_000, overallQps: Infinity });
    const nodeQueue = createWorkQueue<string>({ name: 'node', baseDelayMs: 5_000, maxDelayMs: 300_000, overallQps: Infinity });
    const controller = new ServiceController({
      loadBalancer,
      providerName: 'sandbox',
      clusterName: 'contract-cluster',
      services: kube.services,
      serviceInformer: kube.serviceInformer,
      nodeInformer: kube.nodeInformer,
      recorder: kube.eventRecorder(SERVICE_CONTROLLER_EVENT_COMPONENT),
      serviceQueue,
      nodeQueue,
      metrics: registerServiceControllerMetrics(new Registry()),
      logger: silentLogger,
      workers: 1,
    });
    const before = await fixture.sandbox.snapshot();
    await fixture.sandbox.resetCalls();
    const value = '10.0.0.0/8,not-a-cidr';
    kube.addService({
      metadata: { name: 'bad', namespace: 'default', uid: 'uid-bad', annotations: { [ANNOTATION_LOAD_BALANCER_SOURCE_RANGES]: value } },
      spec: { type: 'LoadBalancer', ports: [{ name: 'http', protocol: 'TCP', port: 80, nodePort: 30080 }] },
    });
    expect(await controller.processNextServiceItem()).toBe(true);

    const warnings = kube.eventLog.find({ name: 'bad', type: 'Warning' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.reason).toBe('SyncLoadBalancerFailed');
    expect(warnings[0]?.message).toContain(ANNOTATION_LOAD_BALANCER_SOURCE_RANGES);
    expect(warnings[0]?.message).toContain(JSON.stringify(value));
    expect(serviceQueue.numRequeues('default/bad')).toBe(0);
    expect(serviceQueue.length()).toBe(0);
    const calls = await fixture.sandbox.calls();
    const writes = Object.entries(calls.operations).filter(([operation, counters]) => /\.(create|update|setBackends|delete)$/.test(operation) && counters.requests > 0);
    expect(writes).toEqual([]);
    expect(await fixture.sandbox.snapshot()).toEqual(before);
    serviceQueue.shutDown();
    nodeQueue.shutDown();
  });
});
