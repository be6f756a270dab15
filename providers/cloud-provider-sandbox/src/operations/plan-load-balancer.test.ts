import { makeService } from '@ccm/testing';
import { describe, expect, it } from 'vitest';
import type { CloudLoadBalancer } from '../ports/sandbox-cloud-port.js';
import { InvalidAnnotationError } from '@ccm/core/service-input';
import { desiredLoadBalancer, LoadBalancerSpecError, planLoadBalancer, sourceRangesOf } from './plan-load-balancer.js';

const service = makeService('web', { uid: '11111111-2222-4333-8444-555555555555', ports: [{ name: 'http', port: 80, nodePort: 30080 }] });
const desired = desiredLoadBalancer('lb', service, 'c1', ['i-2', 'i-1', 'i-2']);
const observed: CloudLoadBalancer = {
  name: 'lb',
  listeners: [{ name: 'http', protocol: 'TCP', port: 80, nodePort: 30080 }],
  backendInstanceIds: ['i-2', 'i-1'],
  ingress: { ip: '203.0.113.2', hostname: 'lb.example' },
  sourceRanges: [],
  tags: { ...desired.tags, extra: 'kept' },
};

describe('desiredLoadBalancer', () => {
  it('derives listeners, sorted unique backends and ownership tags from the Service', () => {
    expect(desired).toEqual({
      name: 'lb',
      listeners: [{ name: 'http', protocol: 'TCP', port: 80, nodePort: 30080 }],
      backendInstanceIds: ['i-1', 'i-2'],
      sourceRanges: [],
      tags: { 'ccm.sandbox.io/cluster': 'c1', 'ccm.sandbox.io/service': 'default/web', 'ccm.sandbox.io/service-uid': '11111111-2222-4333-8444-555555555555' },
    });
  });

  it('adds the health check port only for externalTrafficPolicy Local', () => {
    const local = makeService('web', { externalTrafficPolicy: 'Local', healthCheckNodePort: 31999 });
    expect(desiredLoadBalancer('lb', local, 'c1', []).healthCheckNodePort).toBe(31999);
    expect(desiredLoadBalancer('lb', makeService('web', { healthCheckNodePort: 31999 }), 'c1', []).healthCheckNodePort).toBeUndefined();
  });

  it('rejects what the cloud cannot serve', () => {
    expect(() => desiredLoadBalancer('lb', makeService('web', { ports: [] }), 'c1', [])).toThrow(LoadBalancerSpecError);
    const weird = makeService('web');
    weird.spec!.ports![0]!.protocol = 'QUIC';
    expect(() => desiredLoadBalancer('lb', weird, 'c1', [])).toThrow(/protocol "QUIC" is not supported/);
  });
});

describe('sourceRangesOf', () => {
  it.each([
    ['spec wins over the annotation', { loadBalancerSourceRanges: ['10.0.0.0/8'], annotations: { 'service.beta.kubernetes.io/load-balancer-source-ranges': '1.2.3.0/24' } }, ['10.0.0.0/8']],
    ['annotation, trimmed and split', { annotations: { 'service.beta.kubernetes.io/load-balancer-source-ranges': ' 1.2.3.0/24 , fd00::/8,' } }, ['1.2.3.0/24', 'fd00::/8']],
    ['none means everyone', {}, []],
  ] as const)('%s', (_name, options, expected) => {
    expect(sourceRangesOf(makeService('web', options as never))).toEqual(expected);
  });

  it('rejects invalid ranges', () => {
    expect(() => sourceRangesOf(makeService('web', { loadBalancerSourceRanges: ['10.0.0.0/8', '300.1.1.1/8', 'x'] }))).toThrow(/"300.1.1.1\/8", "x"/);
  });

  it('an invalid annotation is a permanent invalid-input error naming the annotation and its value', () => {
    const annotation = 'service.beta.kubernetes.io/load-balancer-source-ranges';
    let thrown: unknown;
    try {
      sourceRangesOf(makeService('web', { annotations: { [annotation]: '10.0.0.0/8,not-a-cidr' } } as never));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidAnnotationError);
    expect(thrown).toMatchObject({ kind: 'PermanentInvalidInput', annotation, value: '10.0.0.0/8,not-a-cidr' });
    expect((thrown as Error).message).toContain(`annotation ${annotation}="10.0.0.0/8,not-a-cidr"`);
  });
});

describe('planLoadBalancer', () => {
  it.each([
    ['missing: create', undefined, { action: 'create', spec: desired }],
    ['same (backend order and extra tags do not matter): nothing', observed, { action: 'none' }],
    ['other backends: update them only', { ...observed, backendInstanceIds: ['i-1'] }, { action: 'update', changes: { backendInstanceIds: ['i-1', 'i-2'] } }],
    [
      'other ports: update listeners',
      { ...observed, listeners: [{ protocol: 'TCP', port: 81, nodePort: 30080 }] },
      { action: 'update', changes: { listeners: desired.listeners } },
    ],
    ['stale health check port: remove it', { ...observed, healthCheckNodePort: 32000 }, { action: 'update', changes: { healthCheckNodePort: null } }],
    ['other source ranges: update them', { ...observed, sourceRanges: ['10.0.0.0/8'] }, { action: 'update', changes: { sourceRanges: [] } }],
    [
      'missing ownership tag: add it, keep the others',
      { ...observed, tags: { extra: 'kept' } },
      { action: 'update', changes: { tags: { extra: 'kept', ...desired.tags } } },
    ],
  ] as const)('%s', (_name, current, expected) => {
    expect(planLoadBalancer(desired, current as CloudLoadBalancer | undefined)).toEqual(expected);
  });
});
