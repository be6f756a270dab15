/**
 * Fencing of cloud calls by the leader lease. A leader whose renewals stall (a starved process,
 * an unreachable API server) must not go on changing the cloud once another replica may have
 * taken the lease over: leader election alone does not stop calls already queued in the
 * controllers. The runtime runs the controllers inside `runFencedByLeadership(fence, ...)`; every
 * port call composed by `composeCloudPort` checks the fence of its async context right before
 * the request is sent (after any wait for the budget), and a fence past its deadline refuses it
 * with `LeadershipExpiredError` and reports the expiry once per deadline (the runtime logs it).
 * Calls start again once a renewal succeeds: it proves nobody else took the lease meanwhile (if
 * someone did, the renewal fails and the leadership is lost, ending the process).
 *
 * The deadline is the leader elector's (`leadershipValidUntil`: the local time of the last
 * successful renewal, taken before the request, plus renewDeadline). Other replicas take over
 * no earlier than leaseDuration after they saw that renewal, and renewDeadline < leaseDuration
 * (checked at startup, as client-go does), so a call that passes the check starts before any
 * other replica may lead. Calls outside a fenced context (startup, `--leader-elect=false`)
 * are not fenced.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { CloudApiError } from './cloud-api-error.js';

/** A cloud call refused because the caller's leader lease may have expired. Never retried. */
export class LeadershipExpiredError extends CloudApiError {
  /** Local time at which the leadership stopped being certain. */
  readonly validUntil: number;

  constructor(operation: string, validUntil: number, now: number) {
    super('aborted', operation, `not sent: the leader lease may have expired (last renewal deadline ${new Date(validUntil).toISOString()}, ${now - validUntil} ms ago)`, {
      code: 'LeadershipExpired',
      retryable: false,
    });
    this.name = 'LeadershipExpiredError';
    this.validUntil = validUntil;
  }
}

export interface LeadershipFenceOptions {
  /** Local time (ms) until which this process may act as leader; 0 when it does not lead. */
  validUntil: () => number;
  /** Called once per deadline, the first time a call is refused after it. */
  onExpired?: (error: LeadershipExpiredError) => void;
  now?: () => number;
}

export class LeadershipFence {
  readonly #options: LeadershipFenceOptions;
  /** The deadline whose expiry was last reported. */
  #reportedDeadline: number | undefined;

  constructor(options: LeadershipFenceOptions) {
    this.#options = options;
  }

  /** Whether a call may start now. */
  isOpen(): boolean {
    return (this.#options.now ?? Date.now)() < this.#options.validUntil();
  }

  /** Throws `LeadershipExpiredError` (and reports the expiry once per deadline) unless a call may start now. */
  check(operation: string): void {
    const now = (this.#options.now ?? Date.now)();
    const validUntil = this.#options.validUntil();
    if (now < validUntil) return;
    const error = new LeadershipExpiredError(operation, validUntil, now);
    if (this.#reportedDeadline !== validUntil) {
      this.#reportedDeadline = validUntil;
      this.#options.onExpired?.(error);
    }
    throw error;
  }
}

const activeFence = new AsyncLocalStorage<LeadershipFence>();

/** Runs `work` (and everything it starts: timers, informers, promises) under `fence`. */
export function runFencedByLeadership<T>(fence: LeadershipFence, work: () => T): T {
  return activeFence.run(fence, work);
}

/** The fence of the current async context, if any. */
export function activeLeadershipFence(): LeadershipFence | undefined {
  return activeFence.getStore();
}
