/**
 * Ports of upstream controllers/service/controller_test.go: the load balancer sync, service
 * processing, finalizer and status tests, over InMemoryKubeAccess and FakeLoadBalancer.
 */
import type { V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { KubeApiError } from '../../kube/kube-api-error.js';
import { ImplementedElsewhereError, InvalidServiceConfigurationError, PermanentInvalidServiceConfigurationError, RetryError } from '../../provider/cloud-errors.js';
import { defaultLoadBalancerName } from '../../provider/load-balancer.js';
import { LOAD_BALANCER_CLEANUP_FINALIZER } from './service-helpers.js';
import {
  defaultExternalService,
  makeNode,
  newService,
  tweakAnnotation,
  tweakDeletionTimestamp,
  tweakFinalizers,
  tweakIngress,
  tweakLoadBalancerClass,
  tweakName,
  tweakPorts,
} from './test-support/builders.js';
import { createServiceHarness, type ServiceHarness } from './test-support/service-harness.js';
import { RecordingLogger } from '../node/test-support/node-test-context.js';

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !condition(); attempt++) await new Promise((resolve) => setTimeout(resolve, 5));
}

const keyOf = (service: V1Service) => `${service.metadata?.namespace ?? 'default'}/${service.metadata?.name}`;
const servicePatches = (harness: ServiceHarness) => harness.kube.actions.filter((action) => action.verb === 'patch' && action.resource === 'services');

/** Stores `service` in the in-memory API (deletionTimestamp via a real delete) and returns the stored copy. */
function store(harness: ServiceHarness, service: V1Service): V1Service {
  const deleting = service.metadata?.deletionTimestamp !== undefined;
  const created = harness.kube.addService({ ...service, metadata: { ...service.metadata, deletionTimestamp: undefined } });
  if (!deleting) return created;
  harness.kube.deleteService(created.metadata!.namespace!, created.metadata!.name!);
  return harness.kube.getService(created.metadata!.namespace!, created.metadata!.name!)!;
}

describe('TestSyncLoadBalancerIfNeeded', () => {
  const cases: Array<{
    desc: string;
    service: V1Service;
    lbExists?: boolean;
    expectOp: 'ensure' | 'delete';
    expectCreateAttempt?: boolean;
    expectDeleteAttempt?: boolean;
    expectPatchStatus?: boolean;
    expectPatchFinalizer?: boolean;
  }> = [
    { desc: "service doesn't want LB", service: newService('no-external-balancer', 'ClusterIP'), expectOp: 'delete' },
    {
      desc: 'udp service that wants LB',
      service: newService('udp-service', 'LoadBalancer', tweakPorts('UDP')),
      expectOp: 'ensure',
      expectCreateAttempt: true,
      expectPatchStatus: true,
      expectPatchFinalizer: true,
    },
    { desc: 'tcp service that wants LB', service: newService('basic-service1', 'LoadBalancer'), expectOp: 'ensure', expectCreateAttempt: true, expectPatchStatus: true, expectPatchFinalizer: true },
    {
      desc: 'sctp service that wants LB',
      service: newService('sctp-service', 'LoadBalancer', tweakPorts('SCTP')),
      expectOp: 'ensure',
      expectCreateAttempt: true,
      expectPatchStatus: true,
      expectPatchFinalizer: true,
    },
    { desc: 'service specifies loadBalancerClass', service: newService('with-external-balancer', 'LoadBalancer', tweakLoadBalancerClass('custom-loadbalancer')), expectOp: 'delete' },
    {
      desc: 'service with finalizer that no longer wants LB',
      service: newService('no-external-balancer', 'ClusterIP', tweakIngress('8.8.8.8'), tweakFinalizers(LOAD_BALANCER_CLEANUP_FINALIZER)),
      lbExists: true,
      expectOp: 'delete',
      expectDeleteAttempt: true,
      expectPatchStatus: true,
      expectPatchFinalizer: true,
    },
    {
      desc: 'service that needs cleanup',
      service: newService('basic-service1', 'LoadBalancer', tweakIngress('8.8.8.8'), tweakFinalizers(LOAD_BALANCER_CLEANUP_FINALIZER), tweakDeletionTimestamp()),
      lbExists: true,
      expectOp: 'delete',
      expectDeleteAttempt: true,
      expectPatchStatus: true,
      expectPatchFinalizer: true,
    },
    {
      desc: 'service with finalizer that wants LB',
      service: newService('basic-service1', 'LoadBalancer', tweakFinalizers(LOAD_BALANCER_CLEANUP_FINALIZER)),
      expectOp: 'ensure',
      expectCreateAttempt: true,
      expectPatchStatus: true,
    },
    {
      desc: 'service with loadBalancerClass that still has our finalizer (cleanup, even if no LB exists)',
      service: newService('class-with-finalizer', 'LoadBalancer', tweakLoadBalancerClass('custom'), tweakFinalizers(LOAD_BALANCER_CLEANUP_FINALIZER), tweakIngress('8.8.8.8')),
      expectOp: 'delete',
      expectPatchStatus: true,
      expectPatchFinalizer: true,
    },
  ];

  it.each(cases)('$desc', async (testCase) => {
    const harness = createServiceHarness({ nodes: [makeNode(tweakName('node1'))] });
    const { cloud, controller, kube } = harness;
    cloud.exists = testCase.lbExists;
    const stored = store(harness, testCase.service);
    kube.clearActions();
    cloud.clearCalls();

    const operation = await controller.loadBalancerSync.syncLoadBalancerIfNeeded(stored, keyOf(stored));
    expect(operation).toBe(testCase.expectOp);

    if (!testCase.expectCreateAttempt && !testCase.expectDeleteAttempt && !testCase.expectPatchFinalizer && !testCase.expectPatchStatus) {
      expect(kube.actions).toEqual([]);
      expect(cloud.calls.filter((call) => call !== 'get')).toEqual([]);
      expect(kube.getService('default', stored.metadata!.name!)?.metadata?.finalizers ?? []).toEqual([]);
      return;
    }
    expect(cloud.calls.includes('create')).toBe(testCase.expectCreateAttempt ?? false);
    expect(cloud.calls.includes('delete')).toBe(testCase.expectDeleteAttempt ?? false);
    if (testCase.expectCreateAttempt) {
      const balancer = cloud.balancers.get(defaultLoadBalancerName(stored));
      expect(balancer).toMatchObject({ region: 'us-central', ports: [80], hosts: ['node1'] });
    }
    const patches = servicePatches(harness);
    expect(patches.filter((action) => action.subresource === 'status')).toHaveLength(testCase.expectPatchStatus ? 1 : 0);
    expect(patches.filter((action) => action.subresource === undefined)).toHaveLength(testCase.expectPatchFinalizer ? 1 : 0);

    const after = kube.getService('default', stored.metadata!.name!);
    if (testCase.expectOp === 'ensure') {
      expect(after?.metadata?.finalizers).toContain(LOAD_BALANCER_CLEANUP_FINALIZER);
      expect(after?.status?.loadBalancer?.ingress).toEqual([{ ip: cloud.externalIp }]);
    } else if (after !== undefined) {
      expect(after.metadata?.finalizers ?? []).not.toContain(LOAD_BALANCER_CLEANUP_FINALIZER);
      expect(after.status?.loadBalancer?.ingress ?? []).toEqual([]);
    }
  });

  it('adds the finalizer before calling EnsureLoadBalancer', async () => {
    const harness = createServiceHarness({ nodes: [makeNode(tweakName('node1'))] });
    const stored = store(harness, defaultExternalService());
    let finalizersAtEnsure: string[] | undefined;
    harness.cloud.onEnsure = () => {
      finalizersAtEnsure = harness.kube.getService('default', 'external-balancer')?.metadata?.finalizers;
    };
    await harness.controller.loadBalancerSync.syncLoadBalancerIfNeeded(stored, keyOf(stored));
    expect(finalizersAtEnsure).toEqual([LOAD_BALANCER_CLEANUP_FINALIZER]);
  });

  it('emits Ensuring/Ensured events and UnAvailableLoadBalancer when no node qualifies', async () => {
    const harness = createServiceHarness();
    const stored = store(harness, defaultExternalService());
    await harness.controller.loadBalancerSync.syncLoadBalancerIfNeeded(stored, keyOf(stored));
    expect(harness.kube.eventLog.events.map((event) => [event.type, event.reason, event.message])).toEqual([
      ['Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer'],
      ['Warning', 'UnAvailableLoadBalancer', 'There are no available nodes for LoadBalancer'],
      ['Normal', 'EnsuredLoadBalancer', 'Ensured load balancer'],
    ]);
    expect(harness.kube.eventLog.events[0]?.involvedObject).toMatchObject({ apiVersion: 'v1', kind: 'Service', name: 'external-balancer', namespace: 'default' });
    expect(harness.cloud.ensureCalls[0]?.hosts).toEqual([]);
  });

  it('does not patch the status when the ingress is unchanged', async () => {
    const harness = createServiceHarness();
    const stored = store(harness, newService('s', 'LoadBalancer', tweakFinalizers(LOAD_BALANCER_CLEANUP_FINALIZER), tweakIngress('1.2.3.4')));
    harness.kube.clearActions();
    expect(await harness.controller.loadBalancerSync.syncLoadBalancerIfNeeded(stored, keyOf(stored))).toBe('ensure');
    expect(servicePatches(harness)).toEqual([]);
  });

  it('ImplementedElsewhere from Ensure is a silent success: finalizer added, no status, no Ensured event', async () => {
    const harness = createServiceHarness();
    harness.cloud.errors.ensure = new ImplementedElsewhereError();
    const stored = store(harness, defaultExternalService());
    expect(await harness.controller.loadBalancerSync.syncLoadBalancerIfNeeded(stored, keyOf(stored))).toBe('ensure');
    expect(harness.kube.getService('default', 'external-balancer')?.metadata?.finalizers).toEqual([LOAD_BALANCER_CLEANUP_FINALIZER]);
    expect(servicePatches(harness).filter((action) => action.subresource === 'status')).toEqual([]);
    expect(harness.kube.eventLog.find({ reason: 'EnsuredLoadBalancer' })).toEqual([]);
  });

  it('ImplementedElsewhere from delete is ignored and the finalizer still removed', async () => {
    const harness = createServiceHarness();
    harness.cloud.exists = true;
    harness.cloud.errors.delete = new ImplementedElsewhereError();
    const stored = store(harness, newService('s', 'ClusterIP', tweakFinalizers(LOAD_BALANCER_CLEANUP_FINALIZER)));
    expect(await harness.controller.loadBalancerSync.syncLoadBalancerIfNeeded(stored, keyOf(stored))).toBe('delete');
    expect(harness.kube.getService('default', 's')?.metadata?.finalizers ?? []).toEqual([]);
    expect(harness.kube.eventLog.find({ reason: 'DeletedLoadBalancer' })).toHaveLength(1);
  });

  it('wraps cloud errors like upstream and keeps a RetryError detectable only on the ensure path', async () => {
    const harness = createServiceHarness();
    harness.cloud.errors.ensure = new RetryError('LB create in progress', 42_000);
    const stored = store(harness, defaultExternalService());
    const ensureError = await harness.controller.loadBalancerSync.syncLoadBalancerIfNeeded(stored, keyOf(stored)).catch((error: Error) => error);
    expect((ensureError as Error).message).toBe('failed to ensure load balancer: LB create in progress');
    expect((ensureError as Error).cause).toBe(harness.cloud.errors.ensure);

    harness.cloud.errors.get = new Error('api down');
    const cleanup = store(harness, newService('gone', 'ClusterIP', tweakFinalizers(LOAD_BALANCER_CLEANUP_FINALIZER)));
    await expect(harness.controller.loadBalancerSync.syncLoadBalancerIfNeeded(cleanup, keyOf(cleanup))).rejects.toThrow(
      'failed to check if load balancer exists before cleanup: api down',
    );
    harness.cloud.errors.get = undefined;
    harness.cloud.exists = true;
    harness.cloud.errors.delete = new Error('quota');
    await expect(harness.controller.loadBalancerSync.syncLoadBalancerIfNeeded(cleanup, keyOf(cleanup))).rejects.toThrow('failed to delete load balancer: quota');
    expect(harness.kube.getService('default', 'gone')?.metadata?.finalizers).toEqual([LOAD_BALANCER_CLEANUP_FINALIZER]);
  });

  it('a nil status from EnsureLoadBalancer is an error', async () => {
    const harness = createServiceHarness();
    harness.cloud.ensureStatus = () => undefined;
    const stored = store(harness, defaultExternalService());
    await expect(harness.controller.loadBalancerSync.syncLoadBalancerIfNeeded(stored, keyOf(stored))).rejects.toThrow('service status returned by EnsureLoadBalancer is nil');
  });

  it('adding the finalizer to a service being deleted fails (cloud-provider-gcp#981)', async () => {
    const harness = createServiceHarness();
    const stored = store(harness, newService('s', 'LoadBalancer', tweakFinalizers('other'), tweakDeletionTimestamp()));
    await expect(harness.controller.loadBalancerSync.syncLoadBalancerIfNeeded(stored, keyOf(stored))).rejects.toThrow(/^failed to add load balancer cleanup finalizer: /);
    expect(harness.cloud.calls).toEqual([]);
  });
});

describe('TestProcessServiceCreateOrUpdate', () => {
  it('If updating a valid service', async () => {
    const harness = createServiceHarness();
    const stored = store(harness, defaultExternalService());
    harness.controller.cache.getOrCreate('validKey');
    await expect(harness.controller.processServiceCreateOrUpdate(stored, 'validKey')).resolves.toBeUndefined();
  });

  it('If Updating Loadbalancer IP', async () => {
    const harness = createServiceHarness();
    const stored = store(harness, newService('sync-test-name', 'LoadBalancer', (service) => (service.spec!.loadBalancerIP = '192.168.1.1')));
    const key = 'default/sync-test-name';
    harness.controller.cache.getOrCreate(key).state = stored;
    const updated = structuredClone(stored);
    updated.spec!.loadBalancerIP = '192.168.1.11';
    await harness.controller.processServiceCreateOrUpdate(updated, key);
    expect(harness.controller.cache.get(key)?.state?.spec?.loadBalancerIP).toBe('192.168.1.11');
  });

  it('deletes the old load balancer first when the UID changed (re-created without finalizer)', async () => {
    const harness = createServiceHarness();
    const old = { ...defaultExternalService(), metadata: { ...defaultExternalService().metadata, uid: 'old-uid' } };
    harness.controller.cache.getOrCreate('default/external-balancer').state = old;
    const current = store(harness, defaultExternalService());
    await harness.controller.processServiceCreateOrUpdate(current, 'default/external-balancer');
    expect(harness.cloud.calls).toEqual(['delete', 'create']);
    expect(harness.cloud.deleteCalls[0]?.metadata?.uid).toBe('old-uid');
    expect(harness.controller.cache.get('default/external-balancer')?.state?.metadata?.uid).toBe(current.metadata?.uid);
  });

  it('forgets the service once its load balancer was deleted', async () => {
    const harness = createServiceHarness();
    const stored = store(harness, newService('s', 'ClusterIP'));
    await harness.controller.processServiceCreateOrUpdate(stored, 'default/s');
    expect(harness.controller.cache.get('default/s')).toBeUndefined();
  });
});

describe('TestProcessServiceCreateOrUpdateK8sError', () => {
  it.each([
    ['conflict error', new KubeApiError('Operation cannot be fulfilled on services "svc-k8s-err": object conflict', 409, 'Conflict'), true],
    ['not found error', new KubeApiError('services "svc-k8s-err" not found', 404, 'NotFound'), false],
  ])('%s', async (_name, kubeError, expectError) => {
    const harness = createServiceHarness();
    // Preset finalizer so the API error only happens when patching status.
    const stored = store(harness, newService('svc-k8s-err', 'LoadBalancer', tweakFinalizers(LOAD_BALANCER_CLEANUP_FINALIZER)));
    harness.kube.failNext({ verb: 'patch', resource: 'services' }, kubeError);
    const result = await harness.controller.processServiceCreateOrUpdate(stored, 'svc-k8s-err').catch((error: Error) => error);
    if (!expectError) {
      expect(result).toBeUndefined();
      return;
    }
    expect((result as Error).message).toBe(`failed to update load balancer status: ${kubeError.message}`);
    const failures = harness.kube.eventLog.find({ reason: 'SyncLoadBalancerFailed', type: 'Warning' });
    expect(failures.map((event) => event.message)).toEqual([`Error syncing load balancer: failed to update load balancer status: ${kubeError.message}`]);
  });
});

describe('TestSyncService', () => {
  it('if an invalid service name is synced', async () => {
    const harness = createServiceHarness();
    await expect(harness.controller.syncService('invalid/key/string')).rejects.toThrow('unexpected key format: "invalid/key/string"');
    expect(harness.controller.cache.get('invalid/key/string')).toBeUndefined();
  });

  it('if valid service (absent from the informer: cleaned up and forgotten)', async () => {
    const harness = createServiceHarness();
    harness.controller.cache.getOrCreate('external-balancer').state = defaultExternalService();
    await expect(harness.controller.syncService('external-balancer')).resolves.toBeUndefined();
    expect(harness.controller.cache.get('external-balancer')).toBeUndefined();
    expect(harness.cloud.calls).toEqual(['delete']);
  });

  it('syncs a service from the informer cache on a copy', async () => {
    const harness = createServiceHarness({ nodes: [makeNode(tweakName('node1'))] });
    store(harness, defaultExternalService());
    const informerObject = harness.kube.serviceInformer.store.get('default/external-balancer');
    await harness.controller.syncService('default/external-balancer');
    expect(harness.cloud.ensureCalls).toHaveLength(1);
    expect(harness.cloud.ensureCalls[0]?.service).not.toBe(informerObject);
    expect(harness.controller.cache.get('default/external-balancer')?.state).toBeDefined();
  });
});

describe('TestProcessServiceDeletion', () => {
  const key = 'external-balancer';
  it('If a non-existent service is deleted', async () => {
    const harness = createServiceHarness();
    await expect(harness.controller.processServiceDeletion(key)).resolves.toBeUndefined();
    expect(harness.cloud.calls).toEqual([]);
  });

  it('If cloudprovided failed to delete the service', async () => {
    const harness = createServiceHarness();
    harness.controller.cache.getOrCreate(key).state = defaultExternalService();
    harness.cloud.errors.delete = new Error('error Deleting the Loadbalancer');
    await expect(harness.controller.processServiceDeletion(key)).rejects.toThrow(/^error Deleting the Loadbalancer$/);
    expect(harness.kube.eventLog.find({ reason: 'DeleteLoadBalancerFailed' }).map((event) => event.message)).toEqual([
      'Error deleting load balancer: error Deleting the Loadbalancer',
    ]);
    expect(harness.controller.cache.get(key)).toBeDefined();
  });

  it('If delete was successful', async () => {
    const harness = createServiceHarness();
    harness.controller.cache.getOrCreate(key).state = defaultExternalService();
    await expect(harness.controller.processServiceDeletion(key)).resolves.toBeUndefined();
    expect(harness.controller.cache.get(key)).toBeUndefined();
    expect(harness.kube.eventLog.events.map((event) => event.reason)).toEqual(['DeletingLoadBalancer', 'DeletedLoadBalancer']);
  });

  it('a cached service that did not want a load balancer is just forgotten', async () => {
    const harness = createServiceHarness();
    harness.controller.cache.getOrCreate(key).state = newService(key, 'ClusterIP');
    await harness.controller.processServiceDeletion(key);
    expect(harness.cloud.calls).toEqual([]);
    expect(harness.controller.cache.get(key)).toBeUndefined();
  });
});

describe('TestAddFinalizer / TestRemoveFinalizer', () => {
  it.each([
    ['no-op add finalizer', [LOAD_BALANCER_CLEANUP_FINALIZER], false],
    ['add finalizer', [], true],
  ])('%s', async (_name, finalizers, expectPatch) => {
    const harness = createServiceHarness();
    const stored = store(harness, newService('test-patch-finalizer', 'LoadBalancer', tweakFinalizers(...finalizers)));
    harness.kube.clearActions();
    await harness.controller.loadBalancerSync.addFinalizer(stored);
    expect(servicePatches(harness).length > 0).toBe(expectPatch);
    expect(harness.kube.getService('default', 'test-patch-finalizer')?.metadata?.finalizers).toEqual([LOAD_BALANCER_CLEANUP_FINALIZER]);
  });

  it.each([
    ['no-op remove finalizer', [], false],
    ['remove finalizer', [LOAD_BALANCER_CLEANUP_FINALIZER], true],
  ])('%s', async (_name, finalizers, expectPatch) => {
    const harness = createServiceHarness();
    const stored = store(harness, newService('test-patch-finalizer', 'LoadBalancer', tweakFinalizers(...finalizers)));
    harness.kube.clearActions();
    await harness.controller.loadBalancerSync.removeFinalizer(stored);
    expect(servicePatches(harness).length > 0).toBe(expectPatch);
    expect(harness.kube.getService('default', 'test-patch-finalizer')?.metadata?.finalizers ?? []).toEqual([]);
  });

  it('keeps foreign finalizers, also when another writer changed them concurrently', async () => {
    const harness = createServiceHarness();
    const stored = store(harness, newService('s', 'LoadBalancer', tweakFinalizers('a', LOAD_BALANCER_CLEANUP_FINALIZER)));
    const concurrent = structuredClone(stored);
    concurrent.metadata!.finalizers = ['a', LOAD_BALANCER_CLEANUP_FINALIZER, 'b'];
    await harness.kube.services.update(concurrent);
    await harness.controller.loadBalancerSync.removeFinalizer(stored);
    expect(harness.kube.getService('default', 's')?.metadata?.finalizers).toEqual(['a', 'b']);
  });
});

describe('TestPatchStatus', () => {
  it.each<[string, Array<{ ip: string }>, { ingress?: Array<{ ip: string }> }, boolean]>([
    ['no-op add status', [{ ip: '8.8.8.8' }], { ingress: [{ ip: '8.8.8.8' }] }, false],
    ['add status', [], { ingress: [{ ip: '8.8.8.8' }] }, true],
    ['no-op clear status', [], {}, false],
    ['clear status', [{ ip: '8.8.8.8' }], {}, true],
  ])('%s', async (_name, ingress, newStatus, expectPatch) => {
    const harness = createServiceHarness();
    const stored = store(harness, { ...newService('test-patch-status', 'LoadBalancer'), status: { loadBalancer: { ingress } } });
    harness.kube.clearActions();
    await harness.controller.loadBalancerSync.patchStatus(stored, stored.status?.loadBalancer ?? {}, newStatus);
    const patches = servicePatches(harness);
    expect(patches.length > 0).toBe(expectPatch);
    expect(patches.every((action) => action.subresource === 'status')).toBe(true);
    expect(harness.kube.getService('default', 'test-patch-status')?.status?.loadBalancer?.ingress ?? []).toEqual(newStatus.ingress ?? []);
  });
});

describe('TestServiceQueueDelay', () => {
  it.each([
    ['processing successful', undefined, 0, undefined],
    ['regular error', new Error('something went wrong'), 1, undefined],
    ['retry error', new RetryError('LB create in progress', 42_000), 0, 42_000],
    // Upstream requeues every error that is not a RetryError; an invalid-input check may depend on cloud state.
    ['invalid input error (retried with backoff, as upstream)', new InvalidServiceConfigurationError('annotation example.com/subnets: subnet "subnet-1" not found', { annotation: 'example.com/subnets', value: 'subnet-1' }), 1, undefined],
    ['permanently invalid input error (not retried)', new PermanentInvalidServiceConfigurationError('annotation example.com/lb-type: invalid value "huge"', { annotation: 'example.com/lb-type', value: 'huge' }), 0, undefined],
  ])('%s', async (_name, cloudError, wantRequeues, wantRetryDelay) => {
    const harness = createServiceHarness();
    if (cloudError !== undefined) harness.cloud.errors.ensure = cloudError;
    store(harness, defaultExternalService()); // the informer handler enqueues the key
    const key = 'default/external-balancer';
    expect(harness.serviceQueue.pendingKeys()).toEqual([key]);

    expect(await harness.controller.processNextServiceItem()).toBe(true);
    expect(harness.serviceQueue.numRequeues(key)).toBe(wantRequeues);
    if (wantRetryDelay !== undefined) expect(harness.serviceQueue.delayedAdds).toEqual([{ key, delayMs: wantRetryDelay, rateLimited: false }]);
    else if (wantRequeues === 1) expect(harness.serviceQueue.delayedAdds).toEqual([{ key, delayMs: 5_000, rateLimited: true }]);
    else expect(harness.serviceQueue.delayedAdds).toEqual([]);
    harness.serviceQueue.shutDown();
  });

  it('backs off exponentially per service, capped at 300 s', async () => {
    const harness = createServiceHarness();
    harness.cloud.errors.ensure = new Error('boom');
    store(harness, defaultExternalService());
    for (let attempt = 0; attempt < 8; attempt++) {
      await harness.controller.syncService('default/external-balancer').catch(() => harness.serviceQueue.addRateLimited('default/external-balancer'));
    }
    expect(harness.serviceQueue.delayedAdds.map((add) => add.delayMs)).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
    harness.serviceQueue.shutDown();
  });
});

describe('malformed services', () => {
  it('a bad source-ranges annotation yields a Warning naming it, a retry, and other services carry on', async () => {
    const harness = createServiceHarness({ nodes: [makeNode(tweakName('node1'))] });
    harness.cloud.validateSourceRanges = true;
    store(harness, newService('bad', 'LoadBalancer', tweakAnnotation('service.beta.kubernetes.io/load-balancer-source-ranges', '10.0.0.0/8,not-a-cidr')));
    store(harness, newService('good', 'LoadBalancer'));
    expect(await harness.controller.processNextServiceItem()).toBe(true);
    expect(await harness.controller.processNextServiceItem()).toBe(true);

    const warnings = harness.kube.eventLog.find({ reason: 'SyncLoadBalancerFailed', name: 'bad' });
    expect(warnings.map((event) => event.message)).toEqual([
      'Error syncing load balancer: failed to ensure load balancer: service.beta.kubernetes.io/load-balancer-source-ranges: 10.0.0.0/8,not-a-cidr is not valid. Expecting a comma-separated list of source IP ranges. For example, 10.0.0.0/24,192.168.2.0/24',
    ]);
    expect(harness.serviceQueue.numRequeues('default/bad')).toBe(1);
    expect(harness.kube.getService('default', 'good')?.status?.loadBalancer?.ingress).toEqual([{ ip: harness.cloud.externalIp }]);
    harness.serviceQueue.shutDown();
  });

  it('an invalid-input error that depends on cloud state is retried with backoff until the cloud has what the annotation names', async () => {
    const harness = createServiceHarness({ nodes: [makeNode(tweakName('node1'))] });
    harness.cloud.errors.ensure = new InvalidServiceConfigurationError('annotation example.com/subnets: subnet "subnet-new" not found', {
      annotation: 'example.com/subnets',
      value: 'subnet-new',
    });
    store(harness, newService('waiting', 'LoadBalancer', tweakAnnotation('example.com/subnets', 'subnet-new')));
    expect(await harness.controller.processNextServiceItem()).toBe(true);
    expect(harness.serviceQueue.numRequeues('default/waiting')).toBe(1);
    expect(harness.serviceQueue.delayedAdds).toEqual([{ key: 'default/waiting', delayMs: 5_000, rateLimited: true }]);

    // The subnet appears in the cloud; the Service itself never changes. The retry provisions it.
    delete harness.cloud.errors.ensure;
    harness.serviceQueue.add('default/waiting');
    expect(await harness.controller.processNextServiceItem()).toBe(true);
    expect(harness.kube.getService('default', 'waiting')?.status?.loadBalancer?.ingress).toEqual([{ ip: harness.cloud.externalIp }]);
    expect(harness.serviceQueue.numRequeues('default/waiting')).toBe(0);
    harness.serviceQueue.shutDown();
  });

  it('a permanently invalid input (wrong whatever the cloud does) yields one Warning and no retry loop; a fix is synced', async () => {
    const harness = createServiceHarness({ nodes: [makeNode(tweakName('node1'))] });
    harness.cloud.errors.ensure = new PermanentInvalidServiceConfigurationError('annotation example.com/lb-type: invalid value "huge" (use "small" or "large")', {
      annotation: 'example.com/lb-type',
      value: 'huge',
    });
    store(harness, newService('bad', 'LoadBalancer', tweakAnnotation('example.com/lb-type', 'huge')));
    expect(await harness.controller.processNextServiceItem()).toBe(true);

    expect(harness.kube.eventLog.find({ reason: 'SyncLoadBalancerFailed', name: 'bad' }).map((event) => event.message)).toEqual([
      'Error syncing load balancer: failed to ensure load balancer: annotation example.com/lb-type: invalid value "huge" (use "small" or "large")',
    ]);
    expect(harness.serviceQueue.numRequeues('default/bad')).toBe(0);
    expect(harness.serviceQueue.delayedAdds).toEqual([]);
    expect(harness.serviceQueue.pendingKeys()).toEqual([]);

    // The user fixes the annotation: the informer update enqueues the service, which now syncs.
    delete harness.cloud.errors.ensure;
    await harness.kube.services.patch('default', 'bad', { metadata: { annotations: { 'example.com/lb-type': 'small' } } }, 'merge');
    expect(harness.serviceQueue.pendingKeys()).toEqual(['default/bad']);
    expect(await harness.controller.processNextServiceItem()).toBe(true);
    expect(harness.kube.getService('default', 'bad')?.status?.loadBalancer?.ingress).toEqual([{ ip: harness.cloud.externalIp }]);
    harness.serviceQueue.shutDown();
  });

  it.each([
    ['PermanentInvalidInput', 0],
    ['InvalidInput', 1],
  ])('a provider error marked kind %j anywhere in the cause chain is requeued %i time(s)', async (kind, requeues) => {
    const harness = createServiceHarness();
    const providerError = Object.assign(new Error('invalid annotation service.beta.kubernetes.io/aws-load-balancer-type: "bogus"'), { kind });
    harness.cloud.errors.ensure = new Error('ensuring the load balancer failed', { cause: providerError });
    store(harness, newService('bad', 'LoadBalancer'));
    expect(await harness.controller.processNextServiceItem()).toBe(true);
    expect(harness.serviceQueue.numRequeues('default/bad')).toBe(requeues);
    expect(harness.serviceQueue.delayedAdds).toHaveLength(requeues);
    expect(harness.kube.eventLog.find({ reason: 'SyncLoadBalancerFailed', name: 'bad' })).toHaveLength(1);
    harness.serviceQueue.shutDown();
  });

  it('survives services without spec or with odd keys', async () => {
    const harness = createServiceHarness();
    harness.controller.cache.getOrCreate('default/odd').state = { metadata: { name: 'odd', namespace: 'default' } };
    await expect(harness.controller.syncService('default/odd')).resolves.toBeUndefined();
    harness.serviceQueue.add('a/b/c');
    expect(await harness.controller.processNextServiceItem()).toBe(true);
    expect(harness.serviceQueue.numRequeues('a/b/c')).toBe(1);
    harness.serviceQueue.shutDown();
  });
});

describe('service handler resync (30 s)', () => {
  it('re-enqueues only services that still need cleanup', async () => {
    const harness = createServiceHarness();
    harness.cloud.errors.get = new Error('cloud unreachable');
    store(harness, newService('stuck', 'ClusterIP', tweakFinalizers(LOAD_BALANCER_CLEANUP_FINALIZER)));
    store(harness, newService('fine', 'LoadBalancer'));
    while (harness.serviceQueue.length() > 0) await harness.controller.processNextServiceItem();
    expect(harness.serviceQueue.numRequeues('default/stuck')).toBe(1);
    harness.controller.resyncServicesNeedingCleanup();
    expect(harness.serviceQueue.pendingKeys()).toEqual(['default/stuck']);
    harness.serviceQueue.shutDown();
  });
});

describe('service update handler (upstream New: UpdateFunc with needsUpdate)', () => {
  it('logs why a service update needs a load balancer sync, with the old and new values as upstream needsUpdate', async () => {
    const logger = new RecordingLogger();
    const harness = createServiceHarness({ logger });
    const created = store(harness, newService('web', 'LoadBalancer'));
    await harness.kube.services.patch('default', created.metadata!.name!, { spec: { loadBalancerIP: '192.0.2.7' } }, 'merge');
    await waitUntil(() => logger.entries.some((entry) => entry.message === 'Service needs a load balancer sync'));
    const entry = logger.entries.find((candidate) => candidate.message === 'Service needs a load balancer sync');
    expect(entry?.level).toBe('verbose');
    expect(entry?.fields).toMatchObject({ service: 'default/web', reason: 'LoadBalancerIP changed from  to 192.0.2.7' });
    expect(harness.serviceQueue.pendingKeys()).toContain('default/web');
    harness.serviceQueue.shutDown();
  });

  it('records the Normal event upstream needsUpdate records, on the service', async () => {
    const harness = createServiceHarness();
    const created = store(harness, newService('web', 'LoadBalancer'));
    await harness.kube.services.patch('default', created.metadata!.name!, { spec: { externalTrafficPolicy: 'Local' } }, 'merge');
    await waitUntil(() => harness.kube.eventLog.events.some((event) => event.reason === 'ExternalTrafficPolicy'));
    const event = harness.kube.eventLog.events.find((candidate) => candidate.reason === 'ExternalTrafficPolicy');
    expect(event).toMatchObject({ type: 'Normal', message: ' -> Local', involvedObject: { kind: 'Service', name: 'web', namespace: 'default' } });
    harness.serviceQueue.shutDown();
  });
});
