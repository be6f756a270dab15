import { InMemoryKubeAccess } from '@ccm/testing/kube';
import type { V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  createServicePatches,
  getLoadBalancerSourceRanges,
  getServiceHealthCheckPathPort,
  hasLoadBalancerFinalizer,
  InvalidSourceRangesError,
  isAllowAll,
  LOAD_BALANCER_CLEANUP_FINALIZER,
  loadBalancerStatusEqual,
  needsHealthCheck,
  patchService,
  requestsOnlyLocalTraffic,
} from './service-helpers.js';
import { createTwoWayMergePatch, SERVICE_PATCH_SCHEMA } from './two-way-merge-patch.js';

const ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';
const withAnnotation = (value: string): V1Service => ({ metadata: { annotations: { [ANNOTATION]: value } } });
const withSpecRanges = (value: string): V1Service => ({ spec: { loadBalancerSourceRanges: value.split(',') } });

describe('TestGetLoadBalancerSourceRanges', () => {
  it.each(['10.0.0.1/33', 'foo.bar', '10.0.0.1/32,*', '10.0.0.1/32,', '10.0.0.1/32, ', '10.0.0.1'])('rejects %j in the annotation and in the spec', (value) => {
    expect(() => getLoadBalancerSourceRanges(withAnnotation(value))).toThrow(InvalidSourceRangesError);
    expect(() => getLoadBalancerSourceRanges(withSpecRanges(value))).toThrow(InvalidSourceRangesError);
  });

  it.each([
    ['192.168.0.1/32', 1],
    ['192.168.0.1/32,192.168.0.1/32', 1],
    ['192.168.0.1/32,192.168.0.2/32', 2],
    ['  192.168.0.1/32 , 192.168.0.2/32   ', 2],
  ])('accepts %j (%d CIDRs after de-dup) in annotation and spec', (value, count) => {
    expect(getLoadBalancerSourceRanges(withAnnotation(value))).toHaveLength(count);
    expect(getLoadBalancerSourceRanges(withSpecRanges(value))).toHaveLength(count);
  });

  it('defaults to allow-all without spec or annotation, and for an empty annotation', () => {
    for (const service of [{}, withAnnotation(''), withAnnotation('   ')]) {
      const ranges = getLoadBalancerSourceRanges(service);
      expect(ranges).toEqual(['0.0.0.0/0']);
      expect(isAllowAll(ranges)).toBe(true);
    }
  });

  it('prefers the spec field over the annotation and normalizes networks', () => {
    const service: V1Service = { metadata: { annotations: { [ANNOTATION]: 'garbage' } }, spec: { loadBalancerSourceRanges: ['10.1.2.3/8', '2001:DB8::1/32'] } };
    expect(getLoadBalancerSourceRanges(service)).toEqual(['10.0.0.0/8', '2001:db8::/32']);
  });

  it('prints an IPv4-mapped IPv6 range of /96 or longer as IPv4, as Go IPNet.String, so ::ffff:0.0.0.0/96 allows all', () => {
    const ranges = getLoadBalancerSourceRanges(withSpecRanges('::ffff:10.1.2.3/120,::ffff:0.0.0.0/96,::ffff:1.2.3.4/80'));
    expect(ranges).toEqual(['10.1.2.0/24', '0.0.0.0/0', '::/80']);
    expect(isAllowAll(ranges)).toBe(true);
  });

  it('names the offending input with upstream messages', () => {
    expect(() => getLoadBalancerSourceRanges(withAnnotation('10.0.0.0/8,foo'))).toThrow(
      'service.beta.kubernetes.io/load-balancer-source-ranges: 10.0.0.0/8,foo is not valid. Expecting a comma-separated list of source IP ranges. For example, 10.0.0.0/24,192.168.2.0/24',
    );
    expect(() => getLoadBalancerSourceRanges(withSpecRanges('10.0.0.0/8,foo'))).toThrow(
      'service.Spec.LoadBalancerSourceRanges: [10.0.0.0/8 foo] is not valid. Expecting a list of IP ranges. For example, 10.0.0.0/24. Error msg: invalid CIDR address: foo',
    );
  });
});

describe('TestAllowAll', () => {
  it.each([
    [false, ['10.0.0.1/32']],
    [false, ['10.0.0.1/32', '10.0.0.2/32']],
    [false, ['10.0.0.1/32', '10.0.0.1/32']],
    [true, ['0.0.0.0/0']],
    [true, ['192.168.0.0/0']],
    [true, ['192.168.0.1/32', '0.0.0.0/0']],
    [false, ['::/0']],
  ])('%s for %j', (allowAll, ranges) => {
    expect(isAllowAll(getLoadBalancerSourceRanges({ spec: { loadBalancerSourceRanges: ranges } }))).toBe(allowAll);
  });
});

describe('TestRequestsOnlyLocalTraffic / TestNeedsHealthCheck / GetServiceHealthCheckPathPort', () => {
  it.each([
    [{}, false, false],
    [{ type: 'ClusterIP' }, false, false],
    [{ type: 'NodePort' }, false, false],
    [{ type: 'NodePort', externalTrafficPolicy: 'Cluster' }, false, false],
    [{ type: 'NodePort', externalTrafficPolicy: 'Local' }, true, false],
    [{ type: 'LoadBalancer', externalTrafficPolicy: 'Cluster' }, false, false],
    [{ type: 'LoadBalancer', externalTrafficPolicy: 'Local' }, true, true],
  ])('%j -> local=%s healthCheck=%s', (spec, local, healthCheck) => {
    expect(requestsOnlyLocalTraffic({ spec })).toBe(local);
    expect(needsHealthCheck({ spec })).toBe(healthCheck);
  });

  it('health check path and port only when needed and the port is set', () => {
    expect(getServiceHealthCheckPathPort({ spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 31000 } })).toEqual({ path: '/healthz', port: 31000 });
    expect(getServiceHealthCheckPathPort({ spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Local' } })).toEqual({ path: '', port: 0 });
    expect(getServiceHealthCheckPathPort({ spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Cluster', healthCheckNodePort: 31000 } })).toEqual({ path: '', port: 0 });
  });
});

describe('TestHasLBFinalizer', () => {
  it.each([
    ['service without finalizer', [], false],
    ['service with unrelated finalizer', ['unrelated'], false],
    ['service with one finalizer', [LOAD_BALANCER_CLEANUP_FINALIZER], true],
    ['service with multiple finalizers', [LOAD_BALANCER_CLEANUP_FINALIZER, 'unrelated'], true],
  ])('%s', (_name, finalizers, expected) => {
    expect(hasLoadBalancerFinalizer({ metadata: { finalizers } })).toBe(expected);
  });
});

describe('TestLoadBalancerStatusEqual', () => {
  it.each([
    ['empty vs empty', {}, { ingress: [] }, true],
    ['same ip', { ingress: [{ ip: '1.1.1.1' }] }, { ingress: [{ ip: '1.1.1.1' }] }, true],
    ['different ip', { ingress: [{ ip: '1.1.1.1' }] }, { ingress: [{ ip: '1.1.1.2' }] }, false],
    ['different hostname', { ingress: [{ hostname: 'a' }] }, { ingress: [{ hostname: 'b' }] }, false],
    ['ipMode VIP vs unset on an IP (the API server defaults VIP)', { ingress: [{ ip: '1.1.1.1', ipMode: 'VIP' as const }] }, { ingress: [{ ip: '1.1.1.1' }] }, true],
    ['ipMode Proxy vs unset on an IP', { ingress: [{ ip: '1.1.1.1', ipMode: 'Proxy' as const }] }, { ingress: [{ ip: '1.1.1.1' }] }, false],
    ['different ipMode', { ingress: [{ ip: '1.1.1.1', ipMode: 'VIP' as const }] }, { ingress: [{ ip: '1.1.1.1', ipMode: 'Proxy' as const }] }, false],
    ['same ports', { ingress: [{ ip: '1.1.1.1', ports: [{ port: 80, protocol: 'TCP' }] }] }, { ingress: [{ ip: '1.1.1.1', ports: [{ port: 80, protocol: 'TCP' }] }] }, true],
    ['different port', { ingress: [{ ip: '1.1.1.1', ports: [{ port: 80, protocol: 'TCP' }] }] }, { ingress: [{ ip: '1.1.1.1', ports: [{ port: 81, protocol: 'TCP' }] }] }, false],
    ['different port count', { ingress: [{ ip: '1.1.1.1', ports: [{ port: 80, protocol: 'TCP' }] }] }, { ingress: [{ ip: '1.1.1.1' }] }, false],
    ['different port error', { ingress: [{ ip: '1.1.1.1', ports: [{ port: 80, protocol: 'TCP', error: 'x' }] }] }, { ingress: [{ ip: '1.1.1.1', ports: [{ port: 80, protocol: 'TCP' }] }] }, false],
    ['order matters', { ingress: [{ ip: '1.1.1.1' }, { ip: '2.2.2.2' }] }, { ingress: [{ ip: '2.2.2.2' }, { ip: '1.1.1.1' }] }, false],
  ])('%s', (_name, left, right, equal) => {
    expect(loadBalancerStatusEqual(left, right)).toBe(equal);
  });
});

describe('Test_getPatchBytes / two-way strategic merge patch', () => {
  it('adds a finalizer with $setElementOrder, byte-identical to upstream', () => {
    const origin: V1Service = { metadata: { name: 'test-patch-bytes', finalizers: ['foo'] } };
    const updated: V1Service = { metadata: { name: 'test-patch-bytes', finalizers: ['foo', 'bar'] } };
    const patches = createServicePatches(origin, updated);
    expect(JSON.stringify(patches.metadata)).toBe('{"metadata":{"$setElementOrder/finalizers":["foo","bar"],"finalizers":["bar"]}}');
    expect(patches.status).toBeUndefined();
  });

  it('removes the last finalizer with null and one of several with $deleteFromPrimitiveList', () => {
    expect(createServicePatches({ metadata: { finalizers: ['a'] } }, { metadata: { finalizers: [] } }).metadata).toEqual({ metadata: { finalizers: null } });
    expect(JSON.stringify(createServicePatches({ metadata: { finalizers: ['foo', 'lb'] } }, { metadata: { finalizers: ['foo'] } }).metadata)).toBe(
      '{"metadata":{"$deleteFromPrimitiveList/finalizers":["lb"],"$setElementOrder/finalizers":["foo"]}}',
    );
  });

  it('replaces the ingress list atomically, clears it with null and ignores spec changes', () => {
    const original: V1Service = { metadata: { name: 's' }, spec: { clusterIP: '10.0.0.1' }, status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }, { ip: '2.2.2.2' }] } } };
    const updated: V1Service = { metadata: { name: 's' }, spec: { clusterIP: '10.0.0.2' }, status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } } };
    expect(createServicePatches(original, updated)).toEqual({ status: { status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } } } });
    expect(createServicePatches(original, { ...updated, status: { loadBalancer: {} } })).toEqual({ status: { status: { loadBalancer: { ingress: null } } } });
  });

  it('diffs keyed lists with merge keys and delete directives', () => {
    const patch = createTwoWayMergePatch(
      { status: { conditions: [{ type: 'A', status: 'True' }, { type: 'B', status: 'True' }] } },
      { status: { conditions: [{ type: 'A', status: 'False' }, { type: 'C', status: 'True' }] } },
      SERVICE_PATCH_SCHEMA,
    );
    expect(JSON.stringify(patch)).toBe(
      '{"status":{"$setElementOrder/conditions":[{"type":"A"},{"type":"C"}],"conditions":[{"status":"False","type":"A"},{"status":"True","type":"C"},{"$patch":"delete","type":"B"}]}}',
    );
  });
});

describe('TestPatchService', () => {
  it('patches finalizers and status regardless of a concurrent update, never the spec', async () => {
    const kube = new InMemoryKubeAccess();
    const origin = kube.addService({ metadata: { name: 'test-patch', annotations: {} }, spec: { clusterIP: '10.0.0.1' } });
    // A separate update in between: the patch must still apply (no resourceVersion in it).
    const concurrent = structuredClone(origin);
    concurrent.metadata!.annotations = { foo: 'bar' };
    await kube.services.update(concurrent);

    const toPatch = structuredClone(origin);
    toPatch.metadata!.finalizers = ['foo'];
    toPatch.spec!.clusterIP = '10.0.0.2';
    toPatch.status = { loadBalancer: { ingress: [{ ip: '8.8.8.8' }] } };
    const patched = await patchService(kube.services, origin, toPatch);

    expect(patched.metadata?.finalizers).toEqual(['foo']);
    expect(patched.metadata?.annotations).toEqual({ foo: 'bar' });
    expect(patched.status?.loadBalancer?.ingress).toEqual([{ ip: '8.8.8.8' }]);
    expect(patched.spec?.clusterIP).toBe('10.0.0.1');
    const patches = kube.actions.filter((action) => action.verb === 'patch');
    expect(patches.map((action) => [action.subresource ?? 'main', action.patchType])).toEqual([
      ['main', 'strategic'],
      ['status', 'strategic'],
    ]);
  });

  it('sends nothing when only the spec differs', async () => {
    const kube = new InMemoryKubeAccess();
    const origin = kube.addService({ metadata: { name: 's' }, spec: { clusterIP: '10.0.0.1' } });
    kube.clearActions();
    const updated = structuredClone(origin);
    updated.spec!.clusterIP = '10.0.0.9';
    expect(await patchService(kube.services, origin, updated)).toBe(origin);
    expect(kube.actions).toEqual([]);
  });
});
