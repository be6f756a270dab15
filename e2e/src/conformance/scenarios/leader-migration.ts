import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_LEASE_NAMESPACE, FINALIZER_LOAD_BALANCER_CLEANUP } from '@ccm/core/api';
import { DEFAULT_MIGRATION_LEADER_NAME } from '@ccm/core/app';
import { describe, expect, it } from 'vitest';
import type { KubeLease, KubeService } from '../../harness/kube-objects.js';
import { StandInKubeControllerManager } from '../../harness/stand-in-kube-controller-manager.js';
import type { CcmInstance } from '../../harness/test-cluster.js';
import { expectToHold } from '../../harness/wait-for.js';
import type { ProviderDriver } from '../provider-driver.js';
import { SCENARIO_TIMEOUT_MS, uniqueName, useGroupCluster, type GroupContext, type SuiteSettings } from '../scenario-context.js';
import { addInitializedNode, loadBalancerService, serviceReference } from '../scenario-helpers.js';

const MIGRATION_LEASE = `${DEFAULT_LEASE_NAMESPACE}/${DEFAULT_MIGRATION_LEADER_NAME}`;
/** The suite's `--leader-elect-lease-duration` (ccm-flags.ts); the stand-in uses the same. */
const LEASE_DURATION_SECONDS = 3;
const STAND_IN_PERIOD_MS = 500;
/** Outside the routes group's pod CIDRs (10.244.1-200.0/24). */
const POD_CIDR = '10.244.240.0/24';
const STAND_IN_MARK = 'conformance.ccm.test/synced-by-kube-controller-manager-at';
/** What the ccm logs when its migrated controllers start (run-controllers.ts). */
const MIGRATED_CONTROLLERS_STARTED = 'leader migration: starting migrated controllers';

/** A LeaderMigrationConfiguration as the upstream docs show it, assigning route and service to `component`. */
function migrationConfiguration(component: 'kube-controller-manager' | 'cloud-controller-manager'): string {
  return [
    'kind: LeaderMigrationConfiguration',
    'apiVersion: controllermanager.config.k8s.io/v1',
    `leaderName: ${DEFAULT_MIGRATION_LEADER_NAME}`,
    'resourceLock: leases',
    'controllerLeaders:',
    '  - name: route',
    `    component: ${component}`,
    '  - name: service',
    `    component: ${component}`,
    '',
  ].join('\n');
}

function readMigrationLease(context: GroupContext): Promise<KubeLease | undefined> {
  return context.cluster.client.findLease(DEFAULT_LEASE_NAMESPACE, DEFAULT_MIGRATION_LEADER_NAME);
}

/**
 * Leader migration (KEP-2436): a stand-in kube-controller-manager holds the migration Lease and
 * runs `route` and `service`; the CCM runs with `--enable-leader-migration`, first with a file
 * assigning them to kube-controller-manager, then (the upgrade) with one assigning them to
 * cloud-controller-manager. When the stand-in stops and releases the Lease, the CCM takes it
 * and the two controllers: the stand-in's actions and the CCM's never overlap, and the CCM
 * provisions the load balancer and the route only once it holds the migration Lease.
 */
export function registerLeaderMigrationScenarios(driver: ProviderDriver, suite: SuiteSettings): void {
  describe('leader migration', { timeout: SCENARIO_TIMEOUT_MS }, () => {
    const context = useGroupCluster(driver, suite, { startCcm: false });

    it('hands route and service over from kube-controller-manager to the CCM without a gap or overlap', async () => {
      const cluster = context.cluster;
      const services: KubeService[] = [];
      const standIn = new StandInKubeControllerManager(cluster.client, {
        namespace: DEFAULT_LEASE_NAMESPACE,
        leaseName: DEFAULT_MIGRATION_LEADER_NAME,
        leaseDurationSeconds: LEASE_DURATION_SECONDS,
        periodMs: STAND_IN_PERIOD_MS,
        async act() {
          const at = new Date().toISOString();
          for (const service of services) {
            await cluster.client.patchService('default', service.metadata.name ?? '', { metadata: { annotations: { [STAND_IN_MARK]: at } } });
          }
          return `synced ${services.length} service(s) and the routes`;
        },
      });
      await standIn.start();

      // Version N: the CCM runs with the file that leaves route and service to kube-controller-manager.
      const kcmFile = join(cluster.directory, 'leader-migration-kcm.yaml');
      await writeFile(kcmFile, migrationConfiguration('kube-controller-manager'));
      const before = await cluster.startCcm(driver.ccmProcess(), {
        label: 'ccm-before-upgrade',
        extraFlags: ['--enable-leader-migration', `--leader-migration-config=${kcmFile}`],
      });
      // Its main-lease controllers run: nodes get initialized.
      const { node } = await addInitializedNode(context, 'migration', { podCidrs: [POD_CIDR] });
      const nodeName = node.metadata.name ?? '';
      const service = await cluster.client.createService(loadBalancerService(uniqueName('migration-lb')));
      services.push(service);

      const untouched = async (observe: (observation: unknown) => void, instances: readonly CcmInstance[]): Promise<boolean> => {
        standIn.check();
        const lease = await readMigrationLease(context);
        const current = await cluster.client.getService('default', service.metadata.name ?? '');
        const routes = driver.capabilities.routes ? await driver.readRoutes() : [];
        const loadBalancer = driver.capabilities.loadBalancer ? await driver.readLoadBalancer(serviceReference(service)) : undefined;
        const started = instances.filter((instance) => instance.process.outputIncludes(MIGRATED_CONTROLLERS_STARTED)).map((instance) => instance.label);
        observe({ holder: lease?.spec?.holderIdentity, finalizers: current.metadata.finalizers, ingress: current.status?.loadBalancer?.ingress, routes, loadBalancer, started });
        return (
          lease?.spec?.holderIdentity === standIn.identity &&
          !(current.metadata.finalizers ?? []).includes(FINALIZER_LOAD_BALANCER_CLEANUP) &&
          (current.status?.loadBalancer?.ingress ?? []).length === 0 &&
          !routes.some((route) => route.destinationCidr === POD_CIDR) &&
          loadBalancer?.exists !== true &&
          started.length === 0
        );
      };
      await expectToHold('kube-controller-manager to keep route and service: the CCM provisions nothing', (observe) => untouched(observe, [before]), 3_000, {
        abortIf: () => cluster.unexpectedExit(),
      });

      // The upgrade: the CCM of version N+1 comes with the file assigning both to cloud-controller-manager.
      const ccmFile = join(cluster.directory, 'leader-migration-ccm.yaml');
      await writeFile(ccmFile, migrationConfiguration('cloud-controller-manager'));
      const after = await cluster.startCcm(driver.ccmProcess(), {
        label: 'ccm-after-upgrade',
        extraFlags: ['--enable-leader-migration', `--leader-migration-config=${ccmFile}`],
      });
      await before.stop();
      await cluster.waitFor('ccm-after-upgrade to campaign for the migration lease', (observe) => {
        observe(after.process.outputTail(5));
        return after.process.outputIncludes('leader migration: campaigning for the migration lease');
      });
      // Both want the controllers now; the Lease keeps them with kube-controller-manager.
      await expectToHold('route and service to stay with kube-controller-manager while it holds the Lease', (observe) => untouched(observe, [after]), 2_000, {
        abortIf: () => cluster.unexpectedExit(),
      });

      // kube-controller-manager N stops: it stops its controllers, then gives the Lease up.
      await standIn.stop();
      const stoppedAt = standIn.stoppedActingAt ?? 0;
      const taken = await cluster.waitFor(`the CCM to take the migration lease ${MIGRATION_LEASE}`, async (observe) => {
        const lease = await readMigrationLease(context);
        observe(lease?.spec);
        const holder = lease?.spec?.holderIdentity ?? '';
        return holder !== '' && holder !== standIn.identity ? lease : undefined;
      });
      const ccmAcquiredAt = Date.parse(taken.spec?.acquireTime ?? '');
      expect(Number.isNaN(ccmAcquiredAt), `acquireTime ${taken.spec?.acquireTime} is a time`).toBe(false);

      if (driver.capabilities.loadBalancer) {
        await cluster.waitFor(`the CCM to provision the load balancer of ${service.metadata.name}`, async (observe) => {
          const current = await cluster.client.getService('default', service.metadata.name ?? '');
          observe(current.status?.loadBalancer);
          return (current.status?.loadBalancer?.ingress ?? []).length > 0;
        });
      }
      if (driver.capabilities.routes) {
        await cluster.waitFor(`the CCM to create the route ${POD_CIDR} -> ${nodeName}`, async (observe) => {
          const routes = await driver.readRoutes();
          observe(routes);
          return routes.some((route) => route.destinationCidr === POD_CIDR && route.targetNodeName === nodeName);
        });
      }
      await cluster.waitFor('ccm-after-upgrade to start its migrated controllers', (observe) => {
        observe(after.process.outputTail(5));
        return after.process.outputIncludes(MIGRATED_CONTROLLERS_STARTED);
      });

      // No overlap: every action of kube-controller-manager came before the CCM held the Lease,
      // and the CCM acted only after it did (checked above: nothing was provisioned before).
      expect(standIn.actions.length, 'the stand-in kube-controller-manager acted while it held the Lease').toBeGreaterThan(0);
      const overlapping = standIn.actions.filter((action) => action.at >= ccmAcquiredAt);
      expect(overlapping, 'moments where both controller managers act').toEqual([]);
      expect(ccmAcquiredAt, 'the CCM acquired the Lease after kube-controller-manager stopped acting').toBeGreaterThanOrEqual(stoppedAt - 1);
      // No gap beyond the handover itself: released, not left to expire (3 s).
      expect(ccmAcquiredAt - stoppedAt, 'ms between kube-controller-manager stopping and the CCM taking over').toBeLessThan(LEASE_DURATION_SECONDS * 1_000);
      const marked = (await cluster.client.getService('default', service.metadata.name ?? '')).metadata.annotations?.[STAND_IN_MARK];
      expect(Date.parse(marked ?? ''), 'the last service sync of kube-controller-manager').toBeLessThan(ccmAcquiredAt);
    });
  });
}
