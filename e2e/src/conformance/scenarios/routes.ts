import { NETWORK_UNAVAILABLE_MESSAGE_ROUTE_CREATED, NETWORK_UNAVAILABLE_REASON_ROUTE_CREATED } from '@ccm/core/api';
import { describe, expect, it } from 'vitest';
import { findCondition } from '../../harness/node-registration.js';
import { expectToHold } from '../../harness/wait-for.js';
import type { CloudRouteView, InjectedRoute, ProviderDriver } from '../provider-driver.js';
import { SCENARIO_TIMEOUT_MS, useGroupCluster, type GroupContext } from '../scenario-context.js';
import { addInitializedNode } from '../scenario-helpers.js';

/** A few route-reconciliation periods (1 s each in the suite). */
const RECONCILE_PERIODS_MS = 3_000;

let podCidrCounter = 0;
/** A /24 inside the suite's cluster CIDR (10.244.0.0/16) not used before in this run. */
function nextPodCidr(): string {
  podCidrCounter += 1;
  if (podCidrCounter > 200) throw new Error('the suite ran out of pod CIDRs');
  return `10.244.${podCidrCounter}.0/24`;
}

function describeRoutes(routes: readonly CloudRouteView[]): string[] {
  return routes.map((route) => `${route.destinationCidr} -> ${route.targetNodeName}${route.blackhole ? ' (blackhole)' : ''}`);
}

function waitForRoutes(
  context: GroupContext,
  description: string,
  predicate: (routes: CloudRouteView[]) => boolean,
): Promise<CloudRouteView[]> {
  return context.cluster.waitFor(description, async (observe) => {
    const routes = await context.driver.readRoutes();
    observe(describeRoutes(routes));
    return predicate(routes) ? routes : undefined;
  });
}

function hasRoute(routes: readonly CloudRouteView[], destinationCidr: string, targetNodeName?: string): boolean {
  return routes.some(
    (route) => route.destinationCidr === destinationCidr && (targetNodeName === undefined || route.targetNodeName === targetNodeName),
  );
}

/** Route controller: one cloud route per pod CIDR, stale routes removed, NetworkUnavailable. */
export function registerRouteScenarios(driver: ProviderDriver): void {
  describe('routes', { timeout: SCENARIO_TIMEOUT_MS }, () => {
    const context = useGroupCluster(driver);

    it('creates a route per pod CIDR and sets NetworkUnavailable=False with reason RouteCreated', async () => {
      const first = await addInitializedNode(context, 'route', { podCidrs: [nextPodCidr()] });
      const second = await addInitializedNode(context, 'route', { podCidrs: [nextPodCidr()] });
      const expected = [first, second].map(({ node }) => ({ cidr: node.spec?.podCIDR ?? '', name: node.metadata.name ?? '' }));

      await waitForRoutes(context, `routes ${JSON.stringify(expected)} to exist`, (routes) =>
        expected.every(({ cidr, name }) => hasRoute(routes, cidr, name)),
      );
      for (const { name } of expected) {
        const condition = await context.cluster.waitFor(`node ${name} to get NetworkUnavailable=False (RouteCreated)`, async (observe) => {
          const node = await context.cluster.client.getNode(name);
          const networkUnavailable = findCondition(node, 'NetworkUnavailable');
          observe(networkUnavailable);
          return networkUnavailable?.status === 'False' && networkUnavailable.reason === NETWORK_UNAVAILABLE_REASON_ROUTE_CREATED
            ? networkUnavailable
            : undefined;
        });
        expect(condition.message).toBe(NETWORK_UNAVAILABLE_MESSAGE_ROUTE_CREATED);
      }
    });

    it('removes the route of a deleted node', async () => {
      const { node } = await addInitializedNode(context, 'route-gone', { podCidrs: [nextPodCidr()] });
      const name = node.metadata.name ?? '';
      const cidr = node.spec?.podCIDR ?? '';
      await waitForRoutes(context, `route ${cidr} -> ${name} to exist`, (routes) => hasRoute(routes, cidr, name));

      await context.cluster.client.deleteNode(name);
      await waitForRoutes(context, `route ${cidr} of deleted node ${name} to be removed`, (routes) => !hasRoute(routes, cidr));
    });

    const injectRoute = driver.injectRoute?.bind(driver);
    const removeRoute = driver.removeRoute?.bind(driver);
    if (injectRoute !== undefined && removeRoute !== undefined) {
      it('removes a stale route inside the cluster CIDR and leaves a route outside it alone', async () => {
        const stale: InjectedRoute = { destinationCidr: nextPodCidr(), targetNodeName: 'node-of-an-old-cluster' };
        const foreign: InjectedRoute = { destinationCidr: '192.168.251.0/24', targetNodeName: 'node-of-an-old-cluster' };
        await injectRoute(stale);
        await injectRoute(foreign);
        try {
          await waitForRoutes(context, `stale route ${stale.destinationCidr} to be removed`, (routes) => !hasRoute(routes, stale.destinationCidr));
          await expectToHold(
            `route ${foreign.destinationCidr} outside the cluster CIDR to be kept`,
            async (observe) => {
              const routes = await driver.readRoutes();
              observe(describeRoutes(routes));
              return hasRoute(routes, foreign.destinationCidr);
            },
            RECONCILE_PERIODS_MS,
            { abortIf: () => context.cluster.unexpectedExit() },
          );
        } finally {
          await removeRoute(foreign.destinationCidr);
        }
      });
    }

    if (injectRoute !== undefined && removeRoute !== undefined && driver.capabilities.blackholeRoutes === true) {
      it('removes a blackhole route inside the cluster CIDR and keeps one outside it', async () => {
        const inside: InjectedRoute = { destinationCidr: nextPodCidr(), targetNodeName: 'vanished-node', blackhole: true };
        const outside: InjectedRoute = { destinationCidr: '192.168.252.0/24', targetNodeName: 'vanished-node', blackhole: true };
        await injectRoute(inside);
        await injectRoute(outside);
        try {
          await waitForRoutes(context, `blackhole route ${inside.destinationCidr} to be removed`, (routes) => !hasRoute(routes, inside.destinationCidr));
          await expectToHold(
            `blackhole route ${outside.destinationCidr} outside the cluster CIDR to be kept`,
            async (observe) => {
              const routes = await driver.readRoutes();
              observe(describeRoutes(routes));
              return hasRoute(routes, outside.destinationCidr);
            },
            RECONCILE_PERIODS_MS,
            { abortIf: () => context.cluster.unexpectedExit() },
          );
        } finally {
          await removeRoute(outside.destinationCidr);
        }
      });

      it('replaces a blackhole route of a live node with a working one', async () => {
        const { node } = await addInitializedNode(context, 'route-bh', { podCidrs: [nextPodCidr()] });
        const name = node.metadata.name ?? '';
        const cidr = node.spec?.podCIDR ?? '';
        await waitForRoutes(context, `route ${cidr} -> ${name} to exist`, (routes) => hasRoute(routes, cidr, name));
        // The cloud turns the route into a blackhole (as when an instance is replaced).
        await removeRoute(cidr);
        await injectRoute({ destinationCidr: cidr, targetNodeName: name, blackhole: true });
        await waitForRoutes(context, `route ${cidr} -> ${name} to be working again`, (routes) =>
          routes.some((route) => route.destinationCidr === cidr && route.targetNodeName === name && route.blackhole !== true),
        );
      });
    }

    it('leaves no cloud resources behind once its nodes are gone', async () => {
      for (const node of await context.cluster.client.listNodes()) await context.cluster.client.deleteNode(node.metadata.name ?? '');
      await context.cluster.waitFor(`${driver.name} to report no leaked cloud resources`, async (observe) => {
        const leaked = await driver.leakedResources();
        observe(leaked);
        return leaked.length === 0;
      });
    });
  });
}
