/**
 * service-storm: S LoadBalancer Services over N initialized nodes are provisioned; once the CCM
 * is quiet, one more (initialized) node joins. Measured from the node's creation until every
 * load balancer in the cloud has it as a backend.
 */
import type { ScenarioName } from '../bench-arguments.js';
import { BenchEnvironment } from '../bench-environment.js';
import { benchServiceName, createBenchInstances, initializedNode, loadBalancerService } from '../bench-objects.js';
import type { MetricDefinition, RowResult } from '../bench-results.js';
import type { CcmPolicy } from '../ccm-policies.js';
import { waitFor } from '../../harness/wait-for.js';
import { waitForQuiet } from './quiet.js';
import { writesByResource } from './node-storm.js';

export const SERVICE_STORM: ScenarioName = 'service-storm';

export const SERVICE_STORM_METRICS: MetricDefinition[] = [
  { key: 'allUpdatedSeconds', label: 'all LBs have the new node (s)', unit: 'seconds', scaling: 'linear', target: 15 },
  { key: 'cloudCalls', label: 'cloud API calls (node added)', unit: 'count', scaling: 'linear' },
  { key: 'throttledCalls', label: 'throttled cloud calls', unit: 'count', scaling: 'linear' },
  { key: 'kubeWrites', label: 'kube API writes (node added)', unit: 'count', scaling: 'linear' },
  { key: 'provisionSeconds', label: 'all LBs provisioned (s)', unit: 'seconds', scaling: 'linear' },
  { key: 'provisionCloudCalls', label: 'cloud API calls (provisioning)', unit: 'count', scaling: 'linear' },
  { key: 'ccmPeakRssMegabytes', label: 'CCM peak RSS (MB)', unit: 'megabytes', scaling: 'constant' },
];

export interface ServiceStormParameters {
  services: number;
  nodes: number;
  latencyMs: number;
  rate: number | undefined;
  apiQps: number;
  timeoutMs: number;
}

export async function runServiceStorm(policy: CcmPolicy, parameters: ServiceStormParameters): Promise<Omit<RowResult, 'values' | 'extrapolated' | 'reportedSize'>> {
  const environment = await BenchEnvironment.start({ latencyMs: parameters.latencyMs, rate: parameters.rate, apiQps: parameters.apiQps });
  try {
    const { emulator } = environment;
    const cloud = environment.cloud.sandbox;
    const instances = createBenchInstances(cloud, parameters.nodes + 1);
    const joining = instances.pop()!;
    for (const instance of instances) emulator.create('nodes', initializedNode(instance));
    for (let index = 0; index < parameters.services; index++) emulator.create('services', loadBalancerService(benchServiceName(index)));

    const provisionStarted = performance.now();
    const ccm = await environment.startCcm(policy);
    const backendsEverywhere = (count: number): (() => string | true) => () => {
      ccm.assertRunning();
      const loadBalancers = cloud.state.listLoadBalancers();
      const ready = loadBalancers.filter((loadBalancer) => loadBalancer.backendInstanceIds.length === count).length;
      return ready === parameters.services && loadBalancers.length === parameters.services ? true : `${ready}/${parameters.services} load balancers with ${count} backends`;
    };
    await waitFor(
      `${parameters.services} load balancers with ${parameters.nodes} backends and every Service with an ingress`,
      (observe) => {
        const state = backendsEverywhere(parameters.nodes)();
        if (state !== true) return observe(state), false;
        const withIngress = emulator.list<{ status?: { loadBalancer?: { ingress?: unknown[] } } }>('services', { namespace: 'default' }).filter(
          (service) => (service.status?.loadBalancer?.ingress?.length ?? 0) > 0,
        ).length;
        observe(`${withIngress}/${parameters.services} services with an ingress`);
        return withIngress === parameters.services;
      },
      parameters.timeoutMs,
      { intervalMs: 100, describeContext: () => ccm.process.report(30), abortIf: ccm.exitedReport },
    );
    const provisionSeconds = (performance.now() - provisionStarted) / 1000;
    const provisionCloudCalls = (await environment.cloudCalls()).calls;
    await waitForQuiet(environment, ccm, parameters.timeoutMs);
    await environment.resetCounters();

    const started = performance.now();
    emulator.create('nodes', initializedNode(joining));
    await waitFor(
      `every load balancer to have the new node`,
      (observe) => {
        const state = backendsEverywhere(parameters.nodes + 1)();
        if (state === true) return true;
        observe(state);
        return false;
      },
      parameters.timeoutMs,
      { intervalMs: 20, describeContext: () => ccm.process.report(30), abortIf: ccm.exitedReport },
    );
    const allUpdatedSeconds = (performance.now() - started) / 1000;
    // The last backends are set; let the status and event writes that follow land before counting.
    await waitForQuiet(environment, ccm, parameters.timeoutMs);
    const calls = await environment.cloudCalls();
    const kube = emulator.requestCounts();
    const peakRss = await ccm.peakRssBytes();
    return {
      scenario: SERVICE_STORM,
      policy: policy.name,
      label: policy.label,
      measuredSize: parameters.services,
      measured: {
        allUpdatedSeconds,
        cloudCalls: calls.calls,
        throttledCalls: calls.throttled,
        kubeWrites: kube.writes,
        provisionSeconds,
        provisionCloudCalls,
        ccmPeakRssMegabytes: peakRss === undefined ? undefined : peakRss / 1024 / 1024,
      },
      notes: [`cloud calls by operation (node added): ${JSON.stringify(calls.byOperation)}`, `kube writes (node added): ${JSON.stringify(writesByResource(kube.byResource))}`],
    };
  } finally {
    await environment.close();
  }
}
