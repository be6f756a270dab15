/**
 * client-go-style leader election on a coordination.k8s.io/v1 Lease:
 * - acquire when the lease is absent, released (no holder) or expired, bumping leaseTransitions
 *   and setting acquireTime; try every retryPeriod (jittered like client-go). Expiry is judged
 *   with the local clock only, like client-go: the lease is valid while the local time at which
 *   we last saw its record change (holder, times, transitions or resourceVersion), plus
 *   leaseDurationSeconds, is in the future. The holder's renewTime is never compared with our
 *   clock, so a skewed replica can neither steal a live lease nor wait on a dead one forever;
 * - as leader, renew every retryPeriod; a renewal that does not succeed within renewDeadline
 *   loses leadership (client-go: renewDeadline from the start of each renewal attempt);
 * - `leadershipValidUntil()`: the last successful renewal's send time plus renewDeadline, the
 *   deadline by which the runtime fences cloud calls (cloud/leadership-fence.ts). A process
 *   starved past it (timers firing late) makes no cloud call until a renewal succeeds again,
 *   which proves nobody else took the lease in between; if another replica did, the renewal
 *   fails and leadership is lost as above;
 * - optimistic concurrency through resourceVersion: a 409 means someone else won;
 * - `release()` (upstream ReleaseOnCancel) empties holderIdentity with leaseDurationSeconds 1 so
 *   another replica takes over at once;
 * - `check()` is the healthz watchdog: failing when leader but not renewed for
 *   leaseDuration + 20 s.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { CoordinationV1Api, V1MicroTime, type KubeConfig, type V1Lease } from '@kubernetes/client-node';
import { Gauge, type Registry } from 'prom-client';
import type { Logger } from '../logging/logger.js';
import { abortableSleep } from '../util/abortable-sleep.js';
import { errorMessage } from '../util/error-message.js';
import { createClientNodeLeaseClient } from './client-node/client-node-lease-client.js';
import { RequestExecutor } from './client-node/request-executor.js';
import { KubeApiError } from './kube-api-error.js';
import { recordOf, type LeaseClient, type LeaseRecord } from './lease-record.js';

export type { LeaseClient, LeaseRecord } from './lease-record.js';

export type StoppedLeadingReason = 'lost' | 'cancelled';

export interface LeaderElectorOptions {
  kubeConfig?: KubeConfig;
  /** Overrides the client-node lease client (tests, in-memory clusters). */
  leaseClient?: LeaseClient;
  namespace: string;
  name: string;
  /** Default `<hostname>_<uuid>`, as upstream. */
  identity?: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  logger: Logger;
  metrics?: Registry;
  userAgent?: string;
  /** Called once leadership is acquired; `signal` aborts when it ends. Errors are logged. */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /** Called when leadership ends: `lost` (renewal failed) or `cancelled` (run's signal aborted). */
  onStoppedLeading(reason: StoppedLeadingReason): void;
  random?: () => number;
}

/** Upstream `--leader-elect-lease-duration`, `--leader-elect-renew-deadline`, `--leader-elect-retry-period` defaults. */
export const DEFAULT_LEASE_DURATION_MS = 15_000;
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
export const DEFAULT_RETRY_PERIOD_MS = 2_000;
/** Upstream healthz adaptor timeout (maxTolerableExpiredLease). */
export const LEADER_ELECTION_HEALTH_TIMEOUT_MS = 20_000;
const JITTER_FACTOR = 1.2;

function masterStatusGauge(registry: Registry): Gauge<'name'> {
  const existing = registry.getSingleMetric('leader_election_master_status');
  if (existing instanceof Gauge) return existing as Gauge<'name'>;
  return new Gauge({
    name: 'leader_election_master_status',
    help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
    labelNames: ['name'],
    registers: [registry],
  });
}

export class LeaderElector {
  readonly identity: string;
  readonly #options: LeaderElectorOptions;
  readonly #client: LeaseClient;
  readonly #gauge: Gauge<'name'> | undefined;
  /** The last lease we read or wrote. */
  #observed: V1Lease | undefined;
  /** Identity of the observed record (record fields and resourceVersion). */
  #observedKey: string | undefined;
  /** Local time (Date.now()) at which the observed record last changed (client-go observedTime). */
  #observedTime = 0;
  /** Local time of our last successful acquire/renew. */
  #lastRenewAt = 0;
  #leading = false;

  constructor(options: LeaderElectorOptions) {
    if (!(options.leaseDurationMs > options.renewDeadlineMs)) throw new RangeError('leaseDuration must be greater than renewDeadline');
    if (!(options.renewDeadlineMs > JITTER_FACTOR * options.retryPeriodMs)) throw new RangeError('renewDeadline must be greater than retryPeriod*1.2');
    if (!(options.retryPeriodMs > 0)) throw new RangeError('retryPeriod must be greater than zero');
    this.#options = options;
    this.identity = options.identity ?? `${hostname()}_${randomUUID()}`;
    if (options.leaseClient) this.#client = options.leaseClient;
    else if (options.kubeConfig) {
      const executor = new RequestExecutor({ userAgent: options.userAgent ?? 'cloud-controller-manager/leader-election', logger: options.logger });
      this.#client = createClientNodeLeaseClient(options.kubeConfig.makeApiClient(CoordinationV1Api), executor, options.namespace, options.name);
    } else throw new TypeError('LeaderElector needs kubeConfig or leaseClient');
    this.#gauge = options.metrics ? masterStatusGauge(options.metrics) : undefined;
    this.#gauge?.set({ name: options.name }, 0);
  }

  isLeader(): boolean {
    return this.#leading;
  }

  /**
   * Local time until which this replica may act as leader: the last successful acquire or
   * renewal (taken before its request was sent) plus renewDeadline; 0 when it does not lead.
   * renewDeadline < leaseDuration, so the deadline passes before any other replica may judge
   * the lease expired.
   */
  leadershipValidUntil(): number {
    return this.#leading ? this.#lastRenewAt + this.#options.renewDeadlineMs : 0;
  }

  /** healthz check: an error when we are leader but have not renewed for leaseDuration + 20 s. */
  check(): Error | undefined {
    if (!this.#leading) return undefined;
    if (Date.now() - this.#lastRenewAt > this.#options.leaseDurationMs + LEADER_ELECTION_HEALTH_TIMEOUT_MS) {
      return new Error(`failed election to renew leadership on lease ${this.#options.name}`);
    }
    return undefined;
  }

  /**
   * Campaigns until leader, then renews until leadership is lost or `signal` aborts. Resolves
   * when it ends; never rejects. Does not release the lease: call `release()` for that.
   */
  async run(signal: AbortSignal): Promise<void> {
    const log = this.#options.logger;
    log.info('Attempting to acquire leader lease', { lease: `${this.#options.namespace}/${this.#options.name}`, identity: this.identity });
    while (!signal.aborted) {
      if (await this.#tryAcquireOrRenew()) break;
      await abortableSleep(this.#jittered(this.#options.retryPeriodMs), signal);
    }
    if (signal.aborted) return;
    log.info('Successfully acquired lease', { lease: `${this.#options.namespace}/${this.#options.name}`, identity: this.identity });
    this.#setLeading(true);
    const leadership = new AbortController();
    const onAbort = (): void => leadership.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void Promise.resolve()
      .then(() => this.#options.onStartedLeading(leadership.signal))
      .catch((error: unknown) => log.error('onStartedLeading failed', { error: errorMessage(error) }));

    while (!signal.aborted) {
      if (!(await this.#renewWithinDeadline(signal))) break;
      await abortableSleep(this.#options.retryPeriodMs, signal);
    }
    signal.removeEventListener('abort', onAbort);
    const reason: StoppedLeadingReason = signal.aborted ? 'cancelled' : 'lost';
    if (reason === 'lost') log.error('Failed to renew lease, leadership lost', { lease: `${this.#options.namespace}/${this.#options.name}`, identity: this.identity });
    this.#setLeading(false);
    leadership.abort(new Error(`leadership ${reason}`));
    try {
      this.#options.onStoppedLeading(reason);
    } catch (error) {
      log.error('onStoppedLeading failed', { error: errorMessage(error) });
    }
  }

  /**
   * Gives the lease up (holderIdentity empty, leaseDurationSeconds 1) if we hold it, so another
   * replica acquires it without waiting for expiry. Never throws; failures are logged.
   */
  async release(): Promise<void> {
    const observed = this.#observed;
    if (observed === undefined || recordOf(observed).holderIdentity !== this.identity) return;
    const now = new V1MicroTime(Date.now());
    const lease: V1Lease = {
      ...observed,
      spec: {
        ...observed.spec,
        holderIdentity: '',
        leaseDurationSeconds: 1,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: recordOf(observed).leaseTransitions,
      },
    };
    try {
      this.#observe(await this.#client.update(lease));
      this.#setLeading(false);
      this.#options.logger.info('Released leader lease', { lease: `${this.#options.namespace}/${this.#options.name}` });
    } catch (error) {
      this.#options.logger.error('Failed to release lease', { error: errorMessage(error) });
    }
  }

  #setLeading(leading: boolean): void {
    this.#leading = leading;
    this.#gauge?.set({ name: this.#options.name }, leading ? 1 : 0);
  }

  /** Retries every retryPeriod until a renewal succeeds or renewDeadline has passed. */
  async #renewWithinDeadline(signal: AbortSignal): Promise<boolean> {
    const deadline = Date.now() + this.#options.renewDeadlineMs;
    while (!signal.aborted) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) return false;
      const renewed = await this.#withTimeout(this.#tryAcquireOrRenew(), remaining);
      if (renewed) return true;
      if (deadline - Date.now() <= 0) return false;
      await abortableSleep(Math.min(this.#options.retryPeriodMs, Math.max(0, deadline - Date.now())), signal);
    }
    return true;
  }

  async #tryAcquireOrRenew(): Promise<boolean> {
    const now = Date.now();
    const nowMicro = new V1MicroTime(now);
    const leaseDurationSeconds = Math.ceil(this.#options.leaseDurationMs / 1000);
    const log = this.#options.logger;

    // Fast path: we lead, our copy names us as holder (client-go `IsLeader()`: the observed
    // record's holder, not our own flag: a read may have shown another holder since) and is
    // current; update it directly (409 falls back to a read).
    if (this.#leading && this.#observed !== undefined && recordOf(this.#observed).holderIdentity === this.identity && this.#isValid(now)) {
      const record = recordOf(this.#observed);
      try {
        this.#observe(await this.#client.update(this.#withRecord(this.#observed, { ...record, leaseDurationSeconds, renewTime: nowMicro })));
        this.#lastRenewAt = now;
        return true;
      } catch (error) {
        log.verbose(2, 'Lease fast-path renewal failed, re-reading', { error: errorMessage(error) });
      }
    }

    let current: V1Lease | undefined;
    try {
      current = await this.#client.get();
    } catch (error) {
      log.error('Error retrieving lease lock', { lease: `${this.#options.namespace}/${this.#options.name}`, error: errorMessage(error) });
      return false;
    }
    if (current === undefined) {
      try {
        const created = await this.#client.create({
          metadata: { name: this.#options.name, namespace: this.#options.namespace },
          spec: { holderIdentity: this.identity, leaseDurationSeconds, acquireTime: nowMicro, renewTime: nowMicro, leaseTransitions: 0 },
        });
        this.#observe(created);
        this.#lastRenewAt = now;
        return true;
      } catch (error) {
        log.error('Error initially creating lease lock', { error: errorMessage(error) });
        return false;
      }
    }
    this.#observe(current);
    const record = recordOf(current);
    const heldByUs = record.holderIdentity === this.identity;
    if (record.holderIdentity !== '' && !heldByUs && this.#isValid(now)) {
      log.verbose(4, 'Lock is held and has not yet expired', { holder: record.holderIdentity });
      return false;
    }
    const next: LeaseRecord = heldByUs
      ? { ...record, leaseDurationSeconds, renewTime: nowMicro, acquireTime: record.acquireTime ?? nowMicro }
      : { holderIdentity: this.identity, leaseDurationSeconds, acquireTime: nowMicro, renewTime: nowMicro, leaseTransitions: record.leaseTransitions + 1 };
    try {
      this.#observe(await this.#client.update(this.#withRecord(current, next)));
      this.#lastRenewAt = now;
      return true;
    } catch (error) {
      if (error instanceof KubeApiError && error.isConflict) log.verbose(2, 'Lost the race for the lease (conflict)', { lease: this.#options.name });
      else log.error('Failed to update lease', { error: errorMessage(error) });
      return false;
    }
  }

  /**
   * Remembers `lease` as observed; restarts the local expiry clock (client-go `observedTime`)
   * only when its record or resourceVersion changed, so an unchanged record read again keeps
   * counting down.
   */
  #observe(lease: V1Lease): void {
    const record = recordOf(lease);
    const key = JSON.stringify([
      record.holderIdentity,
      record.leaseDurationSeconds,
      record.acquireTime?.getTime(),
      record.renewTime?.getTime(),
      record.leaseTransitions,
      lease.metadata?.resourceVersion,
    ]);
    this.#observed = lease;
    if (key !== this.#observedKey) {
      this.#observedKey = key;
      this.#observedTime = Date.now();
    }
  }

  /** client-go `isLeaseValid`: observedTime + leaseDurationSeconds of the observed record is after `now`. */
  #isValid(now: number): boolean {
    if (this.#observed === undefined) return false;
    return this.#observedTime + recordOf(this.#observed).leaseDurationSeconds * 1000 > now;
  }

  #withRecord(lease: V1Lease, record: LeaseRecord): V1Lease {
    return {
      ...lease,
      spec: {
        ...lease.spec,
        holderIdentity: record.holderIdentity,
        leaseDurationSeconds: record.leaseDurationSeconds,
        leaseTransitions: record.leaseTransitions,
        ...(record.acquireTime ? { acquireTime: new V1MicroTime(record.acquireTime.getTime()) } : {}),
        ...(record.renewTime ? { renewTime: new V1MicroTime(record.renewTime.getTime()) } : {}),
      },
    };
  }

  #jittered(ms: number): number {
    return ms + (this.#options.random ?? Math.random)() * JITTER_FACTOR * ms;
  }

  async #withTimeout(attempt: Promise<boolean>, ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    try {
      return await Promise.race([attempt, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
