import { randomUUID } from 'node:crypto';
import type { KubeLease } from './kube-objects.js';
import type { KubeTestClient } from './kube-test-client.js';

export interface StandInAction {
  /** Local time (ms) of the action. */
  at: number;
  what: string;
}

export interface StandInOptions {
  namespace: string;
  leaseName: string;
  /** How long the lease is valid without renewal (the suite's CCMs use 3 s). */
  leaseDurationSeconds: number;
  /** Renewal and action period. */
  periodMs: number;
  /** One "controller sync" per period while the lease is held (e.g. marking a Service); its description is recorded. */
  act(): Promise<string>;
}

/**
 * A stand-in for kube-controller-manager during leader migration: it holds the migration Lease
 * (written by hand over the test client, independent of the CCM's leader election) and, while it
 * holds it, "runs" the migrated controllers by calling `act` every period and recording when.
 * `stop()` is what a KCM does when it is shut down: it stops acting first, then releases the Lease
 * (empty holder, as client-go's ReleaseOnCancel), so another controller manager can take it at once.
 */
export class StandInKubeControllerManager {
  readonly identity = `kube-controller-manager-stand-in_${randomUUID()}`;
  readonly actions: StandInAction[] = [];
  /** Local time the Lease was acquired, and the time acting stopped (before the release). */
  acquiredAt: number | undefined;
  stoppedActingAt: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #loop: Promise<void> = Promise.resolve();
  #failure: unknown;

  constructor(
    private readonly client: KubeTestClient,
    private readonly options: StandInOptions,
  ) {}

  private get path(): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(this.options.namespace)}/leases/${encodeURIComponent(this.options.leaseName)}`;
  }

  /** Creates the Lease (it must not exist yet: the stand-in is the first holder) and starts renewing and acting. */
  async start(): Promise<void> {
    const now = new Date();
    await this.client.request<KubeLease>('POST', `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(this.options.namespace)}/leases`, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: this.options.leaseName, namespace: this.options.namespace },
      spec: {
        holderIdentity: this.identity,
        leaseDurationSeconds: this.options.leaseDurationSeconds,
        acquireTime: microTime(now),
        renewTime: microTime(now),
        leaseTransitions: 0,
      },
    });
    this.acquiredAt = now.getTime();
    this.#schedule();
  }

  /** Throws what made the renew/act loop fail, if anything did. */
  check(): void {
    if (this.#failure !== undefined) throw new Error(`the stand-in kube-controller-manager failed: ${String(this.#failure)}`);
  }

  /** Stops acting, then releases the Lease. */
  async stop(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#loop;
    this.stoppedActingAt = Date.now();
    this.check();
    const lease = await this.client.request<KubeLease>('GET', this.path);
    if (lease.spec?.holderIdentity !== this.identity) throw new Error(`the stand-in lost the Lease to ${lease.spec?.holderIdentity ?? '(nobody)'} before it stopped`);
    const now = microTime(new Date());
    await this.client.request('PUT', this.path, { ...lease, spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now } });
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.#loop = this.#tick().catch((error: unknown) => {
        this.#failure = error;
      });
      void this.#loop.then(() => {
        if (this.#timer !== undefined && this.#failure === undefined) this.#schedule();
      });
    }, this.options.periodMs);
  }

  async #tick(): Promise<void> {
    const lease = await this.client.request<KubeLease>('GET', this.path);
    if (lease.spec?.holderIdentity !== this.identity) throw new Error(`the Lease is held by ${lease.spec?.holderIdentity ?? '(nobody)'}, not by the stand-in`);
    await this.client.request('PUT', this.path, { ...lease, spec: { ...lease.spec, renewTime: microTime(new Date()) } });
    // Act only with a renewed lease, as a controller manager's controllers run only while it leads.
    if (this.#timer === undefined) return;
    const at = Date.now();
    const what = await this.options.act();
    this.actions.push({ at, what });
  }
}

/** metav1.MicroTime: RFC 3339 with microseconds. */
function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
