import {
  CloudConfigError,
  cloudProviders,
  createCloudApiObserver,
  type CloudProvider,
  type CloudProviderFactory,
  type CloudProviderRegistry,
  type Logger,
} from '@ccm/core';
import { readSandboxCloudConfig, type SandboxCloudConfig } from './config/sandbox-cloud-config.js';
import { InstanceOperations } from './operations/instance-operations.js';
import { LoadBalancerOperations } from './operations/load-balancer-operations.js';
import { RouteOperations } from './operations/route-operations.js';
import { HttpSandboxCloudClient } from './ports/http-sandbox-cloud-client.js';
import { retrySandboxCalls } from './ports/retry-sandbox-calls.js';
import type { SandboxCloudClient } from './ports/sandbox-cloud-client.js';
import { wrapSandboxCloudClient, type SandboxCallWrapper } from './ports/wrap-sandbox-cloud-client.js';
import { SandboxInstances } from './sandbox-instances.js';
import { SandboxLoadBalancers } from './sandbox-load-balancers.js';
import { SANDBOX_PROVIDER_NAME } from './sandbox-provider-id.js';
import { SandboxRoutes } from './sandbox-routes.js';

export interface SandboxCloudDependencies {
  logger: Logger;
  /** The raw port; default the HTTP client for `config.url`. Retries are added on top either way. */
  client?: SandboxCloudClient;
  /** Decorators around every HTTP attempt (metrics, tracing), outermost first; retries wrap them. */
  decorators?: SandboxCallWrapper[];
  /** Injected into the retry decorator (tests). */
  sleep?: (delayMs: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * The composition root: config -> port (+ retries, + decorators) -> operations -> capabilities.
 * InstancesV2, LoadBalancer and Routes; Instances (v1), Zones and Clusters are not offered.
 */
export function createSandboxCloud(config: SandboxCloudConfig, dependencies: SandboxCloudDependencies): CloudProvider {
  const logger = dependencies.logger.child({ provider: SANDBOX_PROVIDER_NAME });
  let client = dependencies.client ?? new HttpSandboxCloudClient({ url: config.url, requestTimeoutMs: config.requestTimeoutMs });
  for (const decorator of [...(dependencies.decorators ?? [])].reverse()) client = wrapSandboxCloudClient(client, decorator);
  if (config.retries > 0) {
    const retryPolicy: Parameters<typeof retrySandboxCalls>[0] = { attempts: config.retries + 1 };
    if (dependencies.sleep !== undefined) retryPolicy.sleep = dependencies.sleep;
    client = wrapSandboxCloudClient(client, retrySandboxCalls(retryPolicy));
  }

  const clusterIdentity = (clusterName: string): string => (config.clusterId === '' ? clusterName : config.clusterId);
  const instanceOperations = new InstanceOperations(client, { region: config.region });
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
  return createSandboxCloud(config, { logger: context.logger, decorators: [(operation, call) => observer.observe(operation, call)] });
};

/** Registers `sandbox` in a provider registry (the process-wide one by default). */
export function registerSandboxCloudProvider(registry: CloudProviderRegistry = cloudProviders): CloudProviderRegistry {
  if (!registry.isRegistered(SANDBOX_PROVIDER_NAME)) registry.register(SANDBOX_PROVIDER_NAME, sandboxCloudProviderFactory);
  return registry;
}
