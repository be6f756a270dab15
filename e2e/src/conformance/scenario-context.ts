import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { RecordedKubeRequest } from '../harness/kube-api-proxy.js';
import type { KubeApiKind } from '../harness/kube-api-selection.js';
import type { RbacUsageCollector } from '../harness/rbac-usage.js';
import { TestCluster, type CcmInstance } from '../harness/test-cluster.js';
import { waitFor } from '../harness/wait-for.js';
import type { ProviderDriver } from './provider-driver.js';

/** Bound of one scenario (`it`): several waits of at most 20 s each. */
export const SCENARIO_TIMEOUT_MS = 120_000;
/** Bound of a group's setup and teardown. */
export const GROUP_HOOK_TIMEOUT_MS = 120_000;

export interface GroupContext {
  readonly driver: ProviderDriver;
  /** The cluster of the current group (throws outside its tests). */
  readonly cluster: TestCluster;
  /** The CCM started for the group (throws when the group starts its own). */
  readonly ccm: CcmInstance;
}

/** What every group of one suite run shares: the API server kind and what to collect from it. */
export interface SuiteSettings {
  kubeApi: KubeApiKind;
  /** Real server: the manifests overlay applied for the CCM's RBAC (`manifests/<overlay>`). */
  manifestsOverlay: string;
  /** Real server: gathers the CCM's audited requests of every group. */
  rbacUsage?: RbacUsageCollector;
  /** Real server: receives every request of the CCM and the harness, per group. */
  recordRequests?: (requests: RecordedKubeRequest[]) => void;
  /** Receives the `/metrics` text of the group's CCM, scraped after the group's cleanup (the suite's metric series check). */
  recordMetrics?: (scrape: { group: string; status: number; body: string }) => void;
}

export interface GroupOptions {
  /** Start one CCM in beforeAll (default true); false for groups that manage replicas. */
  startCcm?: boolean;
}

let nameCounter = 0;
const runTag = Math.floor(Math.random() * 36 ** 3).toString(36).padStart(3, '0');

/** A DNS-1123 name unique within this test run, e.g. `lb-k3x-7`. */
export function uniqueName(prefix: string): string {
  nameCounter += 1;
  return `${prefix}-${runTag}-${nameCounter}`;
}

/**
 * Registers the hooks of one scenario group: a fresh API server and (by default) one CCM in
 * beforeAll, the CCM output printed when a test fails, and a teardown that deletes every
 * Service and Node, waits until the CCM cleaned the cloud, then stops everything.
 */
export function useGroupCluster(driver: ProviderDriver, suite: SuiteSettings, options: GroupOptions = {}): GroupContext {
  let cluster: TestCluster | undefined;
  let ccm: CcmInstance | undefined;

  beforeAll(async () => {
    cluster = await TestCluster.start({
      kubeApi: suite.kubeApi,
      manifestsOverlay: suite.manifestsOverlay,
      recordRequests: suite.recordRequests !== undefined,
    });
    if (options.startCcm ?? true) ccm = await cluster.startCcm(driver.ccmProcess(), { label: `${driver.name}-ccm` });
  }, GROUP_HOOK_TIMEOUT_MS);

  beforeEach((context) => {
    context.onTestFailed(() => {
      if (cluster !== undefined) console.error(`CCM output for failed test "${context.task.name}":\n${cluster.report(400)}`);
    });
  });

  afterAll(async () => {
    if (cluster === undefined) return;
    if (process.env['CCM_E2E_SHOW_OUTPUT'] === '1') console.log(`CCM output of the group:\n${cluster.report(5_000)}`);
    try {
      await cleanUpCluster(driver, cluster);
    } finally {
      if (ccm !== undefined && ccm.process.isRunning() && suite.recordMetrics !== undefined) {
        try {
          const scrape = await ccm.metrics();
          suite.recordMetrics({ group: ccm.label, ...scrape });
        } catch (error) {
          console.error(`could not scrape /metrics of the group's CCM: ${String(error)}`);
        }
      }
      try {
        const audit = await cluster.api.rbacAudit();
        if (audit !== undefined) suite.rbacUsage?.add(audit.rules, audit.events);
        suite.recordRequests?.(cluster.api.recordedRequests());
      } catch (error) {
        console.error(`could not read the audit log of the group: ${String(error)}`);
      }
      await cluster.close();
      cluster = undefined;
      ccm = undefined;
    }
  }, GROUP_HOOK_TIMEOUT_MS);

  return {
    driver,
    get cluster(): TestCluster {
      if (cluster === undefined) throw new Error('the group cluster is only available inside its tests');
      return cluster;
    },
    get ccm(): CcmInstance {
      if (ccm === undefined) throw new Error('this group did not start a CCM in beforeAll');
      return ccm;
    },
  };
}

/**
 * Deletes every Service and Node so a running CCM removes what it created, then checks the
 * driver reports nothing leaked. Throws (failing the group) when cloud resources remain.
 */
export async function cleanUpCluster(driver: ProviderDriver, cluster: TestCluster): Promise<void> {
  const someCcmRuns = cluster.ccmInstances().some((instance) => instance.process.isRunning());
  for (const service of await cluster.client.listServices('default')) {
    if (service.metadata.name !== 'kubernetes') await cluster.client.deleteService('default', service.metadata.name ?? '');
  }
  for (const node of await cluster.client.listNodes()) await cluster.client.deleteNode(node.metadata.name ?? '');
  if (!someCcmRuns) return;
  await cluster.waitFor('every Service with a load balancer to be finalized and removed', async (observe) => {
    const remaining = (await cluster.client.listServices('default')).filter((service) => service.metadata.name !== 'kubernetes');
    observe(remaining.map((service) => `${service.metadata.name} finalizers=${JSON.stringify(service.metadata.finalizers ?? [])}`));
    return remaining.length === 0;
  });
  await waitFor(
    `${driver.name} to report no leaked cloud resources after cleanup`,
    async (observe) => {
      const leaked = await driver.leakedResources();
      observe(leaked);
      return leaked.length === 0;
    },
    20_000,
    { describeContext: () => cluster.report(40), intervalMs: 250 },
  );
}
