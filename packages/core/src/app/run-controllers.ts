/**
 * What runs once leadership is won (or at once without leader election), upstream
 * `startControllers`: initialize the cloud (handing it the shared informers, upstream
 * `SetInformers`), start the informers and wait for their caches,
 * construct every enabled controller (logging disabled and skipped ones), start them with a
 * jittered `--controller-start-interval`, report them in `running_managed_controllers` and in
 * the health checks, and on abort wait for them to drain.
 */
import type { V1Secret } from '@kubernetes/client-node';
import type { Registry } from 'prom-client';
import type { ControllerConfig, ControllerConstructor, ControllerContext, Controller } from '../controllers/controller.js';
import type { KubeAccess, SharedInformer } from '../kube/ports.js';
import { workQueueFactory } from '../kube/rate-limited-work-queue.js';
import type { Logger } from '../logging/logger.js';
import { CONTROLLER_NAMES } from '../names/controller-names.js';
import type { CloudProvider, ControllerClientBuilder, ProviderInformers } from '../provider/cloud-provider.js';
import { abortableSleep } from '../util/abortable-sleep.js';
import { errorMessage } from '../util/error-message.js';
import type { MigrationFilterResult } from './leader-migration/leader-migrator.js';
import type { ControllerManagerMetrics } from './metrics/controller-manager-metrics.js';
import { isControllerEnabled } from './options/controller-selection.js';
import type { HealthChecks } from './serving/health-checks.js';
import { jitter } from './wait-helpers.js';

/** The Kubernetes access the runtime drives: the ports plus informer lifecycle. */
export interface RunnableKubeAccess extends KubeAccess {
  start(signal: AbortSignal): void;
  stop(): void;
  flushEvents?(): Promise<void>;
  /**
   * Why the informers have not synced yet (the last list/watch error, or that the server never
   * answered), or undefined while they are listing normally. Without it, a sync that is not done
   * by the deadline is fatal.
   */
  syncProblem?(): string | undefined;
  /** The API server URL, for messages. */
  readonly serverUrl?: string;
  /** Secret informers for the provider (see `ProviderInformers.secrets`); started with the others. */
  secretInformer?(namespace: string, name?: string): SharedInformer<V1Secret>;
}

/** The informers a provider gets in its initialize context. */
export function providerInformers(kube: RunnableKubeAccess): ProviderInformers {
  return {
    nodes: kube.nodeInformer,
    secrets(namespace, name) {
      if (kube.secretInformer === undefined) throw new Error('this Kubernetes access offers no Secret informers');
      return kube.secretInformer(namespace, name);
    },
  };
}

/**
 * How long the informers may take to reach the API server at startup before the command fails
 * (upstream `WaitForAPIServer` waits 10 s, then exits fatally). A sync that is progressing
 * normally (pages arrive, no error) is waited for past this deadline.
 */
export const API_SERVER_WAIT_TIMEOUT_MS = 10_000;

/** The health check registered while the informer caches have not synced. */
export const INFORMER_SYNC_HEALTH_CHECK = 'informer-sync';

/** A startup problem that stops the command with exit code 1; the message is the one line printed. */
export class FatalStartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FatalStartupError';
  }
}

export interface RunControllersOptions {
  cloud: CloudProvider;
  clientBuilder: ControllerClientBuilder;
  createKubeAccess(): RunnableKubeAccess;
  controllerConfig: ControllerConfig;
  /** Alias-resolved `--controllers` entries. */
  controllerEntries: readonly string[];
  disabledByDefault: ReadonlySet<string>;
  /** Core controllers by `ControllerName`, plus any a provider's bin adds (AWS `tagging`). */
  constructors: Readonly<Partial<Record<string, ControllerConstructor>>>;
  controllerStartIntervalMs: number;
  metrics: Registry;
  controllerManagerMetrics: ControllerManagerMetrics;
  healthChecks: HealthChecks;
  logger: Logger;
  /** How long to wait for controllers to drain after the abort. */
  shutdownTimeoutMs: number;
  /** Default {@link API_SERVER_WAIT_TIMEOUT_MS}. */
  apiServerWaitTimeoutMs?: number;
  random?: () => number;
  /** Leader migration (`--enable-leader-migration` with `--leader-elect`); absent without it. */
  migration?: ControllerMigration;
}

/**
 * How controllers split between the main lease and the migration lease (upstream
 * `filterInitializers` with the `LeaderMigrator`): `non-migrated` ones start once the caches
 * synced, `unowned` ones never, `migrated` ones once the migration lease is held too.
 */
export interface ControllerMigration {
  filter(name: string): MigrationFilterResult;
  /** The migration leadership's signal once the lease is held; undefined when `signal` aborted first. */
  acquired(signal: AbortSignal): Promise<AbortSignal | undefined>;
}

interface RunningController {
  name: string;
  done: Promise<void>;
  /** Set when run() ended before the abort, or rejected. */
  failure?: string;
}

/** Resolves after `signal` aborted and the controllers drained. Throws FatalStartupError. */
export async function runControllers(signal: AbortSignal, options: RunControllersOptions): Promise<void> {
  const { logger, cloud } = options;
  // Created before the cloud initializes, so that it can add handlers to the shared informers;
  // started after, so that those handlers see the first list.
  const kube = options.createKubeAccess();
  try {
    await cloud.initialize?.({ clientBuilder: options.clientBuilder, logger, signal, informers: providerInformers(kube), eventRecorder: (component) => kube.eventRecorder(component) });
  } catch (error) {
    kube.stop();
    throw new FatalStartupError(`cloud provider ${JSON.stringify(cloud.providerName)} failed to initialize: ${errorMessage(error)}`, { cause: error });
  }
  if (signal.aborted) {
    kube.stop();
    return;
  }
  kube.start(signal);
  const running: RunningController[] = [];
  // Controllers stop when the command stops, or when a later controller fails to start.
  const stopControllers = new AbortController();
  const stopOnAbort = (): void => stopControllers.abort();
  signal.addEventListener('abort', stopOnAbort, { once: true });
  try {
    logger.info('Waiting for caches to sync', { informers: ['nodes', 'services'] });
    if (!(await waitForCaches(kube, signal, options))) return;
    logger.info('Caches are synced');

    const context = {
      cloud,
      kube,
      config: options.controllerConfig,
      metrics: options.metrics,
      createWorkQueue: workQueueFactory(options.metrics),
    };
    const migration = options.migration;
    const underMainLease = controllerOrder(options.constructors).filter((name) => {
      if (migration === undefined) return true;
      const lock = migration.filter(name);
      if (lock === 'unowned' && options.constructors[name] !== undefined) {
        logger.info(`leader migration: ${JSON.stringify(name)} is run by another controller manager`);
      }
      return lock === 'non-migrated';
    });
    if (migration !== undefined) logger.info('leader migration: starting main controllers');
    await startControllerGroup(underMainLease, context, stopControllers.signal, signal, running, options);
    if (running.length === 0 && migration === undefined) logger.warn('No controller is running');
    const migrated = migration === undefined ? [] : controllerOrder(options.constructors).filter((name) => options.constructors[name] !== undefined && migration.filter(name) === 'migrated');
    if (migration !== undefined && migrated.length > 0 && !signal.aborted) {
      logger.info('leader migration: waiting for the migration lease', { controllers: migrated });
      const migrationLeadership = await migration.acquired(signal);
      if (migrationLeadership !== undefined && !signal.aborted) {
        logger.info('leader migration: starting migrated controllers', { controllers: migrated });
        const both = AbortSignal.any([stopControllers.signal, migrationLeadership]);
        await startControllerGroup(migrated, context, both, signal, running, options);
      }
    }
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    signal.removeEventListener('abort', stopOnAbort);
    stopControllers.abort();
    await drain(running, kube, options);
  }
}

/** Core controllers in upstream's order, then the map's other (provider) controllers in insertion order. */
export function controllerOrder(constructors: Readonly<Partial<Record<string, ControllerConstructor>>>): string[] {
  const core: readonly string[] = CONTROLLER_NAMES;
  return [...core, ...Object.keys(constructors).filter((name) => !core.includes(name))];
}

/**
 * Constructs and starts the enabled controllers among `names` (in this order), logging disabled
 * and skipped ones, with a jittered `--controller-start-interval` between starts; adds each to
 * the health checks. `stop` stops the started controllers; `signal` ends the starting.
 */
async function startControllerGroup(
  names: readonly string[],
  context: Omit<ControllerContext, 'logger'>,
  stop: AbortSignal,
  signal: AbortSignal,
  running: RunningController[],
  options: RunControllersOptions,
): Promise<void> {
  const { logger } = options;
  const started: RunningController[] = [];
  for (const name of names) {
    const constructor = options.constructors[name];
    if (constructor === undefined || signal.aborted) continue;
    if (!isControllerEnabled(name, options.controllerEntries, options.disabledByDefault)) {
      // Upstream startControllers: klog.Warningf("%q is disabled").
      logger.warn(`${JSON.stringify(name)} is disabled`);
      continue;
    }
    logger.verbose(1, `Starting ${JSON.stringify(name)}`);
    let built: Controller | { skipped: string };
    try {
      built = constructor({ ...context, logger: logger.child({ controller: name }) });
    } catch (error) {
      throw new FatalStartupError(`error starting ${JSON.stringify(name)}: ${errorMessage(error)}`, { cause: error });
    }
    if ('skipped' in built) {
      logger.warn(`Skipping ${JSON.stringify(name)}: ${built.skipped}`);
      continue;
    }
    const controller = start(name, built, stop, options);
    running.push(controller);
    started.push(controller);
    logger.info(`Started ${JSON.stringify(name)}`);
    const startDelayMs = jitter(options.controllerStartIntervalMs, 1.0, options.random);
    if (startDelayMs > 0) await abortableSleep(startDelayMs, signal);
  }
  for (const controller of started) {
    options.healthChecks.add({
      name: controller.name,
      check() {
        if (controller.failure !== undefined) throw new Error(controller.failure);
      },
    });
  }
}

/**
 * Waits for the informer caches; false when `signal` aborted first. Throws FatalStartupError
 * when the API server cannot be reached within the deadline. A failing readiness-only check
 * (`/readyz`) reports the wait meanwhile.
 */
async function waitForCaches(kube: RunnableKubeAccess, signal: AbortSignal, options: RunControllersOptions): Promise<boolean> {
  const healthChecks = options.healthChecks;
  let synced = false;
  healthChecks.add({
    name: INFORMER_SYNC_HEALTH_CHECK,
    readinessOnly: true,
    check() {
      if (!synced) throw new Error(`informer caches have not synced: ${kube.syncProblem?.() ?? 'listing'}`);
    },
  });
  const sync = Promise.all([kube.nodeInformer.waitForSync(signal), kube.serviceInformer.waitForSync(signal)]).then(
    () => 'synced' as const,
    (error: unknown) => ({ error }),
  );
  const timeoutMs = options.apiServerWaitTimeoutMs ?? API_SERVER_WAIT_TIMEOUT_MS;
  const server = kube.serverUrl ?? serverUrlOf(options.clientBuilder);
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const outcome = await Promise.race([sync, deadline]).finally(() => clearTimeout(timer));
      if (outcome === 'synced') {
        synced = true;
        return true;
      }
      if (outcome !== 'timeout') {
        if (signal.aborted) return false;
        throw new FatalStartupError(`informer caches did not sync: ${errorMessage(outcome.error)}`, { cause: outcome.error });
      }
      if (signal.aborted) return false;
      const problem = kube.syncProblem ? kube.syncProblem() : `the informer caches did not sync within ${timeoutMs / 1000}s`;
      if (problem !== undefined) {
        throw new FatalStartupError(`cannot reach the Kubernetes API server${server ? ` at ${server}` : ''}: ${problem}`);
      }
      options.logger.info('Still waiting for caches to sync (the API server answers, the lists are long)', { waitedMs: timeoutMs });
    }
  } finally {
    // Once synced (or failed), the per-controller checks take over.
    healthChecks.remove(INFORMER_SYNC_HEALTH_CHECK);
  }
}

function serverUrlOf(clientBuilder: ControllerClientBuilder): string {
  try {
    return clientBuilder.kubeConfig('cloud-controller-manager').getCurrentCluster()?.server ?? '';
  } catch {
    return '';
  }
}

function start(name: string, controller: Controller, signal: AbortSignal, options: RunControllersOptions): RunningController {
  const entry: RunningController = { name, done: Promise.resolve() };
  options.controllerManagerMetrics.controllerStarted(name);
  entry.done = Promise.resolve()
    .then(() => controller.run(signal))
    .then(
      () => {
        if (!signal.aborted) {
          entry.failure = 'the controller stopped on its own';
          options.logger.error(`Controller ${JSON.stringify(name)} stopped unexpectedly`);
        }
      },
      (error: unknown) => {
        entry.failure = `the controller failed: ${errorMessage(error)}`;
        options.logger.error(`Controller ${JSON.stringify(name)} failed`, { err: error });
      },
    )
    .finally(() => options.controllerManagerMetrics.controllerStopped(name));
  return entry;
}

async function drain(running: readonly RunningController[], kube: RunnableKubeAccess, options: RunControllersOptions): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), options.shutdownTimeoutMs);
  });
  try {
    const drained = await Promise.race([Promise.all(running.map((controller) => controller.done)).then(() => 'drained' as const), timeout]);
    if (drained === 'timeout') {
      const pending = running.filter((controller) => controller.failure === undefined).map((controller) => controller.name);
      options.logger.warn('Controllers did not stop in time', { timeout: `${options.shutdownTimeoutMs}ms`, controllers: pending });
    }
    if (kube.flushEvents) await Promise.race([kube.flushEvents(), timeout]);
  } finally {
    clearTimeout(timer);
    kube.stop();
  }
}
