import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { metricFamilyNames, parseMetricSamples } from '../../harness/ccm-endpoints.js';
import { waitFor } from '../../harness/wait-for.js';
import { startDelegatedAuthCcm, type DelegatedAuthCcm } from '../../serving/delegated-auth-ccm.js';
import { fetchSecurePort, grantDocumentedMetricsReader } from '../../serving/secure-port-client.js';
import type { ProviderDriver, ProviderDriverCapabilities } from '../provider-driver.js';
import { GROUP_HOOK_TIMEOUT_MS, SCENARIO_TIMEOUT_MS, useGroupCluster, type GroupContext, type SuiteSettings } from '../scenario-context.js';
import { addInitializedNode } from '../scenario-helpers.js';

/** Upstream metric families a CCM with these capabilities exposes (core-checklist §4.1). */
export function expectedMetricFamilies(capabilities: ProviderDriverCapabilities): string[] {
  const names = [
    'node_controller_cloud_provider_taint_removal_delay_seconds',
    'node_controller_initial_node_sync_delay_seconds',
    'running_managed_controllers',
    'leader_election_master_status',
    'workqueue_adds_total',
    'workqueue_depth',
    'workqueue_queue_duration_seconds',
    'workqueue_work_duration_seconds',
    'workqueue_retries_total',
  ];
  if (capabilities.loadBalancer) {
    names.push(
      'service_controller_loadbalancer_sync_total',
      'service_controller_nodesync_error_total',
      'service_controller_nodesync_latency_seconds',
      'service_controller_update_loadbalancer_host_latency_seconds',
    );
  }
  if (capabilities.routes) names.push('route_controller_route_sync_total');
  return names;
}

/** The `running_managed_controllers` names (metrics labels) of the controllers that must run. */
export function expectedRunningControllers(capabilities: ProviderDriverCapabilities): string[] {
  const names = ['cloud-node', 'cloud-node-lifecycle'];
  if (capabilities.loadBalancer) names.push('service');
  if (capabilities.routes) names.push('route');
  return names;
}

/**
 * The secure port: /healthz and /metrics. On the real kube-apiserver the CCM delegates
 * authentication and authorization to it as upstream's does (no `/metrics` in the always-allow
 * paths), and the scrape is Prometheus', as docs/troubleshooting.md sets it up: a ServiceAccount
 * token, allowed by the documented RBAC. The emulator cannot review tokens, so there the CCM
 * serves `/metrics` to anonymous scrapes (the suite's common flags).
 */
export function registerServingScenarios(driver: ProviderDriver, suite: SuiteSettings): void {
  describe('serving', { timeout: SCENARIO_TIMEOUT_MS }, () => {
    const delegated = suite.kubeApi === 'real';
    const context = useGroupCluster(driver, suite, { startCcm: !delegated });
    const secured = delegated ? useDelegatedAuthCcm(driver, context) : undefined;
    const securePort = (): number => secured?.ccm().securePort ?? context.ccm.securePort;
    const scrape = () => fetchSecurePort(securePort(), '/metrics', secured ? { token: secured.reader().token } : {});

    it('answers /healthz with 200 ok', async () => {
      // Wait for the CCM to serve and hold the lease (/healthz has upstream's checks; the
      // informer-sync check is on /readyz only).
      const response = await context.cluster.waitFor('/healthz to answer 200', async (observe) => {
        const answer = await fetchSecurePort(securePort(), '/healthz');
        observe(`HTTP ${answer.status}: ${answer.body.slice(0, 300)}`);
        return answer.status === 200 ? answer : undefined;
      });
      expect(response.body.trim()).toBe('ok');
    });

    it(`serves the upstream metric names on /metrics${delegated ? ' to a token allowed by the documented RBAC' : ''}`, async () => {
      // A node initialization fills the node-controller histograms and the Nodes work queue.
      await addInitializedNode(context, 'metrics');
      // The histograms are observed right after the node's writes: poll until the scrape shows them.
      const response = await context.cluster.waitFor('/metrics to show the node initialization', async (observe) => {
        const result = await scrape();
        const count = parseMetricSamples(result.body).find((sample) => sample.name === 'node_controller_initial_node_sync_delay_seconds_count')?.value ?? 0;
        observe({ status: result.status, node_controller_initial_node_sync_delay_seconds_count: count });
        return result.status === 200 && count >= 1 ? result : undefined;
      });
      expect(response.status, response.body.slice(0, 300)).toBe(200);

      const families = metricFamilyNames(response.body);
      const missing = expectedMetricFamilies(driver.capabilities).filter((name) => !families.has(name));
      expect(missing, `metric families missing from /metrics`).toEqual([]);

      const samples = parseMetricSamples(response.body);
      const running = samples
        .filter((sample) => sample.name === 'running_managed_controllers' && sample.value === 1)
        .map((sample) => sample.labels['name']);
      for (const name of expectedRunningControllers(driver.capabilities)) {
        expect(running, `running_managed_controllers{name="${name}"} == 1`).toContain(name);
      }
      const observedSyncs = samples.find((sample) => sample.name === 'node_controller_initial_node_sync_delay_seconds_count');
      expect(observedSyncs?.value ?? 0).toBeGreaterThanOrEqual(1);
      const leader = samples.find((sample) => sample.name === 'leader_election_master_status' && sample.labels['name'] === 'cloud-controller-manager');
      expect(leader?.value, 'leader_election_master_status{name="cloud-controller-manager"}').toBe(1);
    });

    if (delegated) {
      it('refuses /metrics to anonymous scrapes (403) and to tokens the cluster does not know (401)', async () => {
        const anonymous = await fetchSecurePort(securePort(), '/metrics');
        expect(anonymous.status).toBe(403);
        expect(JSON.parse(anonymous.body)).toMatchObject({ kind: 'Status', reason: 'Forbidden', message: 'forbidden: User "system:anonymous" cannot get path "/metrics"' });
        const unknown = await fetchSecurePort(securePort(), '/metrics', { token: 'not-a-token' });
        expect(unknown.status).toBe(401);
        expect(JSON.parse(unknown.body)).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
      });
    }
  });
}

/**
 * The group's CCM on the real server: started with delegated authentication and authorization
 * after the documented Prometheus RBAC is applied; before the group's teardown it removes the
 * nodes and waits until the CCM cleaned what it made in the cloud, then stops.
 */
function useDelegatedAuthCcm(driver: ProviderDriver, context: GroupContext): { ccm(): DelegatedAuthCcm; reader(): { token: string; user: string } } {
  let ccm: DelegatedAuthCcm | undefined;
  let reader: { token: string; user: string } | undefined;
  beforeAll(async () => {
    reader = await grantDocumentedMetricsReader(context.cluster.client);
    ccm = await startDelegatedAuthCcm(driver.ccmProcess(), { label: `${driver.name}-ccm`, kubeconfigPath: context.cluster.kubeconfigPath });
  }, GROUP_HOOK_TIMEOUT_MS);
  beforeEach((test) => {
    test.onTestFailed(() => {
      if (ccm !== undefined) console.error(`CCM output for failed test "${test.task.name}":\n${ccm.process.report(400)}`);
    });
  });
  afterAll(async () => {
    if (ccm === undefined) return;
    try {
      for (const node of await context.cluster.client.listNodes()) await context.cluster.client.deleteNode(node.metadata.name ?? '');
      await waitFor(`${driver.name} to report no leaked cloud resources after the nodes were deleted`, async (observe) => {
        const leaked = await driver.leakedResources();
        observe(leaked);
        return leaked.length === 0;
      }, 20_000, { describeContext: () => ccm?.process.report(60) ?? '' });
    } finally {
      await ccm.stop();
      ccm = undefined;
    }
  }, GROUP_HOOK_TIMEOUT_MS);
  return {
    ccm: () => {
      if (ccm === undefined) throw new Error('the delegated-auth CCM is only available inside the group\'s tests');
      return ccm;
    },
    reader: () => {
      if (reader === undefined) throw new Error('the metrics reader is only available inside the group\'s tests');
      return reader;
    },
  };
}
