/**
 * Listeners, pools, members and health monitors of an existing load balancer brought to the spec
 * (upstream `ensureOctaviaListener`, `ensureOctaviaPool`, `ensureOctaviaHealthMonitor`): every
 * change is a diff of what Octavia has, members change in one batch update per pool, and each
 * change waits for the load balancer to be ACTIVE.
 */
import type { V1Node } from '@kubernetes/client-node';
import { asOpenStackApiError } from '../../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { OctaviaListener, OctaviaPool } from '../../ports/octavia-port.js';
import { changeLoadBalancer, ignoringNotFound, type LoadBalancerContext } from './load-balancer-context.js';
import { desiredMembers, membersDiffer, planHealthMonitor, planListeners, planPool, planSerialMembers } from './load-balancer-planners.js';
import type { LoadBalancerSpec, PortPlan } from './load-balancer-spec.js';

export interface ChildrenScope {
  /** False for a node change (upstream `UpdateLoadBalancer`): pools, members and monitors only. */
  listeners: boolean;
}

function poolOfListener(pools: readonly OctaviaPool[], listener: OctaviaListener): OctaviaPool | undefined {
  return pools.find((pool) => pool.id === listener.defaultPoolId) ?? pools.find((pool) => pool.listenerIds.includes(listener.id));
}

export async function reconcileChildren(context: LoadBalancerContext, spec: LoadBalancerSpec, loadBalancerId: string, nodes: readonly V1Node[], scope: ChildrenScope, options?: CallOptions): Promise<void> {
  const { octavia } = context;
  const change = <T>(run: () => Promise<T>): Promise<T> => changeLoadBalancer(context, loadBalancerId, run, options);
  const plan = planListeners(spec.ports, await octavia.listListeners(loadBalancerId, options), spec.name);
  let pools = await octavia.listPools(loadBalancerId, options);
  if (scope.listeners) {
    for (const listener of plan.delete) {
      const pool = poolOfListener(pools, listener);
      context.logger.info('deleting listener of a port the Service no longer has', { loadBalancer: spec.name, listener: listener.name, port: listener.port });
      if (pool !== undefined) await change(() => ignoringNotFound(() => octavia.deletePool(pool.id, options)));
      await change(() => ignoringNotFound(() => octavia.deleteListener(listener.id, options)));
    }
    for (const update of plan.update) {
      await change(() => octavia.updateListener(update.id, update.settings, options));
    }
    for (const port of plan.create) {
      const created = await change(() => octavia.createListener(loadBalancerId, port.listener, options));
      plan.matched.set(port.index, created);
    }
    if (plan.delete.length > 0) pools = await octavia.listPools(loadBalancerId, options);
  }
  for (const port of spec.ports) {
    const listener = plan.matched.get(port.index);
    if (listener === undefined) continue;
    await reconcilePool(context, spec, loadBalancerId, port, listener, poolOfListener(pools, listener), nodes, options);
  }
}

async function reconcilePool(
  context: LoadBalancerContext,
  spec: LoadBalancerSpec,
  loadBalancerId: string,
  port: PortPlan,
  listener: OctaviaListener,
  observed: OctaviaPool | undefined,
  nodes: readonly V1Node[],
  options?: CallOptions,
): Promise<void> {
  const { octavia, logger } = context;
  const change = <T>(run: () => Promise<T>): Promise<T> => changeLoadBalancer(context, loadBalancerId, run, options);
  const action = planPool(port.pool, observed);
  let pool = observed;
  if (action.kind === 'recreate') {
    logger.info('recreating pool (protocol or session persistence changed)', { loadBalancer: spec.name, pool: port.pool.name });
    await change(() => ignoringNotFound(() => octavia.deletePool(action.id, options)));
    pool = undefined;
  }
  if (action.kind === 'updateMethod' && pool !== undefined) {
    const current = pool;
    try {
      await change(() => octavia.updatePoolMethod(current.id, port.pool.method, options));
    } catch (error) {
      // The amphora provider answers 501 to an OVN-only method (SOURCE_IP_PORT): upstream's
      // `LoadBalancerLbMethodUnknown` warning; the pool keeps its method.
      if (asOpenStackApiError(error)?.httpStatus !== 501) throw error;
      logger.warn('the load balancer provider does not support this lb-method; the pool keeps its method', { loadBalancer: spec.name, pool: current.name, method: port.pool.method, error: String(error) });
    }
  }
  const created = pool === undefined;
  if (pool === undefined) pool = await change(() => octavia.createPool(listener.id, port.pool, options));
  const current = pool;
  const members = desiredMembers(nodes, port, spec.memberSubnetId, spec.healthCheckNodePort);
  const observedMembers = created ? [] : await octavia.listMembers(current.id, options);
  if (context.settings.serialApiCalls) {
    const plan = planSerialMembers(members, observedMembers);
    for (const member of plan.delete) {
      const memberId = member.id;
      if (memberId !== undefined) await change(() => ignoringNotFound(() => octavia.deleteMember(current.id, memberId, options)));
    }
    for (const member of plan.create) await change(() => octavia.createMember(current.id, member, options));
  } else if (membersDiffer(members, observedMembers)) {
    logger.verbose(2, 'updating pool members', { loadBalancer: spec.name, pool: current.name, members: members.length });
    await change(() => octavia.replaceMembers(current.id, members, options));
  }
  const monitor = current.healthMonitorId === undefined ? undefined : await octavia.getHealthMonitor(current.healthMonitorId, options);
  const monitorAction = planHealthMonitor(port.healthMonitor, monitor);
  switch (monitorAction.kind) {
    case 'none':
      return;
    case 'delete':
      await change(() => ignoringNotFound(() => octavia.deleteHealthMonitor(monitorAction.id, options)));
      return;
    case 'recreate':
      await change(() => ignoringNotFound(() => octavia.deleteHealthMonitor(monitorAction.id, options)));
      await change(() => octavia.createHealthMonitor(current.id, monitorAction.spec, options));
      return;
    case 'create':
      await change(() => octavia.createHealthMonitor(current.id, monitorAction.spec, options));
      return;
    case 'update':
      await change(() => octavia.updateHealthMonitor(monitorAction.id, monitorAction.spec, options));
      return;
  }
}
