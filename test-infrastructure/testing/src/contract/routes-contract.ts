import type { Route, Routes } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import type { ContractFixture, ContractInstance, ContractSetup, RoutesContractOptions } from './contract-fixture.js';
import { frozenInput } from './deep-freeze.js';
import { useContractFixture } from './fixture-lifecycle.js';

function routesOf(fixture: ContractFixture): Routes {
  const routes = fixture.provider.routes?.();
  if (routes === undefined) throw new Error(`provider ${fixture.provider.providerName} does not support Routes`);
  return routes;
}

function clusterOf(fixture: ContractFixture): string {
  return fixture.clusterName ?? 'kubernetes';
}

function routeTo(instance: ContractInstance, destinationCidr: string): Route {
  return { name: '', targetNode: instance.nodeName, destinationCidr };
}

/** The routes that reach one of `cidrs`, as (node, cidr, blackhole) triples sorted by CIDR. */
async function listed(fixture: ContractFixture, cidrs: string[]): Promise<Array<{ targetNode: string; destinationCidr: string; blackhole: boolean }>> {
  const routes = await routesOf(fixture).listRoutes(clusterOf(fixture));
  return routes
    .filter((route) => cidrs.includes(route.destinationCidr))
    .map((route) => ({ targetNode: route.targetNode, destinationCidr: route.destinationCidr, blackhole: route.blackhole === true }))
    .sort((left, right) => left.destinationCidr.localeCompare(right.destinationCidr));
}

async function findListed(fixture: ContractFixture, destinationCidr: string): Promise<Route> {
  const route = (await routesOf(fixture).listRoutes(clusterOf(fixture))).find((candidate) => candidate.destinationCidr === destinationCidr);
  if (route === undefined) throw new Error(`no route for ${destinationCidr} is listed`);
  return route;
}

/**
 * Registers the Routes contract (core-checklist §1.5, §2d) for a provider: created routes are
 * listed with their target Node; deleting a listed route removes it and only it; name hints
 * may repeat across CIDRs (dual-stack); inputs are never mutated.
 */
export function describeRoutesContract(name: string, setup: ContractSetup, options: RoutesContractOptions = {}): void {
  const ipv6 = options.ipv6 ?? true;
  const blackholeWhenTargetDeleted = options.blackholeWhenTargetDeleted ?? true;

  describe(`Routes contract: ${name}`, () => {
    const fixture = useContractFixture(setup);
    const cidrs = ['10.244.1.0/24', '10.244.2.0/24', 'fd00:10:244:1::/64'];

    it('is supported and lists no routes for CIDRs it never created', async () => {
      expect(fixture().provider.routes?.()).toBeDefined();
      expect(await listed(fixture(), cidrs)).toEqual([]);
    });

    it('lists a created route with its target node', async () => {
      const instance = await fixture().cloud.createInstance('contract-route-a');
      await routesOf(fixture()).createRoute(clusterOf(fixture()), 'uid-route-a', routeTo(instance, '10.244.1.0/24'));
      expect(await listed(fixture(), cidrs)).toEqual([{ targetNode: instance.nodeName, destinationCidr: '10.244.1.0/24', blackhole: false }]);
    });

    it('deletes exactly the listed route it is given', async () => {
      const first = await fixture().cloud.createInstance('contract-route-b');
      const second = await fixture().cloud.createInstance('contract-route-c');
      const routes = routesOf(fixture());
      await routes.createRoute(clusterOf(fixture()), 'uid-route-b', routeTo(first, '10.244.1.0/24'));
      await routes.createRoute(clusterOf(fixture()), 'uid-route-c', routeTo(second, '10.244.2.0/24'));
      await routes.deleteRoute(clusterOf(fixture()), await findListed(fixture(), '10.244.1.0/24'));
      expect(await listed(fixture(), cidrs)).toEqual([{ targetNode: second.nodeName, destinationCidr: '10.244.2.0/24', blackhole: false }]);
      await routes.deleteRoute(clusterOf(fixture()), await findListed(fixture(), '10.244.2.0/24'));
      expect(await listed(fixture(), cidrs)).toEqual([]);
    });

    if (ipv6) {
      it('creates one route per pod CIDR with the same name hint (dual-stack)', async () => {
        const instance = await fixture().cloud.createInstance('contract-route-dual');
        const routes = routesOf(fixture());
        await routes.createRoute(clusterOf(fixture()), 'uid-dual', routeTo(instance, '10.244.1.0/24'));
        await routes.createRoute(clusterOf(fixture()), 'uid-dual', routeTo(instance, 'fd00:10:244:1::/64'));
        expect(await listed(fixture(), cidrs)).toEqual([
          { targetNode: instance.nodeName, destinationCidr: '10.244.1.0/24', blackhole: false },
          { targetNode: instance.nodeName, destinationCidr: 'fd00:10:244:1::/64', blackhole: false },
        ]);
      });
    }

    if (blackholeWhenTargetDeleted) {
      it('lists a route whose target instance was deleted as a blackhole', async () => {
        const instance = await fixture().cloud.createInstance('contract-route-gone');
        await routesOf(fixture()).createRoute(clusterOf(fixture()), 'uid-gone', routeTo(instance, '10.244.2.0/24'));
        await fixture().cloud.deleteInstance(instance);
        const [route] = await listed(fixture(), cidrs);
        expect(route?.blackhole).toBe(true);
        await routesOf(fixture()).deleteRoute(clusterOf(fixture()), await findListed(fixture(), '10.244.2.0/24'));
        expect(await listed(fixture(), cidrs)).toEqual([]);
      });
    }

    it('never mutates the routes it is given', async () => {
      const instance = await fixture().cloud.createInstance('contract-route-frozen');
      const routes = routesOf(fixture());
      const created = frozenInput(routeTo(instance, '10.244.1.0/24'));
      await routes.createRoute(clusterOf(fixture()), 'uid-frozen', created.input);
      expect(created.input).toEqual(created.original);
      const deleted = frozenInput(await findListed(fixture(), '10.244.1.0/24'));
      await routes.deleteRoute(clusterOf(fixture()), deleted.input);
      expect(deleted.input).toEqual(deleted.original);
      expect(await listed(fixture(), cidrs)).toEqual([]);
    });
  });
}
