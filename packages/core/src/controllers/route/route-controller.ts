/**
 * The route controller, upstream `controllers/route/route_controller.go`: one cloud route per pod
 * CIDR of every node, and the node's NetworkUnavailable condition.
 *
 * Reconciles every `--route-reconciliation-period` (from the start of each run) and early on
 * node add/delete, pod CIDR or address changes (at most once per 10 s, as the watch-based gate).
 * Each reconcile lists the cloud's routes, plans with {@link planRoutes}, runs deletes and creates
 * at most 200 at a time, then patches NetworkUnavailable per node.
 */
import type { V1Node } from '@kubernetes/client-node';
import { errorMessage } from '../../util/error-message.js';
import type { Controller, ControllerConstructor, ControllerContext } from '../controller.js';
import { isKubeConflict } from '../../kube/kube-api-error.js';
import type { EventRecorder, NodeApi, SharedInformer } from '../../kube/ports.js';
import type { Logger } from '../../logging/logger.js';
import { NODE_ROUTE_CONTROLLER } from '../../names/controller-names.js';
import type { NodeAddress } from '../../provider/node-address.js';
import type { Routes } from '../../provider/routes.js';
import { formatGoDuration } from '../../util/go-duration.js';
import { Semaphore } from '../service/parallelize.js';
import { formatCidr, parseCidr, type Cidr } from '../../net/cidr.js';
import { networkConditionPatch, networkConditionUpToDate } from './network-condition.js';
import { planRoutes, routesCreatedForNode, type PlannedRouteCreation, type RoutePlanNode } from './plan-routes.js';
import { ReconcileScheduler } from './reconcile-scheduler.js';
import { registerRouteControllerMetrics, type RouteControllerMetrics } from './route-metrics.js';
import { shouldReconcileOnNodeUpdate } from './route-node-events.js';

/** Maximal number of route API calls in flight (upstream `maxConcurrentRouteOperations`). */
export const MAX_CONCURRENT_ROUTE_OPERATIONS = 200;
/** Event source component; upstream spells it with an underscore. */
export const ROUTE_CONTROLLER_EVENT_COMPONENT = 'route_controller';
/** At most one event-triggered reconcile per this interval (the watch-based gate's bucket). */
export const ROUTE_EVENT_MIN_INTERVAL_MS = 10_000;

/** Retry on API conflicts: 5 steps, 100 ms, jitter 1 (upstream `updateNetworkConditionBackoff`). */
async function retryOnConflict<T>(operation: () => Promise<T>, sleep: (ms: number) => Promise<void>): Promise<T> {
  const steps = 5;
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!isKubeConflict(error) || attempt >= steps) throw error;
      await sleep(100 * (1 + Math.random()));
    }
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface RouteControllerOptions {
  routes: Routes;
  clusterName: string;
  /** Parsed cluster CIDRs (one per family); at least one. */
  clusterCidrs: readonly Cidr[];
  nodes: NodeApi;
  nodeInformer: SharedInformer<V1Node>;
  recorder: EventRecorder;
  metrics: RouteControllerMetrics;
  logger: Logger;
  reconciliationPeriodMs: number;
  /** Clock for condition timestamps (tests). */
  now?: () => Date;
}

function toPlanNode(node: V1Node): RoutePlanNode {
  return {
    name: node.metadata?.name ?? '',
    uid: node.metadata?.uid ?? '',
    podCidrs: node.spec?.podCIDRs ?? [],
    addresses: (node.status?.addresses ?? []).map((address) => ({ type: address.type as NodeAddress['type'], address: address.address })),
  };
}

export class RouteController implements Controller {
  readonly name = NODE_ROUTE_CONTROLLER;
  readonly scheduler: ReconcileScheduler;
  readonly #options: RouteControllerOptions;
  readonly #logger: Logger;
  readonly #now: () => Date;
  #stopSignal: AbortSignal | undefined;

  constructor(options: RouteControllerOptions) {
    if (options.clusterCidrs.length === 0) throw new Error('RouteController: Must specify clusterCIDR.');
    this.#options = options;
    this.#logger = options.logger;
    this.#now = options.now ?? (() => new Date());
    this.scheduler = new ReconcileScheduler({
      periodMs: options.reconciliationPeriodMs,
      minRequestIntervalMs: Math.min(ROUTE_EVENT_MIN_INTERVAL_MS, options.reconciliationPeriodMs),
      run: async () => {
        try {
          await this.reconcileNodeRoutes();
        } catch (error) {
          this.#logger.error("Couldn't reconcile node routes", { error: errorMessage(error) });
        }
      },
    });
    options.nodeInformer.addHandlers({
      onAdd: () => this.scheduler.request(),
      onUpdate: (oldNode, newNode) => {
        if (shouldReconcileOnNodeUpdate(oldNode, newNode)) this.scheduler.request();
      },
      onDelete: () => this.scheduler.request(),
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    this.#stopSignal = signal;
    this.#logger.info('Starting route controller');
    try {
      await this.#options.nodeInformer.waitForSync(signal);
      await this.scheduler.loop(signal);
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      this.#logger.info('Shutting down route controller');
    }
  }

  /** Lists the cloud's routes and the nodes, then reconciles. Listing failures are the only errors. */
  async reconcileNodeRoutes(): Promise<void> {
    this.#options.metrics.routeSyncCount.inc();
    let routes;
    try {
      routes = await this.#options.routes.listRoutes(this.#options.clusterName, this.#callOptions());
    } catch (error) {
      throw new Error(`error listing routes: ${errorMessage(error)}`, { cause: error });
    }
    await this.reconcile(this.#options.nodeInformer.store.list(), routes);
  }

  /** Applies the plan; never throws for individual route or condition failures (they are logged). */
  async reconcile(nodes: readonly V1Node[], routes: Awaited<ReturnType<Routes['listRoutes']>>): Promise<void> {
    const { clusterCidrs, clusterName, routes: cloudRoutes } = this.#options;
    const plan = planRoutes(nodes.map(toPlanNode), routes, clusterCidrs);
    for (const route of plan.unparsableRoutes) this.#logger.error('Ignoring route, unparsable CIDR', { route: route.name, cidr: route.destinationCidr });
    for (const [nodeName, actions] of plan.actions) {
      for (const [cidr, action] of actions) this.#logger.verbose(2, 'route action', { node: nodeName, cidr, action });
    }
    const semaphore = new Semaphore(MAX_CONCURRENT_ROUTE_OPERATIONS);
    const pending: Array<Promise<void>> = plan.deletions.map(({ route, reason }) => {
      const start = performance.now();
      return semaphore.run(async () => {
        this.#logger.info('Deleting route', { route: route.name, cidr: route.destinationCidr, reason });
        try {
          await cloudRoutes.deleteRoute(clusterName, route, this.#callOptions());
          this.#logger.info('Deleted route', { route: route.name, cidr: route.destinationCidr, after: formatGoDuration(performance.now() - start) });
        } catch (error) {
          this.#logger.error('Could not delete route', { route: route.name, cidr: route.destinationCidr, after: formatGoDuration(performance.now() - start), error: errorMessage(error) });
        }
      });
    });
    // An update is delete-then-create when the provider reports node addresses.
    if (plan.deleteBeforeCreate) await Promise.all(pending);
    for (const creation of plan.creations) pending.push(this.#createRoute(creation, semaphore, plan.actions));
    await Promise.all(pending);

    await Promise.all(
      nodes.map(async (node) => {
        const created = routesCreatedForNode(plan.actions.get(node.metadata?.name ?? ''));
        if (created === undefined) return;
        try {
          await this.updateNetworkingCondition(node, created);
        } catch (error) {
          this.#logger.error('failed to update networking condition', { node: node.metadata?.name, error: errorMessage(error) });
        }
      }),
    );
  }

  async #createRoute(creation: PlannedRouteCreation, semaphore: Semaphore, actions: ReturnType<typeof planRoutes>['actions']): Promise<void> {
    const { clusterName, routes: cloudRoutes, recorder } = this.#options;
    const { nodeName, nameHint, route } = creation;
    try {
      await retryOnConflict(async () => {
        const start = performance.now();
        try {
          await semaphore.run(() => cloudRoutes.createRoute(clusterName, nameHint, route, this.#callOptions()));
        } catch (error) {
          const message = `Could not create route ${nameHint} ${route.destinationCidr} for node ${nodeName} after ${formatGoDuration(performance.now() - start)}: ${errorMessage(error)}`;
          recorder.event({ apiVersion: 'v1', kind: 'Node', metadata: { name: nodeName, uid: nodeName } }, 'Warning', 'FailedToCreateRoute', message);
          throw error;
        }
        actions.get(nodeName)?.set(route.destinationCidr, 'keep');
        this.#logger.info('Created route', { node: nodeName, cidr: route.destinationCidr, nameHint, after: formatGoDuration(performance.now() - start) });
      }, sleep);
    } catch (error) {
      this.#logger.error('Could not create route', { nameHint, cidr: route.destinationCidr, node: nodeName, error: errorMessage(error) });
    }
  }

  /** Sets NetworkUnavailable through the status subresource unless already right (status and reason). */
  async updateNetworkingCondition(node: V1Node, routesCreated: boolean): Promise<void> {
    const name = node.metadata?.name ?? '';
    if (networkConditionUpToDate(node, routesCreated)) {
      this.#logger.verbose(2, 'NodeNetworkUnavailable already set as wanted', { node: name, routesCreated });
      return;
    }
    this.#logger.info('Patching node status NetworkUnavailable', { node: name, routesCreated });
    await retryOnConflict(() => this.#options.nodes.patchStatus(name, networkConditionPatch(routesCreated, this.#now()), 'strategic'), sleep);
  }

  #callOptions(): { signal?: AbortSignal } {
    return this.#stopSignal === undefined ? {} : { signal: this.#stopSignal };
  }
}

/** Upstream `processCIDRs` checks: parse each, at most two, two must be one per family. */
export function parseClusterCidrs(cidrs: readonly string[]): Cidr[] {
  const parsed = cidrs.map((cidr) => parseCidr(cidr.trim()));
  if (parsed.length > 2) throw new Error(`length of clusterCIDRs is:${parsed.length} more than max allowed of 2`);
  if (parsed.length === 2 && parsed[0]?.family === parsed[1]?.family) {
    throw new Error(`len of ClusterCIDRs==${parsed.length} and they are not configured as dual stack (at least one from each IPFamily`);
  }
  return parsed;
}

/**
 * Builds the route controller, or `{ skipped }` when `--configure-cloud-routes` is false or the
 * provider has no Routes. Like upstream it does not depend on `--allocate-node-cidrs` (v1.21+).
 * Throws (fatal) when the cluster CIDRs are missing or invalid.
 */
export const createRouteController: ControllerConstructor = (context: ControllerContext) => {
  const { config } = context;
  if (!config.configureCloudRoutes) return { skipped: `Will not configure cloud provider routes, --configure-cloud-routes: ${config.configureCloudRoutes}` };
  const routes = context.cloud.routes?.();
  if (routes === undefined) {
    return { skipped: 'configure-cloud-routes is set, but cloud provider does not support routes. Will not configure cloud provider routes.' };
  }
  const clusterCidrs = parseClusterCidrs(config.clusterCidrs);
  const logger = context.logger.child({ controller: 'route' });
  logger.verbose(2, 'route controller cluster CIDRs', { clusterCidrs: clusterCidrs.map(formatCidr) });
  return new RouteController({
    routes,
    clusterName: config.clusterName,
    clusterCidrs,
    nodes: context.kube.nodes,
    nodeInformer: context.kube.nodeInformer,
    recorder: context.kube.eventRecorder(ROUTE_CONTROLLER_EVENT_COMPONENT),
    metrics: registerRouteControllerMetrics(context.metrics),
    logger,
    reconciliationPeriodMs: config.routeReconciliationPeriodMs,
  });
};
