import { InMemoryKubeAccess } from '@ccm/testing/kube';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ControllerConstructor } from '../controllers/controller.js';
import type { LeaderElectorOptions, StoppedLeadingReason } from '../kube/leader-election.js';
import type { ControllerName } from '../names/controller-names.js';
import { CapturedOutput, TempDirectory, createTestRegistry, runnableInMemoryKube, waitFor } from './test-support/command-harness.js';
import { runCloudControllerManager } from './run-cloud-controller-manager.js';
import type { LeaderElection } from './run-modes.js';

/** A lease the test grants and takes away; it records the options it was created with. */
class GrantedLease implements LeaderElection {
  released = 0;
  readonly options: LeaderElectorOptions;
  #grant: (() => void) | undefined;
  #lose: (() => void) | undefined;
  #granted: Promise<void>;

  constructor(options: LeaderElectorOptions, grantAtOnce: boolean) {
    this.options = options;
    this.#granted = grantAtOnce ? Promise.resolve() : new Promise((resolve) => (this.#grant = resolve));
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.race([this.#granted, new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))]);
    if (signal.aborted) return this.options.onStoppedLeading('cancelled' satisfies StoppedLeadingReason);
    const leadership = new AbortController();
    await this.options.onStartedLeading(leadership.signal);
    await new Promise<void>((resolve) => {
      this.#lose = resolve;
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    leadership.abort();
    this.options.onStoppedLeading(signal.aborted ? 'cancelled' : 'lost');
  }

  grant(): void {
    this.#grant?.();
  }

  lose(): void {
    this.#lose?.();
  }

  async release(): Promise<void> {
    this.released += 1;
  }

  check(): Error | undefined {
    return undefined;
  }

  leadershipValidUntil(): number {
    return Number.POSITIVE_INFINITY;
  }
}

const MIGRATION_LEASE = 'cloud-provider-extraction-migration';

describe('runCloudControllerManager: leader migration (upstream cloud-provider Run with a LeaderMigrator)', () => {
  const directory = new TempDirectory();
  let stop: AbortController;
  let stderr: CapturedOutput;
  let leases: GrantedLease[];
  let running: Set<ControllerName>;
  let startOrder: ControllerName[];

  beforeEach(async () => {
    await directory.create();
    stop = new AbortController();
    stderr = new CapturedOutput();
    leases = [];
    running = new Set();
    startOrder = [];
  });
  afterEach(async () => {
    stop.abort();
    await directory.remove();
  });

  const recording =
    (name: ControllerName): ControllerConstructor =>
    () => ({
      name,
      run: (signal) =>
        new Promise<void>((resolve) => {
          running.add(name);
          startOrder.push(name);
          signal.addEventListener(
            'abort',
            () => {
              running.delete(name);
              resolve();
            },
            { once: true },
          );
        }),
    });
  const constructors: Partial<Record<ControllerName, ControllerConstructor>> = {
    'cloud-node-controller': recording('cloud-node-controller'),
    'cloud-node-lifecycle-controller': recording('cloud-node-lifecycle-controller'),
    'service-lb-controller': recording('service-lb-controller'),
    'node-route-controller': recording('node-route-controller'),
  };

  async function start(argv: string[]): Promise<number> {
    const kubeconfig = await directory.kubeconfig();
    const kube = new InMemoryKubeAccess();
    return runCloudControllerManager({
      commandName: 'test-ccm',
      registry: createTestRegistry(),
      argv: ['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, '--secure-port=0', '--cluster-cidr=10.244.0.0/16', ...argv],
      env: {},
      stdout: new CapturedOutput(),
      stderr,
      handleSignals: false,
      signal: stop.signal,
      shutdownTimeoutMs: 2_000,
      controllerConstructors: constructors,
      dependencies: {
        createKubeAccess: () => runnableInMemoryKube(kube),
        createLeaderElector: (options) => {
          const lease = new GrantedLease(options, options.name === 'cloud-controller-manager');
          leases.push(lease);
          return lease;
        },
      },
    });
  }

  const lease = (name: string): GrantedLease | undefined => leases.find((each) => each.options.name === name);

  it('with the default configuration, runs route, service and cloud-node-lifecycle only once it holds the migration lease too', async () => {
    const exit = start(['--enable-leader-migration']);
    await waitFor(() => running.has('cloud-node-controller') && lease(MIGRATION_LEASE) !== undefined, 'the main controllers and the migration campaign');
    // Held for a while: nothing migrated runs before the migration lease is granted.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect([...running]).toEqual(['cloud-node-controller']);
    const main = lease('cloud-controller-manager');
    const migration = lease(MIGRATION_LEASE);
    expect(migration?.options.namespace).toBe('kube-system');
    expect(migration?.options.identity).toBe(main?.options.identity);
    expect(main?.options.identity).toMatch(/^.+_[0-9a-f-]{36}$/);

    migration?.grant();
    await waitFor(() => running.size === 4, 'the migrated controllers');
    expect(startOrder).toEqual(['cloud-node-controller', 'cloud-node-lifecycle-controller', 'service-lb-controller', 'node-route-controller']);
    expect(stderr.text).toContain('"leader migration: starting migrated controllers"');

    stop.abort();
    expect(await exit).toBe(0);
    expect(running.size).toBe(0);
    expect(migration?.released).toBe(1);
    expect(main?.released).toBe(1);
  });

  it('never starts the controllers assigned to kube-controller-manager, and does not campaign when none is assigned to it', async () => {
    const path = await directory.write(
      'migration.yaml',
      [
        'apiVersion: controllermanager.config.k8s.io/v1',
        'kind: LeaderMigrationConfiguration',
        'leaderName: cloud-provider-extraction-migration',
        'resourceLock: leases',
        'controllerLeaders:',
        '  - name: route',
        '    component: kube-controller-manager',
        '  - name: service',
        '    component: kube-controller-manager',
        '',
      ].join('\n'),
    );
    const exit = start(['--enable-leader-migration', `--leader-migration-config=${path}`]);
    await waitFor(() => running.size === 2, 'the controllers of the main lease');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect([...running].sort()).toEqual(['cloud-node-controller', 'cloud-node-lifecycle-controller']);
    expect(lease(MIGRATION_LEASE)).toBeUndefined();
    expect(stderr.text).toContain('leader migration: \\"service-lb-controller\\" is run by another controller manager');
    stop.abort();
    expect(await exit).toBe(0);
  });

  it('uses the leaderName of the file and accepts canonical names with component cloud-controller-manager', async () => {
    const path = await directory.write(
      'migration.yaml',
      'apiVersion: controllermanager.config.k8s.io/v1alpha1\nkind: LeaderMigrationConfiguration\nleaderName: my-migration\nresourceLock: leases\ncontrollerLeaders:\n  - name: service-lb-controller\n    component: cloud-controller-manager\n',
    );
    const exit = start(['--enable-leader-migration', `--leader-migration-config=${path}`]);
    await waitFor(() => lease('my-migration') !== undefined && running.size === 3, 'the main controllers and the campaign for my-migration');
    expect(running.has('service-lb-controller')).toBe(false);
    lease('my-migration')?.grant();
    await waitFor(() => running.has('service-lb-controller'), 'the service controller');
    stop.abort();
    expect(await exit).toBe(0);
  });

  it('exits 1 with "migration leaderelection lost" when the migration lease is lost, stopping every controller', async () => {
    const exit = start(['--enable-leader-migration']);
    await waitFor(() => lease(MIGRATION_LEASE) !== undefined, 'the migration campaign');
    lease(MIGRATION_LEASE)?.grant();
    await waitFor(() => running.size === 4, 'every controller');
    lease(MIGRATION_LEASE)?.lose();
    expect(await exit).toBe(1);
    expect(stderr.text).toContain('"migration leaderelection lost"');
    expect(running.size).toBe(0);
    expect(lease(MIGRATION_LEASE)?.released).toBe(0);
  });

  it('without --enable-leader-migration runs everything under the main lease only', async () => {
    const exit = start([]);
    await waitFor(() => running.size === 4, 'every controller');
    expect(leases.map((each) => each.options.name)).toEqual(['cloud-controller-manager']);
    stop.abort();
    expect(await exit).toBe(0);
  });
});
