import { hostname } from 'node:os';
import { DEFAULT_LEASE_NAME, DEFAULT_LEASE_NAMESPACE } from '@ccm/core/api';
import { describe, expect, it } from 'vitest';
import { parseMetricSamples } from '../../harness/ccm-endpoints.js';
import type { KubeLease } from '../../harness/kube-objects.js';
import type { CcmInstance } from '../../harness/test-cluster.js';
import { expectToHold } from '../../harness/wait-for.js';
import type { ProviderDriver } from '../provider-driver.js';
import { SCENARIO_TIMEOUT_MS, useGroupCluster, type GroupContext } from '../scenario-context.js';
import { addInitializedNode } from '../scenario-helpers.js';

const LEASE = `${DEFAULT_LEASE_NAMESPACE}/${DEFAULT_LEASE_NAME}`;

function readLease(context: GroupContext): Promise<KubeLease | undefined> {
  return context.cluster.client.findLease(DEFAULT_LEASE_NAMESPACE, DEFAULT_LEASE_NAME);
}

async function leaderGauge(instance: CcmInstance): Promise<number | undefined> {
  const response = await instance.metrics();
  return parseMetricSamples(response.body).find(
    (sample) => sample.name === 'leader_election_master_status' && sample.labels['name'] === DEFAULT_LEASE_NAME,
  )?.value;
}

/** Leader election over the `kube-system/cloud-controller-manager` Lease. */
export function registerLeaderElectionScenarios(driver: ProviderDriver): void {
  describe('leader election', { timeout: SCENARIO_TIMEOUT_MS }, () => {
    const context = useGroupCluster(driver, { startCcm: false });

    it('lets exactly one of two replicas lead, and hands over when the leader dies', async () => {
      const cluster = context.cluster;
      const first = await cluster.startCcm(driver.ccmProcess(), { label: 'replica-a' });
      const firstLease = await cluster.waitFor(`replica-a to acquire the Lease ${LEASE}`, async (observe) => {
        const lease = await readLease(context);
        observe(lease?.spec);
        return lease?.spec?.holderIdentity ? lease : undefined;
      });
      const firstHolder = firstLease.spec?.holderIdentity ?? '';
      expect(firstHolder.startsWith(`${hostname()}_`), `holder identity ${firstHolder} is <hostname>_<unique id>`).toBe(true);

      const second = await cluster.startCcm(driver.ccmProcess(), { label: 'replica-b' });
      await expectToHold(
        `the Lease to stay with replica-a (${firstHolder}) while replica-b runs`,
        async (observe) => {
          const lease = await readLease(context);
          observe(lease?.spec);
          return lease?.spec?.holderIdentity === firstHolder;
        },
        3_000,
        { abortIf: () => cluster.unexpectedExit() },
      );
      expect((await second.healthz()).status, 'a follower is healthy').toBe(200);
      expect(await leaderGauge(first), 'replica-a leader_election_master_status').toBe(1);
      expect(await leaderGauge(second), 'replica-b leader_election_master_status').toBe(0);
      await addInitializedNode(context, 'leader-a');

      // SIGKILL: the lease is not released, replica-b takes over once it expires.
      await first.kill();
      const handedOver = await cluster.waitFor(`replica-b to take over the Lease ${LEASE} from ${firstHolder}`, async (observe) => {
        const lease = await readLease(context);
        observe(lease?.spec);
        const holder = lease?.spec?.holderIdentity;
        return holder && holder !== firstHolder ? lease : undefined;
      });
      expect(handedOver.spec?.leaseTransitions ?? 0).toBeGreaterThan(firstLease.spec?.leaseTransitions ?? 0);
      await cluster.waitFor('replica-b to report itself leader on /metrics', async (observe) => {
        const gauge = await leaderGauge(second);
        observe(gauge);
        return gauge === 1;
      });

      // Only replica-b is alive: it is the one initializing nodes now.
      await addInitializedNode(context, 'leader-b');
    });
  });
}
