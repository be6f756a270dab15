import { describe, expect, it } from 'vitest';
import type { Route } from '../../provider/routes.js';
import { parseCidr } from '../../net/cidr.js';
import { equalNodeAddresses, getRouteAction, isResponsibleForRoute, planRoutes, routesCreatedForNode, type RoutePlanNode } from './plan-routes.js';

const internal = (address: string) => ({ type: 'InternalIP' as const, address });
const node = (name: string, uid: string, podCidrs: string[], address: string): RoutePlanNode => ({ name, uid, podCidrs, addresses: [internal(address)] });
const route = (name: string, targetNode: string, destinationCidr: string, extra: Partial<Route> = {}): Route => ({ name, targetNode, destinationCidr, ...extra });
const cidrs = (...values: string[]) => values.map((value) => parseCidr(value));

describe('TestIsResponsibleForRoute', () => {
  it.each([
    // Routes that belong to this cluster
    ['10.244.0.0/16', '10.244.0.0/24', true],
    ['10.244.0.0/16', '10.244.10.0/24', true],
    ['10.244.0.0/16', '10.244.255.0/24', true],
    ['10.244.0.0/14', '10.244.0.0/24', true],
    ['10.244.0.0/14', '10.247.255.0/24', true],
    ['a00:100::/10', 'a00:100::/24', true],
    // Routes matching our naming scheme but outside the cluster CIDR
    ['10.244.0.0/16', '10.224.0.0/24', false],
    ['10.244.0.0/16', '10.0.10.0/24', false],
    ['10.244.0.0/16', '10.255.255.0/24', false],
    ['10.244.0.0/14', '10.248.0.0/24', false],
    ['10.244.0.0/14', '10.243.255.0/24', false],
    ['a00:100::/10', 'b00:100::/24', false],
  ])('cluster %s, route %s -> %s', (clusterCidr, routeCidr, responsible) => {
    const candidate = route('my-awesome-cluster-12345678-90ab-cdef-1234-567890abcdef', 'doesnt-matter-for-this-test', routeCidr);
    expect(isResponsibleForRoute(candidate, cidrs(clusterCidr))).toBe(responsible);
  });

  it('a route larger than the cluster CIDR is ours when its last address is inside (first-or-last check)', () => {
    expect(isResponsibleForRoute(route('r', 'n', '10.244.0.0/15'), cidrs('10.245.0.0/16'))).toBe(true);
    expect(isResponsibleForRoute(route('r', 'n', '10.240.0.0/15'), cidrs('10.244.0.0/16'))).toBe(false);
  });

  it('checks every cluster CIDR (dual-stack) and ignores unparsable routes', () => {
    const dual = cidrs('10.120.0.0/16', 'a00::/8');
    expect(isResponsibleForRoute(route('r', 'n', 'a00:200::/24'), dual)).toBe(true);
    expect(isResponsibleForRoute(route('r', 'n', 'not-a-cidr'), dual)).toBe(false);
  });
});

describe('getRouteAction / equalNodeAddresses', () => {
  it('keeps a route without node addresses support, updates when addresses differ, adds when missing', () => {
    const addresses = [internal('10.0.1.1')];
    expect(getRouteAction([route('r', 'n', '10.120.0.0/24', { targetNodeAddresses: [internal('9.9.9.9')] })], '10.120.0.0/24', addresses)).toBe('keep');
    expect(getRouteAction([route('r', 'n', '10.120.0.0/24', { enableNodeAddresses: true, targetNodeAddresses: [internal('9.9.9.9')] })], '10.120.0.0/24', addresses)).toBe('update');
    expect(getRouteAction([route('r', 'n', '10.120.0.0/24', { enableNodeAddresses: true, targetNodeAddresses: addresses })], '10.120.0.0/24', addresses)).toBe('keep');
    expect(getRouteAction([], '10.120.0.0/24', addresses)).toBe('add');
  });

  it('compares addresses set-wise', () => {
    const a = [internal('10.0.0.1'), { type: 'Hostname' as const, address: 'n1' }];
    expect(equalNodeAddresses(a, [...a].reverse())).toBe(true);
    expect(equalNodeAddresses(a, [internal('10.0.0.1')])).toBe(false);
    expect(equalNodeAddresses([internal('10.0.0.1')], [{ type: 'ExternalIP', address: '10.0.0.1' }])).toBe(false);
  });
});

describe('planRoutes', () => {
  const single = cidrs('10.120.0.0/16');
  const node1 = node('node-1', '01', ['10.120.0.0/24'], '10.0.1.1');
  const node2 = node('node-2', '02', ['10.120.1.0/24'], '10.0.2.1');

  it('creates one route per missing pod CIDR with the node UID as name hint and the node addresses', () => {
    const plan = planRoutes([node1, node2], [route('r1', 'node-1', '10.120.0.0/24')], single);
    expect(plan.deletions).toEqual([]);
    expect(plan.creations).toEqual([
      { nodeName: 'node-2', nameHint: '02', action: 'add', route: { name: '', targetNode: 'node-2', targetNodeAddresses: [internal('10.0.2.1')], destinationCidr: '10.120.1.0/24' } },
    ]);
    expect(plan.deleteBeforeCreate).toBe(false);
  });

  it('creates a route per CIDR of a dual-stack node', () => {
    const plan = planRoutes([node('node-3', '03', ['10.120.0.0/24', 'a00:100::/24'], '10.0.3.1')], [], cidrs('10.120.0.0/16', 'a00::/8'));
    expect(plan.creations.map((creation) => [creation.nameHint, creation.route.destinationCidr])).toEqual([
      ['03', '10.120.0.0/24'],
      ['03', 'a00:100::/24'],
    ]);
  });

  it('gives nodes without a pod CIDR no route and no actions', () => {
    const plan = planRoutes([node1, node('node-2', '02', [], '10.0.5.1')], [], single);
    expect(plan.creations.map((creation) => creation.nodeName)).toEqual(['node-1']);
    expect(plan.actions.has('node-2')).toBe(false);
    expect(routesCreatedForNode(plan.actions.get('node-2'))).toBeUndefined();
  });

  it('deletes unused and blackhole routes inside the cluster CIDR, keeps everything outside', () => {
    const routes = [
      route('keep', 'node-1', '10.120.0.0/24'),
      route('unknown-node', 'node-x', '10.120.2.0/24'),
      route('blackhole-in', '', '10.120.9.0/24', { blackhole: true }),
      route('blackhole-out', '', '10.1.2.0/24', { blackhole: true }),
      route('foreign', 'node-y', '192.168.0.0/24'),
      route('broken', 'node-1', 'garbage'),
    ];
    const plan = planRoutes([node1], routes, single);
    expect(plan.deletions.map((deletion) => [deletion.route.name, deletion.reason])).toEqual([
      ['unknown-node', 'unused'],
      ['blackhole-in', 'blackhole'],
    ]);
    expect(plan.unparsableRoutes.map((unparsable) => unparsable.name)).toEqual(['broken']);
  });

  it('turns an address change into delete-then-create when the provider reports addresses', () => {
    const routes = [route('r1', 'node-1', '10.120.0.0/24', { enableNodeAddresses: true, targetNodeAddresses: [internal('10.0.1.2')] })];
    const plan = planRoutes([node1], routes, single);
    expect(plan.deletions).toEqual([{ route: routes[0], reason: 'update' }]);
    expect(plan.creations.map((creation) => creation.action)).toEqual(['update']);
    expect(plan.deleteBeforeCreate).toBe(true);
  });

  it('deletes a route of a node that lost its pod CIDR and reports NetworkUnavailable for it', () => {
    const plan = planRoutes([node('node-1', '01', [], '10.0.1.1')], [route('r1', 'node-1', '10.120.0.0/24')], single);
    expect(plan.deletions.map((deletion) => deletion.route.name)).toEqual(['r1']);
    expect(routesCreatedForNode(plan.actions.get('node-1'))).toBe(false);
  });

  it('duplicate pod CIDR: one action, two creates (as upstream)', () => {
    const plan = planRoutes([node('node-4', '04', ['10.120.1.0/24', '10.120.1.0/24'], '10.0.4.1')], [], single);
    expect(plan.actions.get('node-4')).toEqual(new Map([['10.120.1.0/24', 'add']]));
    expect(plan.creations).toHaveLength(2);
  });

  it('routesCreatedForNode: all keep -> true, any add/update -> false', () => {
    expect(routesCreatedForNode(new Map([['a', 'keep']]))).toBe(true);
    expect(routesCreatedForNode(new Map([['a', 'keep'], ['b', 'add']]))).toBe(false);
    expect(routesCreatedForNode(new Map([['a', 'update']]))).toBe(false);
    expect(routesCreatedForNode(new Map())).toBe(false);
  });
});
