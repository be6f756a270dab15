import type { V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { LOAD_BALANCER_CLEANUP_FINALIZER } from './service-helpers.js';
import { describeLoadBalancerUpdate, needsCleanup, needsUpdate, portsEqualForLoadBalancer, wantsLoadBalancer, type LoadBalancerUpdateEvent } from './service-predicates.js';
import {
  copyService,
  defaultExternalService,
  newService,
  tweakAnnotation,
  tweakAppProtocol,
  tweakIpFamilies,
  tweakLoadBalancerClass,
  tweakPorts,
} from './test-support/builders.js';

describe('wantsLoadBalancer', () => {
  it.each([
    ['LoadBalancer without class', newService('s', 'LoadBalancer'), true],
    ['LoadBalancer with a class', newService('s', 'LoadBalancer', tweakLoadBalancerClass('custom-loadbalancer')), false],
    ['LoadBalancer with an empty class (any class opts out)', newService('s', 'LoadBalancer', tweakLoadBalancerClass('')), false],
    ['ClusterIP', newService('s', 'ClusterIP'), false],
    ['NodePort', newService('s', 'NodePort'), false],
    ['no spec', { metadata: { name: 's' } } as V1Service, false],
  ])('%s -> %s', (_name, service, wants) => {
    expect(wantsLoadBalancer(service)).toBe(wants);
  });
});

// index finalizer timestamp wantLB | clean-up (upstream table)
describe('TestNeedsCleanup', () => {
  it.each([
    ['service without finalizer', {}, false],
    ['service with finalizer without timestamp without LB', { metadata: { finalizers: [LOAD_BALANCER_CLEANUP_FINALIZER] }, spec: { type: 'NodePort' } }, true],
    ['service with finalizer without timestamp with LB', { metadata: { finalizers: [LOAD_BALANCER_CLEANUP_FINALIZER] }, spec: { type: 'LoadBalancer' } }, false],
    ['service with finalizer with timestamp', { metadata: { finalizers: [LOAD_BALANCER_CLEANUP_FINALIZER], deletionTimestamp: new Date() } }, true],
    ['service without finalizer with timestamp', { metadata: { deletionTimestamp: new Date() }, spec: { type: 'LoadBalancer' } }, false],
    [
      'class-bearing LoadBalancer with a stale finalizer: no cleanup by needsCleanup (wantsLoadBalancer routes it to delete)',
      { metadata: { finalizers: [LOAD_BALANCER_CLEANUP_FINALIZER] }, spec: { type: 'LoadBalancer', loadBalancerClass: 'x' } },
      false,
    ],
  ])('%s', (_name, service, expected) => {
    expect(needsCleanup(service as V1Service)).toBe(expected);
  });
});

describe('TestNeedsUpdate', () => {
  const cases: Array<[string, () => [V1Service, V1Service], boolean]> = [
    [
      'If the service type is changed from LoadBalancer to ClusterIP',
      () => [defaultExternalService(), copyService(defaultExternalService(), (service) => (service.spec!.type = 'ClusterIP'))],
      true,
    ],
    [
      'If the Ports are different',
      () => [
        copyService(defaultExternalService(), (service) => (service.spec!.ports = [{ port: 8000 }, { port: 9000 }, { port: 10000 }])),
        copyService(defaultExternalService(), (service) => (service.spec!.ports = [{ port: 8001 }, { port: 9001 }, { port: 10001 }])),
      ],
      true,
    ],
    [
      'If external ip counts are different',
      () => [
        copyService(defaultExternalService(), (service) => (service.spec!.externalIPs = ['old.IP.1'])),
        copyService(defaultExternalService(), (service) => (service.spec!.externalIPs = ['new.IP.1', 'new.IP.2'])),
      ],
      true,
    ],
    [
      'If external ips are different',
      () => [
        copyService(defaultExternalService(), (service) => (service.spec!.externalIPs = ['old.IP.1', 'old.IP.2'])),
        copyService(defaultExternalService(), (service) => (service.spec!.externalIPs = ['new.IP.1', 'new.IP.2'])),
      ],
      true,
    ],
    [
      'If UID is different',
      () => [copyService(defaultExternalService(), (service) => (service.metadata!.uid = 'UID old')), copyService(defaultExternalService(), (service) => (service.metadata!.uid = 'UID new'))],
      true,
    ],
    ['If ExternalTrafficPolicy is different', () => [defaultExternalService(), copyService(defaultExternalService(), (service) => (service.spec!.externalTrafficPolicy = 'Local'))], true],
    ['If HealthCheckNodePort is different', () => [defaultExternalService(), copyService(defaultExternalService(), (service) => (service.spec!.healthCheckNodePort = 30123))], true],
    ['If TargetGroup is different 1', () => [newService('tcp-service', 'LoadBalancer', tweakPorts('TCP', 20)), newService('tcp-service', 'LoadBalancer', tweakPorts('TCP', 21))], true],
    [
      'If TargetGroup is different 2',
      () => {
        const old = newService('tcp-service', 'LoadBalancer', tweakPorts('TCP', 22));
        return [old, copyService(old, (service) => (service.spec!.ports![0]!.targetPort = 'dns'))];
      },
      true,
    ],
    ['If appProtocol is the same', () => [newService('tcp-service', 'LoadBalancer'), copyService(newService('tcp-service', 'LoadBalancer'))], false],
    [
      'If service IPFamilies from single stack to dual stack',
      () => {
        const old = newService('tcp-service', 'LoadBalancer', tweakIpFamilies('IPv4'));
        return [old, copyService(old, tweakIpFamilies('IPv4', 'IPv6'))];
      },
      true,
    ],
    [
      'If service IPFamilies from dual stack to single stack',
      () => {
        const old = newService('tcp-service', 'LoadBalancer', tweakIpFamilies('IPv4', 'IPv6'));
        return [old, copyService(old, tweakIpFamilies('IPv4'))];
      },
      true,
    ],
    ['If service IPFamilies not change', () => [newService('tcp-service', 'LoadBalancer', tweakIpFamilies('IPv4')), newService('tcp-service', 'LoadBalancer', tweakIpFamilies('IPv4'))], false],
    ['If appProtocol is set when previously unset', () => [newService('tcp-service', 'LoadBalancer'), newService('tcp-service', 'LoadBalancer', tweakAppProtocol('http'))], true],
    [
      'If appProtocol is set to a different value',
      () => [newService('tcp-service', 'LoadBalancer', tweakAppProtocol('http')), newService('tcp-service', 'LoadBalancer', tweakAppProtocol('tcp'))],
      true,
    ],
    // Beyond the upstream table: the remaining needsUpdate rules and the non-triggers.
    ['neither old nor new wants a load balancer', () => [newService('s', 'ClusterIP'), copyService(newService('s', 'ClusterIP'), (service) => (service.spec!.ports = []))], false],
    ['loadBalancerClass added (wants LB changes)', () => [defaultExternalService(), copyService(defaultExternalService(), tweakLoadBalancerClass('other'))], true],
    [
      'loadBalancerSourceRanges changed',
      () => [defaultExternalService(), copyService(defaultExternalService(), (service) => (service.spec!.loadBalancerSourceRanges = ['10.0.0.0/8']))],
      true,
    ],
    ['sessionAffinity changed', () => [defaultExternalService(), copyService(defaultExternalService(), (service) => (service.spec!.sessionAffinity = 'ClientIP'))], true],
    [
      'sessionAffinityConfig changed',
      () => [defaultExternalService(), copyService(defaultExternalService(), (service) => (service.spec!.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10 } }))],
      true,
    ],
    ['loadBalancerIP changed', () => [defaultExternalService(), copyService(defaultExternalService(), (service) => (service.spec!.loadBalancerIP = '1.2.3.4'))], true],
    ['annotation changed', () => [defaultExternalService(), copyService(defaultExternalService(), tweakAnnotation('a', 'b'))], true],
    ['port name changed', () => [defaultExternalService(), copyService(defaultExternalService(), (service) => (service.spec!.ports![0]!.name = 'http'))], true],
    ['nodePort changed', () => [defaultExternalService(), copyService(defaultExternalService(), (service) => (service.spec!.ports![0]!.nodePort = 30001))], true],
    ['protocol changed', () => [defaultExternalService(), newService('external-balancer', 'LoadBalancer', tweakPorts('UDP'))], true],
    ['labels changed (no update)', () => [defaultExternalService(), copyService(defaultExternalService(), (service) => (service.metadata!.labels = { a: 'b' }))], false],
    [
      'allocateLoadBalancerNodePorts changed (no update)',
      () => [defaultExternalService(), copyService(defaultExternalService(), (service) => (service.spec!.allocateLoadBalancerNodePorts = false))],
      false,
    ],
    ['status changed (no update)', () => [defaultExternalService(), copyService(defaultExternalService(), (service) => (service.status = { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } }))], false],
    ['empty vs missing annotations (no update)', () => [defaultExternalService(), copyService(defaultExternalService(), (service) => (service.metadata!.annotations = {}))], false],
  ];

  it.each(cases)('%s', (_name, build, expected) => {
    const [oldService, newServiceValue] = build();
    expect(needsUpdate(oldService, newServiceValue)).toBe(expected);
  });

  it('treats a missing targetPort like port 0 and compares appProtocol by value', () => {
    const left = newService('s', 'LoadBalancer');
    const right = copyService(left, (service) => (service.spec!.ports![0]!.targetPort = 0));
    expect(portsEqualForLoadBalancer(left, right)).toBe(true);
    expect(portsEqualForLoadBalancer(left, copyService(left, (service) => (service.spec!.ports![0]!.targetPort = '0')))).toBe(false);
  });
});

// The Normal events upstream's needsUpdate records (k8s.io/cloud-provider controllers/service/controller.go), reason and message.
describe('needsUpdate events', () => {
  const external = defaultExternalService;
  const cases: Array<[string, () => [V1Service, V1Service], LoadBalancerUpdateEvent | undefined]> = [
    ['type LoadBalancer -> ClusterIP', () => [external(), copyService(external(), (service) => (service.spec!.type = 'ClusterIP'))], { reason: 'Type', message: 'LoadBalancer -> ClusterIP' }],
    ['type ClusterIP -> LoadBalancer', () => [newService('s', 'ClusterIP'), newService('s', 'LoadBalancer')], { reason: 'Type', message: 'ClusterIP -> LoadBalancer' }],
    [
      'source ranges added',
      () => [external(), copyService(external(), (service) => (service.spec!.loadBalancerSourceRanges = ['10.0.0.0/8', '192.168.0.0/16']))],
      { reason: 'LoadBalancerSourceRanges', message: '[] -> [10.0.0.0/8 192.168.0.0/16]' },
    ],
    [
      'source ranges changed',
      () => [
        copyService(external(), (service) => (service.spec!.loadBalancerSourceRanges = ['10.0.0.0/8'])),
        copyService(external(), (service) => (service.spec!.loadBalancerSourceRanges = ['10.0.0.0/16'])),
      ],
      { reason: 'LoadBalancerSourceRanges', message: '[10.0.0.0/8] -> [10.0.0.0/16]' },
    ],
    ['loadBalancerIP set (the reason is spelled LoadbalancerIP upstream)', () => [external(), copyService(external(), (service) => (service.spec!.loadBalancerIP = '192.0.2.7'))], { reason: 'LoadbalancerIP', message: ' -> 192.0.2.7' }],
    [
      'loadBalancerIP changed',
      () => [copyService(external(), (service) => (service.spec!.loadBalancerIP = '192.0.2.7')), copyService(external(), (service) => (service.spec!.loadBalancerIP = '192.0.2.8'))],
      { reason: 'LoadbalancerIP', message: '192.0.2.7 -> 192.0.2.8' },
    ],
    [
      'external IP count',
      () => [copyService(external(), (service) => (service.spec!.externalIPs = ['old.IP.1'])), copyService(external(), (service) => (service.spec!.externalIPs = ['new.IP.1', 'new.IP.2']))],
      { reason: 'ExternalIP', message: 'Count: 1 -> 2' },
    ],
    [
      'external IP replaced (the new one at the first difference)',
      () => [
        copyService(external(), (service) => (service.spec!.externalIPs = ['192.0.2.1', '192.0.2.2'])),
        copyService(external(), (service) => (service.spec!.externalIPs = ['192.0.2.1', '192.0.2.3'])),
      ],
      { reason: 'ExternalIP', message: 'Added: 192.0.2.3' },
    ],
    [
      'UID',
      () => [copyService(external(), (service) => (service.metadata!.uid = 'UID old')), copyService(external(), (service) => (service.metadata!.uid = 'UID new'))],
      { reason: 'UID', message: 'UID old -> UID new' },
    ],
    [
      'externalTrafficPolicy',
      () => [copyService(external(), (service) => (service.spec!.externalTrafficPolicy = 'Cluster')), copyService(external(), (service) => (service.spec!.externalTrafficPolicy = 'Local'))],
      { reason: 'ExternalTrafficPolicy', message: 'Cluster -> Local' },
    ],
    ['healthCheckNodePort', () => [external(), copyService(external(), (service) => (service.spec!.healthCheckNodePort = 30123))], { reason: 'HealthCheckNodePort', message: '0 -> 30123' }],
    [
      'IP families single -> dual stack',
      () => {
        const old = newService('tcp-service', 'LoadBalancer', tweakIpFamilies('IPv4'));
        return [old, copyService(old, tweakIpFamilies('IPv4', 'IPv6'))];
      },
      { reason: 'IPFamilies', message: 'Count: 1 -> 2' },
    ],
    // Updates upstream makes without an event.
    ['ports (no event)', () => [external(), copyService(external(), (service) => (service.spec!.ports![0]!.nodePort = 30001))], undefined],
    ['session affinity (no event)', () => [external(), copyService(external(), (service) => (service.spec!.sessionAffinity = 'ClientIP'))], undefined],
    ['annotations (no event)', () => [external(), copyService(external(), tweakAnnotation('a', 'b'))], undefined],
  ];

  it.each(cases)('%s', (_name, build, event) => {
    const [oldService, newServiceValue] = build();
    const update = describeLoadBalancerUpdate(oldService, newServiceValue);
    expect(update).toBeDefined();
    expect(update?.event).toEqual(event);
  });

  it('records nothing when no update is needed', () => {
    expect(describeLoadBalancerUpdate(external(), copyService(external(), (service) => (service.metadata!.labels = { a: 'b' })))).toBeUndefined();
    expect(describeLoadBalancerUpdate(newService('s', 'ClusterIP'), copyService(newService('s', 'ClusterIP'), (service) => (service.spec!.externalTrafficPolicy = 'Local')))).toBeUndefined();
  });
});
