import type { LoadBalancer, LoadBalancerStatus } from '@ccm/core/provider';
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { makeNode } from '../builders/make-node.js';
import { makeService } from '../builders/make-service.js';
import type { ContractFixture, ContractSetup, LoadBalancerContractOptions } from './contract-fixture.js';
import { frozenInput } from './deep-freeze.js';
import { useContractFixture } from './fixture-lifecycle.js';

function loadBalancerOf(fixture: ContractFixture): LoadBalancer {
  const loadBalancer = fixture.provider.loadBalancer?.();
  if (loadBalancer === undefined) throw new Error(`provider ${fixture.provider.providerName} does not support LoadBalancer`);
  return loadBalancer;
}

function clusterOf(fixture: ContractFixture): string {
  return fixture.clusterName ?? 'kubernetes';
}

async function createNodes(fixture: ContractFixture, prefix: string, count: number): Promise<V1Node[]> {
  const nodes: V1Node[] = [];
  for (let index = 0; index < count; index++) {
    const instance = await fixture.cloud.createInstance(`${prefix}-${index}`);
    nodes.push(makeNode(instance.nodeName, { providerId: instance.providerId }));
  }
  return nodes;
}

function contractService(name: string, uid: string): V1Service {
  return makeService(name, { uid, ports: [{ name: 'http', port: 80, targetPort: 8080, nodePort: 30080 }] });
}

function expectIngress(status: LoadBalancerStatus): void {
  expect(status.ingress?.length ?? 0).toBeGreaterThan(0);
  for (const ingress of status.ingress ?? []) expect(Boolean(ingress.ip) || Boolean(ingress.hostname)).toBe(true);
}

const names = (nodes: V1Node[]): string[] => nodes.map((node) => node.metadata!.name!).sort();

/**
 * Registers the LoadBalancer contract (core-checklist §1.2, §2c) for a provider: get before
 * ensure says "does not exist"; ensure returns an ingress and is idempotent; update changes
 * the backends only; ensureLoadBalancerDeleted is idempotent and succeeds when nothing exists;
 * inputs are never mutated.
 */
export function describeLoadBalancerContract(name: string, setup: ContractSetup, options: LoadBalancerContractOptions = {}): void {
  describe(`LoadBalancer contract: ${name}`, () => {
    const fixture = useContractFixture(setup);

    it('is supported and names load balancers deterministically per service', () => {
      const loadBalancer = loadBalancerOf(fixture());
      const first = contractService('web', 'c0ffee01-0c0c-4000-8000-0c0c0c0c0c0c');
      const second = options.namesDifferByUid === false ? contractService('web-2', 'c0ffee02-0c0c-4000-8000-0c0c0c0c0c0c') : contractService('web', 'c0ffee02-0c0c-4000-8000-0c0c0c0c0c0c');
      const nameOfFirst = loadBalancer.getLoadBalancerName(clusterOf(fixture()), first);
      expect(nameOfFirst).not.toBe('');
      expect(loadBalancer.getLoadBalancerName(clusterOf(fixture()), structuredClone(first))).toBe(nameOfFirst);
      expect(loadBalancer.getLoadBalancerName(clusterOf(fixture()), second)).not.toBe(nameOfFirst);
    });

    it('reports no load balancer before ensure', async () => {
      const result = await loadBalancerOf(fixture()).getLoadBalancer(clusterOf(fixture()), contractService('nothing', 'c0ffee10-0c0c-4000-8000-0c0c0c0c0c0c'));
      expect(result.exists).toBe(false);
    });

    it('ensures a load balancer with an ingress that get then reports', async () => {
      const nodes = await createNodes(fixture(), 'contract-lb-ensure', 2);
      const service = contractService('web', 'c0ffee20-0c0c-4000-8000-0c0c0c0c0c0c');
      const loadBalancer = loadBalancerOf(fixture());
      const status = await loadBalancer.ensureLoadBalancer(clusterOf(fixture()), service, nodes);
      expectIngress(status);
      const got = await loadBalancer.getLoadBalancer(clusterOf(fixture()), service);
      expect(got.exists).toBe(true);
      expect(got.status?.ingress).toEqual(status.ingress);
      const view = await fixture().readLoadBalancer?.(service);
      if (fixture().readLoadBalancer !== undefined) expect(view).toEqual({ backendNodeNames: names(nodes), ports: [80] });
    });

    it('is idempotent: ensuring twice gives the same status and cloud state', async () => {
      const nodes = await createNodes(fixture(), 'contract-lb-twice', 2);
      const service = contractService('twice', 'c0ffee30-0c0c-4000-8000-0c0c0c0c0c0c');
      const loadBalancer = loadBalancerOf(fixture());
      const first = await loadBalancer.ensureLoadBalancer(clusterOf(fixture()), service, nodes);
      const viewAfterFirst = await fixture().readLoadBalancer?.(service);
      const second = await loadBalancer.ensureLoadBalancer(clusterOf(fixture()), service, nodes);
      expect(second).toEqual(first);
      expect(await fixture().readLoadBalancer?.(service)).toEqual(viewAfterFirst);
    });

    it('ensures a load balancer with no nodes', async () => {
      const service = contractService('empty', 'c0ffee40-0c0c-4000-8000-0c0c0c0c0c0c');
      expectIngress(await loadBalancerOf(fixture()).ensureLoadBalancer(clusterOf(fixture()), service, []));
      if (fixture().readLoadBalancer !== undefined) expect((await fixture().readLoadBalancer!(service))?.backendNodeNames).toEqual([]);
    });

    it('update changes the backends only', async () => {
      const nodes = await createNodes(fixture(), 'contract-lb-update', 3);
      const service = contractService('update', 'c0ffee50-0c0c-4000-8000-0c0c0c0c0c0c');
      const loadBalancer = loadBalancerOf(fixture());
      const status = await loadBalancer.ensureLoadBalancer(clusterOf(fixture()), service, nodes.slice(0, 1));
      const changedPorts = makeService('update', { uid: service.metadata!.uid!, ports: [{ name: 'other', port: 8443, targetPort: 8443, nodePort: 30443 }] });
      await loadBalancer.updateLoadBalancer(clusterOf(fixture()), changedPorts, nodes);
      const got = await loadBalancer.getLoadBalancer(clusterOf(fixture()), service);
      expect(got.exists).toBe(true);
      expect(got.status?.ingress).toEqual(status.ingress);
      if (fixture().readLoadBalancer !== undefined) {
        expect(await fixture().readLoadBalancer!(service)).toEqual({ backendNodeNames: names(nodes), ports: [80] });
        await loadBalancer.updateLoadBalancer(clusterOf(fixture()), service, nodes.slice(1));
        expect((await fixture().readLoadBalancer!(service))?.backendNodeNames).toEqual(names(nodes.slice(1)));
      }
    });

    it('deletes idempotently, also when nothing was ever created', async () => {
      const nodes = await createNodes(fixture(), 'contract-lb-delete', 1);
      const service = contractService('delete', 'c0ffee60-0c0c-4000-8000-0c0c0c0c0c0c');
      const loadBalancer = loadBalancerOf(fixture());
      await loadBalancer.ensureLoadBalancer(clusterOf(fixture()), service, nodes);
      await loadBalancer.ensureLoadBalancerDeleted(clusterOf(fixture()), service);
      expect((await loadBalancer.getLoadBalancer(clusterOf(fixture()), service)).exists).toBe(false);
      if (fixture().readLoadBalancer !== undefined) expect(await fixture().readLoadBalancer!(service)).toBeUndefined();
      await expect(loadBalancer.ensureLoadBalancerDeleted(clusterOf(fixture()), service)).resolves.toBeUndefined();
      const never = contractService('never', 'c0ffee61-0c0c-4000-8000-0c0c0c0c0c0c');
      await expect(loadBalancer.ensureLoadBalancerDeleted(clusterOf(fixture()), never)).resolves.toBeUndefined();
    });

    it('never mutates the Service or the Nodes it is given', async () => {
      const nodes = await createNodes(fixture(), 'contract-lb-frozen', 2);
      const service = frozenInput(contractService('frozen', 'c0ffee70-0c0c-4000-8000-0c0c0c0c0c0c'));
      const frozenNodes = frozenInput(nodes);
      const loadBalancer = loadBalancerOf(fixture());
      const cluster = clusterOf(fixture());
      loadBalancer.getLoadBalancerName(cluster, service.input);
      await loadBalancer.getLoadBalancer(cluster, service.input);
      await loadBalancer.ensureLoadBalancer(cluster, service.input, frozenNodes.input);
      await loadBalancer.ensureLoadBalancer(cluster, service.input, frozenNodes.input);
      await loadBalancer.updateLoadBalancer(cluster, service.input, frozenNodes.input.slice(0, 1));
      await loadBalancer.getLoadBalancer(cluster, service.input);
      await loadBalancer.ensureLoadBalancerDeleted(cluster, service.input);
      expect(service.input).toEqual(service.original);
      expect(frozenNodes.input).toEqual(frozenNodes.original);
    });
  });
}
