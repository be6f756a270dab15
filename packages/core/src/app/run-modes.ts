/**
 * The two ways controllers run: directly (`--leader-elect=false`) or while holding the leader
 * lease. Both end with a `RunOutcome`; the command maps it to an exit code.
 */
import type { LeaderElectorOptions, StoppedLeadingReason } from '../kube/leader-election.js';
import type { Logger } from '../logging/logger.js';
import { runControllers, type RunControllersOptions } from './run-controllers.js';
import type { HealthChecks } from './serving/health-checks.js';
import type { ShutdownSignal } from './shutdown-signal.js';
import { waitAtMost } from './wait-helpers.js';

export type RunOutcome = { kind: 'stopped' } | { kind: 'lost' } | { kind: 'fatal'; error: unknown };

/** The leader election the runtime needs (kube/leader-election.ts implements it). */
export interface LeaderElection {
  run(signal: AbortSignal): Promise<void>;
  release(): Promise<void>;
  check(): Error | undefined;
}

export type LeaderElectionCallbacks = Pick<LeaderElectorOptions, 'onStartedLeading' | 'onStoppedLeading'>;

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
): Promise<RunOutcome> {
  if (shutdown.isRequested) return { kind: 'stopped' };
  let settle!: (outcome: RunOutcome) => void;
  const outcome = new Promise<RunOutcome>((resolve) => (settle = resolve));
  let controllersRun: Promise<void> = Promise.resolve();
  const elector = createElector({
    onStartedLeading(leadership: AbortSignal) {
      controllersRun = runControllers(leadership, options).catch((error: unknown) => settle({ kind: 'fatal', error }));
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
  const election = new AbortController();
  const electing = elector.run(election.signal);
  void shutdown.requested.then(() => settle({ kind: 'stopped' }));

  const result = await outcome;
  election.abort();
  if (result.kind === 'lost') {
    // The elector already aborted the controllers' signal; do not wait for their drain.
    await waitAtMost(Promise.all([electing, controllersRun]), LOST_LEADERSHIP_DRAIN_MS);
    return result;
  }
  await shutdown.race(electing);
  await shutdown.race(controllersRun);
  // Give the lease up so another replica takes over at once (not after a loss: it is not ours).
  await shutdown.race(elector.release());
  return result;
}
