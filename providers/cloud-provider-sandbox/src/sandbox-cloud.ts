import {
  CloudApiBudget,
  CloudConfigError,
  cloudProviders,
  createCloudApiObserver,
  createCoalescerMetrics,
  type CloudProvider,
  type CloudProviderFactory,
  type CloudProviderFactoryContext,
  type CloudProviderRegistry,
  type Logger,
} from '@ccm/core';
import { readSandboxCloudConfig, type SandboxCloudConfig } from './config/sandbox-cloud-config.js';
import { BatchedInstanceLookup } from './operations/instance-lookup.js';
import { InstanceOperations } from './operations/instance-operations.js';
import { LoadBalancerOperations } from './operations/load-balancer-operations.js';
import { RouteOperations } from './operations/route-operations.js';
import { HttpSandboxCloudPort } from './ports/sdk/http-sandbox-cloud-port.js';
import { retrySandboxCalls } from './ports/retry-sandbox-calls.js';
import type { SandboxCloudPort } from './ports/sandbox-cloud-port.js';
import { wrapSandboxCloudPort, type SandboxCallWrapper } from './ports/wrap-sandbox-cloud-port.js';
import { SandboxInstances } from './sandbox-instances.js';
import { SandboxLoadBalancers } from './sandbox-load-balancers.js';
import { SANDBOX_PROVIDER_NAME } from './provider-id.js';
import { SandboxRoutes } from './sandbox-routes.js';

export interface SandboxCloudDependencies {
  logger: Logger;
  /** The raw port; default the HTTP client for `config.url`. Retries are added on top either way. */
  client?: SandboxCloudPort;
  /** Decorators around every HTTP attempt (metrics, tracing), outermost first; retries wrap them. */
  decorators?: SandboxCallWrapper[];
  /** Injected into the retry decorator (tests). */
  sleep?: (delayMs: number, signal?: AbortSignal) => Promise<void>;
  /** Where the cloud API budget and the lookup coalescer publish their metrics. */
  metrics?: CloudProviderFactoryContext['metrics'];
}

/**
 * How instance lookups are batched (`lookup-policy = batched`). A 20 ms window and one batch
 * call in flight (as AWS): lookups that arrive while the call is out wait and go together, so a
 * storm of 5,000 new nodes costs about 60 calls (one per ~85 nodes; two calls in flight made
 * about 100-130) instead of one per node, at the price of up to 20 ms added to a lookup (the
 * sandbox answers in 100 ms under the benchmark).
 */
export const LOOKUP_COALESCING = { windowMs: 20, maxBatchSize: 100, maxConcurrentBatches: 1 } as const;

/**
 * The composition root: config -> port (+ decorators, + the cloud API budget, + retries) ->
 * operations -> capabilities. InstancesV2, LoadBalancer and Routes; Instances (v1), Zones and
 * Clusters are not offered.
 *
 * Outside in, each call goes: instance lookups through the coalescer (`lookup-policy = batched`),
 * then retries of 5xx and network failures, then the budget (one token per attempt; it retries
 * throttled attempts itself, with adaptive backoff), then the decorators (metrics), then HTTP.
 */
export function createSandboxCloud(config: SandboxCloudConfig, dependencies: SandboxCloudDependencies): CloudProvider {
  const logger = dependencies.logger.child({ provider: SANDBOX_PROVIDER_NAME });
  let client = dependencies.client ?? new HttpSandboxCloudPort({ url: config.url, requestTimeoutMs: config.requestTimeoutMs });
  for (const decorator of [...(dependencies.decorators ?? [])].reverse()) client = wrapSandboxCloudPort(client, decorator);
  const budget =
    config.cloudApi === undefined
      ? undefined
      : new CloudApiBudget({
          provider: SANDBOX_PROVIDER_NAME,
          qps: config.cloudApi.qps,
          burst: config.cloudApi.burst,
          maxAttempts: config.retries + 1,
          logger,
          ...(dependencies.metrics === undefined ? {} : { metrics: dependencies.metrics }),
        });
  if (budget !== undefined) client = wrapSandboxCloudPort(client, (operation, call, signal) => budget.call(operation, call, signal === undefined ? {} : { signal }));
  if (config.retries > 0) {
    const retryPolicy: Parameters<typeof retrySandboxCalls>[0] = { attempts: config.retries + 1, retryThrottled: budget === undefined };
    if (dependencies.sleep !== undefined) retryPolicy.sleep = dependencies.sleep;
    client = wrapSandboxCloudPort(client, retrySandboxCalls(retryPolicy));
  }

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

  return {
    providerName: SANDBOX_PROVIDER_NAME,
    instancesV2: () => instances,
    loadBalancer: () => loadBalancers,
    routes: () => routes,
    // Deprecated capabilities: InstancesV2 replaces Instances and Zones; no controller uses Clusters.
    instances: () => undefined,
    zones: () => undefined,
    clusters: () => undefined,
    hasClusterId: () => config.clusterId !== '',
  };
}

/** The registry factory: reads the `--cloud-config` text (required) and builds the provider. */
export const sandboxCloudProviderFactory: CloudProviderFactory = (configText, context) => {
  const fileName = context.configPath ?? '<cloud-config>';
  if (configText === undefined) {
    throw new CloudConfigError({ fileName, message: 'the sandbox provider needs --cloud-config with [Global] url = <sandbox cloud URL>' });
  }
  const { config, warnings } = readSandboxCloudConfig(configText, fileName);
  for (const warning of warnings) context.logger.warn(`cloud config: ${warning.message}`, { file: warning.fileName, line: warning.line });
  const observer = createCloudApiObserver(context.metrics, SANDBOX_PROVIDER_NAME);
  return createSandboxCloud(config, { logger: context.logger, metrics: context.metrics, decorators: [(operation, call) => observer.observe(operation, call)] });
};

/** Registers `sandbox` in a provider registry (the process-wide one by default). */
export function registerSandboxCloudProvider(registry: CloudProviderRegistry = cloudProviders): CloudProviderRegistry {
  if (!registry.isRegistered(SANDBOX_PROVIDER_NAME)) registry.register(SANDBOX_PROVIDER_NAME, sandboxCloudProviderFactory);
  return registry;
}
