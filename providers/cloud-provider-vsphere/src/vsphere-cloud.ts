/**
 * The composition root of the vSphere provider:
 * config -> credential sources -> one VcenterPort per vCenter (client, + metrics, + problem
 * reporting) -> operations (discovery, batched property loads, zones) -> InstancesV2.
 * LoadBalancer and Routes need NSX-T upstream and are not offered; Instances (v1), Zones and
 * Clusters are deprecated capabilities InstancesV2 replaces.
 */
import {
  CloudConfigError,
  cloudProviders,
  createCloudApiObserver,
  type CloudInitializeContext,
  type CloudProvider,
  type CloudProviderFactory,
  type CloudProviderFactoryContext,
  type CloudProviderRegistry,
  type Logger,
} from '@ccm/core';
import { readVsphereConfig } from './config/read-vsphere-config.js';
import type { CredentialsSource, VcenterConfig, VsphereConfig } from './config/vsphere-config.js';
import { inlineCredentialSource, type CredentialSource } from './credentials/credential-source.js';
import { DirectoryCredentialSource } from './credentials/directory-credential-source.js';
import { KubeSecretStore } from './credentials/kube-secret-store.js';
import { SecretCredentialSource, type SecretState, type SecretStore } from './credentials/secret-credentials.js';
import { errorMessage } from './errors.js';
import { InstanceLookup, type InstanceLookupOptions } from './operations/instance-lookup.js';
import { NodeDiscovery, type VcenterTarget } from './operations/node-discovery.js';
import { withApiMetrics } from './operations/observed-vcenter-port.js';
import { ProblemReporter } from './operations/problem-reporter.js';
import { withProblemReporting } from './operations/reporting-vcenter-port.js';
import { checkVcenters } from './operations/startup-checks.js';
import { ZoneLookup } from './operations/zone-lookup.js';
import type { VcenterPort } from './ports/vcenter-port.js';
import { checkVcenterTlsOptions, createVsphereClientVcenterPort } from './ports/sdk/vsphere-client-vcenter-port.js';
import { VSPHERE_PROVIDER_NAME } from './provider-id.js';
import { VsphereInstances } from './vsphere-instances.js';

/** The client name the Secret watch uses (`clientBuilder.kubeConfig(...)`). */
export const VSPHERE_KUBE_CLIENT_NAME = 'vsphere-cloud-controller-manager';

export interface VsphereCloudDependencies {
  logger: Logger;
  /** Cloud API metrics go here. */
  metrics?: CloudProviderFactoryContext['metrics'];
  environment?: Readonly<Record<string, string | undefined>>;
  /** Builds a vCenter's raw port; default over @ccm/vsphere-client. */
  createVcenterPort?: (vcenter: VcenterConfig, credentials: CredentialSource, logger: Logger) => VcenterPort;
  /** Credential Secrets; default a Kubernetes watch started by `initialize`. */
  secretStore?: SecretStore;
  lookup?: InstanceLookupOptions;
  /** Wait this long in `initialize` for credential Secrets to be read. Default 10 s. */
  secretSyncTimeoutMs?: number;
}

export interface VsphereCloud extends CloudProvider {
  readonly config: VsphereConfig;
  readonly problems: ProblemReporter;
  /** Stops background work and logs out of every vCenter. */
  close(): Promise<void>;
}

export function createVsphereCloud(config: VsphereConfig, dependencies: VsphereCloudDependencies): VsphereCloud {
  const logger = dependencies.logger.child({ provider: VSPHERE_PROVIDER_NAME });
  const reporter = new ProblemReporter(logger);
  const secrets = new DeferredSecretStore(dependencies.secretStore);
  const observer = dependencies.metrics === undefined ? undefined : createCloudApiObserver(dependencies.metrics, VSPHERE_PROVIDER_NAME);
  const createPort = dependencies.createVcenterPort ?? ((vcenter, credentials, portLogger) => createVsphereClientVcenterPort(vcenter, () => credentials.credentials(), portLogger));

  const targets: VcenterTarget[] = config.vcenters.map((vcenter) => {
    let port = createPort(vcenter, credentialSource(vcenter, secrets), logger.child({ vcenter: vcenter.name }));
    if (observer !== undefined) port = withApiMetrics(port, observer);
    return { config: vcenter, port: withProblemReporting(port, vcenter.server, reporter) };
  });
  const discovery = new NodeDiscovery(targets, { reporter });
  const zones = new ZoneLookup(config.labels);
  const instances = new VsphereInstances({
    lookup: new InstanceLookup(discovery, dependencies.lookup),
    zones,
    nodes: config.nodes,
    logger,
    ...(dependencies.environment === undefined ? {} : { environment: dependencies.environment }),
  });
  let kubeSecrets: KubeSecretStore | undefined;
  let closed = false;

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await kubeSecrets?.stop();
    await Promise.allSettled(targets.map((target) => target.port.close()));
  };

  return {
    providerName: VSPHERE_PROVIDER_NAME,
    config,
    problems: reporter,
    async initialize(context: CloudInitializeContext): Promise<void> {
      context.signal.addEventListener('abort', () => void close(), { once: true });
      const watched = secretReferences(config);
      if (dependencies.secretStore === undefined && watched.length > 0) {
        kubeSecrets = new KubeSecretStore({ kubeConfig: context.clientBuilder.kubeConfig(VSPHERE_KUBE_CLIENT_NAME), logger, reporter });
        for (const secret of watched) kubeSecrets.watch(secret.namespace, secret.name);
        secrets.attach(kubeSecrets);
        await waitForSecrets(secrets, watched, dependencies.secretSyncTimeoutMs ?? 10_000, context.signal);
      }
      // Checks log problems (unreachable vCenter, wrong password, missing datacenter or tag
      // category) once, without delaying the controllers.
      void checkVcenters(discovery, zones, reporter, logger, context.signal).catch((error: unknown) => logger.warn('vCenter checks failed', { error: errorMessage(error) }));
    },
    instancesV2: () => instances,
    // Upstream offers load balancers and routes only through NSX-T, which this port does not implement.
    loadBalancer: () => undefined,
    routes: () => undefined,
    instances: () => undefined,
    zones: () => undefined,
    clusters: () => undefined,
    hasClusterId: () => true,
    close,
  };
}

function credentialSource(vcenter: VcenterConfig, secrets: SecretStore): CredentialSource {
  const source: CredentialsSource = vcenter.credentials;
  const servers = [...new Set([vcenter.server, vcenter.name])];
  switch (source.kind) {
    case 'inline':
      return inlineCredentialSource(source.username, source.password);
    case 'secret':
      return new SecretCredentialSource({ store: secrets, namespace: source.namespace, name: source.name, servers, vcenter: vcenter.name });
    case 'directory':
      return new DirectoryCredentialSource({ path: source.path, servers, vcenter: vcenter.name });
  }
}

function secretReferences(config: VsphereConfig): Array<{ namespace: string; name: string }> {
  const seen = new Map<string, { namespace: string; name: string }>();
  for (const vcenter of config.vcenters) {
    if (vcenter.credentials.kind === 'secret') seen.set(`${vcenter.credentials.namespace}/${vcenter.credentials.name}`, vcenter.credentials);
  }
  return [...seen.values()];
}

/** Answers `unknown` until a real store is attached (before `initialize`). */
class DeferredSecretStore implements SecretStore {
  #store: SecretStore | undefined;

  constructor(store: SecretStore | undefined) {
    this.#store = store;
  }

  attach(store: SecretStore): void {
    this.#store = store;
  }

  read(namespace: string, name: string): SecretState {
    return this.#store?.read(namespace, name) ?? { status: 'unknown', reason: 'the provider is not initialized yet' };
  }
}

async function waitForSecrets(store: SecretStore, secrets: ReadonlyArray<{ namespace: string; name: string }>, timeoutMs: number, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !signal.aborted) {
    if (secrets.every((secret) => store.read(secret.namespace, secret.name).status !== 'unknown')) return;
    await new Promise((resolve) => setTimeout(resolve, 50).unref());
  }
}

/** Builds the provider from the `--cloud-config` text (YAML or INI) and the environment. */
export const vsphereCloudProviderFactory: CloudProviderFactory = (configText, context) => {
  const fileName = context.configPath ?? '<cloud-config>';
  const { config, warnings } = readVsphereConfig(configText, fileName, process.env);
  for (const warning of warnings) context.logger.warn(`cloud config: ${warning.message}`, { file: warning.fileName, ...(warning.line === undefined ? {} : { line: warning.line }) });
  const problems = config.vcenters.flatMap((vcenter) => {
    try {
      checkVcenterTlsOptions(vcenter);
      return [];
    } catch (error) {
      return [{ fileName: vcenter.place.fileName, ...(vcenter.place.line === undefined ? {} : { line: vcenter.place.line }), message: `vCenter ${JSON.stringify(vcenter.name)}: ${errorMessage(error)}` }];
    }
  });
  if (problems.length > 0) throw new CloudConfigError(problems);
  return createVsphereCloud(config, { logger: context.logger, metrics: context.metrics });
};

/** Registers `vsphere` in a provider registry (the process-wide one by default). */
export function registerVsphereCloudProvider(registry: CloudProviderRegistry = cloudProviders): CloudProviderRegistry {
  if (!registry.isRegistered(VSPHERE_PROVIDER_NAME)) registry.register(VSPHERE_PROVIDER_NAME, vsphereCloudProviderFactory);
  return registry;
}
