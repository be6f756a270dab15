import { describe, expect, it } from 'vitest';
import { metricFamilyNames, parseMetricSamples } from '../../harness/ccm-endpoints.js';
import type { ProviderDriver, ProviderDriverCapabilities } from '../provider-driver.js';
import { SCENARIO_TIMEOUT_MS, useGroupCluster, type SuiteSettings } from '../scenario-context.js';
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

/** The secure port: /healthz and /metrics. */
export function registerServingScenarios(driver: ProviderDriver, suite: SuiteSettings): void {
  describe('serving', { timeout: SCENARIO_TIMEOUT_MS }, () => {
    const context = useGroupCluster(driver, suite);

    it('answers /healthz with 200 ok', async () => {
      const response = await context.ccm.healthz();
      expect(response.status).toBe(200);
      expect(response.body.trim()).toBe('ok');
    });

    it('serves the upstream metric names on /metrics', async () => {
      // A node initialization fills the node-controller histograms and the Nodes work queue.
      await addInitializedNode(context, 'metrics');
      // The histograms are observed right after the node's writes: poll until the scrape shows them.
      const response = await context.cluster.waitFor('/metrics to show the node initialization', async (observe) => {
        const scrape = await context.ccm.metrics();
        const count = parseMetricSamples(scrape.body).find((sample) => sample.name === 'node_controller_initial_node_sync_delay_seconds_count')?.value ?? 0;
        observe({ status: scrape.status, node_controller_initial_node_sync_delay_seconds_count: count });
        return scrape.status === 200 && count >= 1 ? scrape : undefined;
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
  });
}
