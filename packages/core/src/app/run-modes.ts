/**
 * The two ways controllers run: directly (`--leader-elect=false`) or while holding the leader
 * lease. Both end with a `RunOutcome`; the command maps it to an exit code.
 */
import { LeadershipFence, runFencedByLeadership } from '../cloud/leadership-fence.js';
import type { LeaderElectorOptions, StoppedLeadingReason } from '../kube/leader-election.js';
import type { Logger } from '../logging/logger.js';
import type { MigrationFilterResult } from './leader-migration/leader-migrator.js';
import { runControllers, type ControllerMigration, type RunControllersOptions } from './run-controllers.js';
import type { HealthChecks } from './serving/health-checks.js';
import type { ShutdownSignal } from './shutdown-signal.js';
import { waitAtMost } from './wait-helpers.js';

export type RunOutcome = { kind: 'stopped' } | { kind: 'lost' } | { kind: 'fatal'; error: unknown };

/** The leader election the runtime needs (kube/leader-election.ts implements it). */
export interface LeaderElection {
  run(signal: AbortSignal): Promise<void>;
  release(): Promise<void>;
  check(): Error | undefined;
  /** Local time until which this process may act as leader (0 when it does not lead): the fence of its cloud calls. */
  leadershipValidUntil(): number;
}

export type LeaderElectionCallbacks = Pick<LeaderElectorOptions, 'onStartedLeading' | 'onStoppedLeading'>;

/**
 * Leader migration (upstream cloud-provider `Run` with a `LeaderMigrator`): once the main lease
 * is held, the process also campaigns for the migration lease; the controllers the file assigns
 * to it start only while it holds both. Losing either lease ends the process.
 */
export interface MigrationElection {
  filter(name: Parameters<ControllerMigration['filter']>[0]): MigrationFilterResult;
  /**
   * Whether to campaign for the migration lease: false when no controller of this process is
   * assigned to it, so that it never holds the lease with nothing to run (upstream campaigns anyway).
   */
  campaign: boolean;
  createElector(callbacks: LeaderElectionCallbacks): LeaderElection;
}

/**
 * After the lease is lost, how long the (aborted) controllers get before the command returns
 * anyway. Upstream exits at once (`klog.FlushAndExit`): another replica may already lead, so
 * nothing must keep acting on the cluster; a drain of up to --shutdown-timeout is for SIGTERM only.
 */
export const LOST_LEADERSHIP_DRAIN_MS = 1_000;

export async function runWithoutLeaderElection(options: RunControllersOptions, shutdown: ShutdownSignal): Promise<RunOutcome> {
  if (shutdown.isRequested) return { kind: 'stopped' };
  const controllers = new AbortController();
  void shutdown.requested.then(() => controllers.abort());
  let outcome: RunOutcome = { kind: 'stopped' };
  const running = runControllers(controllers.signal, options).catch((error: unknown) => {
    outcome = { kind: 'fatal', error };
  });
  await Promise.race([shutdown.requested, running]);
  controllers.abort();
  await shutdown.race(running);
  return outcome;
}

export async function runWithLeaderElection(
  options: RunControllersOptions,
  createElector: (callbacks: LeaderElectionCallbacks) => LeaderElection,
  healthChecks: HealthChecks,
  shutdown: ShutdownSignal,
  logger: Logger,
  migration?: MigrationElection,
): Promise<RunOutcome> {
  if (shutdown.isRequested) return { kind: 'stopped' };
  let settle!: (outcome: RunOutcome) => void;
  const outcome = new Promise<RunOutcome>((resolve) => (settle = resolve));
  let controllersRun: Promise<void> = Promise.resolve();
  const election = new AbortController();
  const migrationLease = migration === undefined ? undefined : new MigrationLease(migration, healthChecks, logger, election.signal, settle);
  // Cloud calls of the controllers are fenced by the lease: none starts once the renew deadline
  // has passed without a renewal (a stalled leader), until a renewal succeeds again (or the
  // elector gives the leadership up as lost).
  const fence = new LeadershipFence({
    validUntil: () => elector.leadershipValidUntil(),
    onExpired(error) {
      logger.warn('leader lease may have expired (no renewal within the renew deadline): refusing cloud calls until it is renewed', { operation: error.operation, validUntil: new Date(error.validUntil).toISOString() });
    },
  });
  const elector = createElector({
    onStartedLeading(leadership: AbortSignal) {
      const runOptions = migrationLease === undefined ? options : { ...options, migration: migrationLease.controllerMigration() };
      controllersRun = runFencedByLeadership(fence, () => runControllers(leadership, runOptions)).catch((error: unknown) => settle({ kind: 'fatal', error }));
    },
    onStoppedLeading(reason: StoppedLeadingReason) {
      if (reason !== 'lost') return;
      logger.error('leaderelection lost');
      settle({ kind: 'lost' });
    },
  });
  healthChecks.add({
    name: 'leaderElection',
    check() {
      const error = elector.check();
      if (error) throw error;
    },
  });
  const electing = elector.run(election.signal);
  void shutdown.requested.then(() => settle({ kind: 'stopped' }));

  const result = await outcome;
  election.abort();
  if (result.kind === 'lost') {
    // The elector already aborted the controllers' signal; do not wait for their drain.
    await waitAtMost(Promise.all([electing, controllersRun, migrationLease?.campaigning]), LOST_LEADERSHIP_DRAIN_MS);
    return result;
  }
  await shutdown.race(electing);
  await shutdown.race(controllersRun);
  // Give the leases up so another replica (or kube-controller-manager) takes over at once (not
  // after a loss: they are not ours).
  if (migrationLease !== undefined) await shutdown.race(migrationLease.release());
  await shutdown.race(elector.release());
  return result;
}

/** The migration lease of one run: campaigned for once the main controllers start. */
class MigrationLease {
  campaigning: Promise<void> = Promise.resolve();
  #elector: LeaderElection | undefined;
  #held: Promise<AbortSignal>;
  #resolveHeld!: (leadership: AbortSignal) => void;

  constructor(
    private readonly migration: MigrationElection,
    private readonly healthChecks: HealthChecks,
    private readonly logger: Logger,
    private readonly election: AbortSignal,
    private readonly settle: (outcome: RunOutcome) => void,
  ) {
    this.#held = new Promise((resolve) => (this.#resolveHeld = resolve));
  }

  /** What runControllers uses: the filter, and the lease (the campaign starts on the first ask). */
  controllerMigration(): ControllerMigration {
    return {
      filter: (name) => this.migration.filter(name),
      acquired: (signal) => {
        if (!this.migration.campaign) return Promise.resolve(undefined);
        this.#campaign();
        return new Promise<AbortSignal | undefined>((resolve) => {
          if (signal.aborted) return resolve(undefined);
          signal.addEventListener('abort', () => resolve(undefined), { once: true });
          void this.#held.then(resolve);
        });
      },
    };
  }

  async release(): Promise<void> {
    await this.#elector?.release();
  }

  #campaign(): void {
    if (this.#elector !== undefined || this.election.aborted) return;
    this.logger.info('leader migration: campaigning for the migration lease');
    const elector = this.migration.createElector({
      onStartedLeading: (leadership) => this.#resolveHeld(leadership),
      onStoppedLeading: (reason) => {
        if (reason !== 'lost') return;
        this.logger.error('migration leaderelection lost');
        this.settle({ kind: 'lost' });
      },
    });
    this.#elector = elector;
    this.healthChecks.add({
      name: 'leaderMigration',
      check() {
        const error = elector.check();
        if (error) throw error;
      },
    });
    this.campaigning = elector.run(this.election);
  }
}
