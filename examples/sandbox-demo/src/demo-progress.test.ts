import { makeNode, makeService } from '@ccm/testing';
import { describe, expect, it } from 'vitest';
import { describeDemoProgress } from './demo-progress.js';

const initialized = (name: string, cidr: string) =>
  makeNode(name, { providerId: `sandbox://i-${name}`, podCidrs: [cidr], labels: { 'topology.kubernetes.io/zone': 'sandbox-1a', 'node.kubernetes.io/instance-type': 'm1.small' } });

describe('describeDemoProgress', () => {
  it('is not ready while a node is tainted, the ingress is pending or routes are missing', () => {
    const waiting = describeDemoProgress(
      { nodes: [makeNode('n1', { uninitialized: true, podCidrs: ['10.244.1.0/24'] })], service: makeService('web'), routes: [], loadBalancerBackends: undefined },
      1,
    );
    expect(waiting.ready).toBe(false);
    expect(waiting.lines.get('node/n1')).toBe('node n1: waiting    providerID=- zone=- type=- addresses=Hostname=n1');
    expect(waiting.lines.get('service')).toBe('service default/web: ingress=pending backends=-');
    expect(waiting.lines.get('routes')).toBe('routes: 0/1');

    const noRoute = describeDemoProgress(
      { nodes: [initialized('n1', '10.244.1.0/24')], service: makeService('web', { ingress: [{ ip: '203.0.113.2' }] }), routes: [], loadBalancerBackends: 1 },
      1,
    );
    expect(noRoute.ready).toBe(false);
    const blackholed = describeDemoProgress(
      {
        nodes: [initialized('n1', '10.244.1.0/24')],
        service: makeService('web', { ingress: [{ ip: '203.0.113.2' }] }),
        routes: [{ destinationCidr: '10.244.1.0/24', targetNodeName: 'n1', blackhole: true }],
        loadBalancerBackends: 1,
      },
      1,
    );
    expect(blackholed.ready).toBe(false);
  });

  it('is ready when every node is initialized, the service has an ingress and every pod CIDR a route', () => {
    const progress = describeDemoProgress(
      {
        nodes: [initialized('n2', '10.244.2.0/24'), initialized('n1', '10.244.1.0/24')],
        service: makeService('web', { ingress: [{ ip: '203.0.113.2' }] }),
        routes: [
          { destinationCidr: '10.244.2.0/24', targetNodeName: 'n2', blackhole: false },
          { destinationCidr: '10.244.1.0/24', targetNodeName: 'n1', blackhole: false },
        ],
        loadBalancerBackends: 2,
      },
      2,
    );
    expect(progress.ready).toBe(true);
    expect([...progress.lines.keys()]).toEqual(['node/n1', 'node/n2', 'service', 'routes']);
    expect(progress.lines.get('node/n1')).toBe('node n1: initialized providerID=sandbox://i-n1 zone=sandbox-1a type=m1.small addresses=Hostname=n1');
    expect(progress.lines.get('service')).toBe('service default/web: ingress=203.0.113.2 backends=2');
    expect(progress.lines.get('routes')).toBe('routes: 2/2 10.244.1.0/24->n1 10.244.2.0/24->n2');
    expect(describeDemoProgress({ nodes: [initialized('n1', '10.244.1.0/24')], service: undefined, routes: [], loadBalancerBackends: undefined }, 2).ready).toBe(false);
  });
});
