import { CloudApiBudget, createCloudApiObserver, createCoalescerMetrics, type CloudApiObserver } from '@ccm/core/cloud';
import type { Logger } from '@ccm/core/logging';
import { ComposedCloudProvider, defineCloudProvider, type CloudProviderFactory, type CloudProviderFactoryContext, type CloudProviderRegistry } from '@ccm/core/provider';
import { SANDBOX_CLOUD_CONFIG_READER, type SandboxCloudConfig } from './config/sandbox-cloud-config.js';
import { BatchedInstanceLookup } from './operations/instance-lookup.js';
import { InstanceOperations } from './operations/instance-operations.js';
import { LoadBalancerOperations } from './operations/load-balancer-operations.js';
import { RouteOperations } from './operations/route-operations.js';
import type { SandboxCloudPort } from './ports/sandbox-cloud-port.js';
import { SANDBOX_PIPELINE } from './ports/sandbox-port-pipeline.js';
import { HttpSandboxCloudPort } from './ports/sdk/http-sandbox-cloud-port.js';
import { SANDBOX_PROVIDER_NAME } from './provider-id.js';
import { SandboxInstances } from './sandbox-instances.js';
import { SandboxLoadBalancers } from './sandbox-load-balancers.js';
import { SandboxRoutes } from './sandbox-routes.js';

export interface SandboxCloudDependencies {
  logger: Logger;
  /** The raw port; default the HTTP adapter for `config.url`. The pipeline is added on top either way. */
  client?: SandboxCloudPort;
  /** Times every attempt (the cloud API metrics); none when absent. */
  observer?: CloudApiObserver;
  /** Injected into the retry stage (tests). */
  sleep?: (delayMs: number, signal?: AbortSignal) => Promise<void>;
  /** Where the cloud API budget and the lookup coalescer publish their metrics. */
  metrics?: CloudProviderFactoryContext['metrics'];
}

/**
 * How instance lookups are batched (`lookup-policy = batched`). A 20 ms window and one partial
 * batch call in flight (as AWS): lookups that arrive while the call is out wait and go together,
 * so a storm of 5,000 new nodes costs about 60 calls (one per ~85 nodes; two calls of any size in
 * flight made about 100-130) instead of one per node, at the price of up to 20 ms added to a
 * lookup (the sandbox answers in 100 ms under the benchmark). Full batches (100 lookups queued, a
 * storm's backlog) go out two at a time, so their latency overlaps without more calls.
 */
export const LOOKUP_COALESCING = { windowMs: 20, maxBatchSize: 100, maxConcurrentBatches: 1, maxConcurrentFullBatches: 2 } as const;

/** The capabilities the sandbox provider offers (LoadBalancer and Routes unless disabled by config). */
export type SandboxCloudProvider = ComposedCloudProvider<{ instancesV2: SandboxInstances; loadBalancer: SandboxLoadBalancers | undefined; routes: SandboxRoutes | undefined }>;

/**
 * The composition root: config -> port + the port pipeline (core's `composeCloudPort`) ->
 * operations -> capabilities. InstancesV2, LoadBalancer and Routes; Instances (v1), Zones and
 * Clusters are not offered (left out: they are optional).
 *
 * Outside in, each call goes: instance lookups through the coalescer (`lookup-policy = batched`),
 * then retries of 5xx and network failures, then the budget (one token per attempt; it retries
 * throttled attempts itself, with adaptive backoff), then the observer (metrics), then HTTP.
 */
export function createSandboxCloud(config: SandboxCloudConfig, dependencies: SandboxCloudDependencies): SandboxCloudProvider {
  const logger = dependencies.logger.child({ provider: SANDBOX_PROVIDER_NAME });
  const budget =
    config.cloudApi === undefined
      ? undefined
      : SANDBOX_PIPELINE.createBudget(dependencies.metrics, logger, { qps: config.cloudApi.qps, burst: config.cloudApi.burst, maxAttempts: config.retries + 1 });
  const client = SANDBOX_PIPELINE.compose(dependencies.client ?? new HttpSandboxCloudPort({ url: config.url, requestTimeoutMs: config.requestTimeoutMs }), {}, {
    ...(dependencies.observer === undefined ? {} : { observer: dependencies.observer }),
    ...(budget === undefined ? {} : { budget }),
    retry: { maxAttempts: config.retries + 1, ...(dependencies.sleep === undefined ? {} : { sleep: dependencies.sleep }) },
  });

  const clusterIdentity = (clusterName: string): string => (config.clusterId === '' ? clusterName : config.clusterId);
  const lookup =
    config.lookupPolicy === 'batched'
      ? new BatchedInstanceLookup(client, {
          ...LOOKUP_COALESCING,
          ...(dependencies.metrics === undefined ? {} : { observer: createCoalescerMetrics(dependencies.metrics, SANDBOX_PROVIDER_NAME, 'batchGetInstances') }),
        })
      : undefined;
  const instanceOperations = new InstanceOperations(client, { region: config.region, ...(lookup === undefined ? {} : { lookup }) });
  const instances = new SandboxInstances(instanceOperations);
  const loadBalancers = config.loadBalancer.enabled
    ? new SandboxLoadBalancers(new LoadBalancerOperations(client, instanceOperations, logger), clusterIdentity, config.loadBalancer.ingress)
    : undefined;
  const routes = config.routes.enabled ? new SandboxRoutes(new RouteOperations(client, instanceOperations), clusterIdentity) : undefined;

  return new ComposedCloudProvider(SANDBOX_PROVIDER_NAME, { instancesV2: instances, loadBalancer: loadBalancers, routes }, () => config.clusterId !== '');
}

/** The sandbox provider's definition: reads the `--cloud-config` (required), logs its warnings, builds the provider. */
export const sandboxCloudProvider = defineCloudProvider({
  name: SANDBOX_PROVIDER_NAME,
  configSchema: SANDBOX_CLOUD_CONFIG_READER,
  defaultConfigFileName: '<cloud-config>',
  create: (config, context) =>
    createSandboxCloud(config, { logger: context.logger, metrics: context.metrics, observer: createCloudApiObserver(context.metrics, SANDBOX_PROVIDER_NAME) }),
});

/** The registry factory: reads the `--cloud-config` text (required) and builds the provider. */
export const sandboxCloudProviderFactory: CloudProviderFactory = sandboxCloudProvider.factory;

/** Registers `sandbox` in a provider registry (the process-wide one by default). */
export function registerSandboxCloudProvider(registry?: CloudProviderRegistry): CloudProviderRegistry {
  return sandboxCloudProvider.register(registry);
}
