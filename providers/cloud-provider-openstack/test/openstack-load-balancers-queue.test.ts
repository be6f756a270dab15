import type { V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { OpenStackLoadBalancers } from '../src/openstack-load-balancers.js';
import type { OctaviaLoadBalancerOperations } from '../src/operations/load-balancer/octavia-load-balancers.js';

const service = (name: string): V1Service => ({ metadata: { name, namespace: 'default', uid: `uid-${name}` } });

/** Operations whose calls end only when the test lets them; records start and end of each call. */
function gatedOperations() {
  const events: string[] = [];
  const gates = new Map<string, () => void>();
  const call = (label: string, fail = false) =>
    new Promise<never>((resolve, reject) => {
      events.push(`start ${label}`);
      gates.set(label, () => {
        events.push(`end ${label}`);
        if (fail) reject(new Error(`${label} failed`));
        else resolve(undefined as never);
      });
    });
  const operations = {
    name: (_clusterName: string, target: V1Service) => `kube_service_c_default_${target.metadata?.name}`,
    ensure: (_clusterName: string, target: V1Service) => call(`ensure ${target.metadata?.name}`).then(() => ({ ingress: [] })),
    update: (_clusterName: string, target: V1Service) => call(`update ${target.metadata?.name}`, target.metadata?.name === 'failing'),
    delete: (_clusterName: string, target: V1Service) => call(`delete ${target.metadata?.name}`),
  } as unknown as OctaviaLoadBalancerOperations;
  const release = async (label: string): Promise<void> => {
    for (let attempt = 0; attempt < 100 && !gates.has(label); attempt++) await new Promise((resolve) => setImmediate(resolve));
    const gate = gates.get(label);
    if (gate === undefined) throw new Error(`${label} never started; events: ${events.join(', ')}`);
    gates.delete(label);
    gate();
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { operations, events, release, settle };
}

describe('OpenStack load balancers: changes of one Service run one after another', () => {
  it('starts a delete only after the update of the same Service has ended', async () => {
    const { operations, events, release, settle } = gatedOperations();
    const loadBalancers = new OpenStackLoadBalancers(operations);
    const update = loadBalancers.updateLoadBalancer('c', service('web'), []);
    const deletion = loadBalancers.ensureLoadBalancerDeleted('c', service('web'));
    await settle();
    expect(events).toEqual(['start update web']);
    await release('update web');
    await update;
    await release('delete web');
    await deletion;
    expect(events).toEqual(['start update web', 'end update web', 'start delete web', 'end delete web']);
  });

  it('runs the next change after a failed one, and returns each call its own outcome', async () => {
    const { operations, events, release } = gatedOperations();
    const loadBalancers = new OpenStackLoadBalancers(operations);
    const update = loadBalancers.updateLoadBalancer('c', service('failing'), []);
    const deletion = loadBalancers.ensureLoadBalancerDeleted('c', service('failing'));
    await release('update failing');
    await expect(update).rejects.toThrow('update failing failed');
    await release('delete failing');
    await expect(deletion).resolves.toBeUndefined();
    expect(events).toEqual(['start update failing', 'end update failing', 'start delete failing', 'end delete failing']);
  });

  it('lets changes of different Services run side by side', async () => {
    const { operations, events, release, settle } = gatedOperations();
    const loadBalancers = new OpenStackLoadBalancers(operations);
    const first = loadBalancers.ensureLoadBalancer('c', service('a'), []);
    const second = loadBalancers.ensureLoadBalancer('c', service('b'), []);
    await settle();
    expect(events).toEqual(['start ensure a', 'start ensure b']);
    await release('ensure b');
    await release('ensure a');
    await Promise.all([first, second]);
  });
});
