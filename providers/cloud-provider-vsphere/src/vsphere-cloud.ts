/**
 * The composition root of the vSphere provider:
 * config -> credential sources -> one VcenterPort per vCenter (the client behind the port
 * pipeline: problem reporting, retries, the provider's cloud API budget, metrics) -> operations
 * (discovery, coalesced property loads, zones) -> InstancesV2. LoadBalancer and Routes need
 * NSX-T upstream and are not offered; Instances (v1), Zones and Clusters are deprecated
 * capabilities InstancesV2 replaces (left out: they are optional).
 */
import type { CloudRetryPolicy } from '@ccm/core/cloud';
import { CloudConfigError } from '@ccm/core/config';
import type { Logger } from '@ccm/core/logging';
import {
  defineCloudProvider,
  type CloudInitializeContext,
  type CloudProvider,
  type CloudProviderFactory,
  type CloudProviderFactoryContext,
  type CloudProviderRegistry,
  type InstancesV2,
} from '@ccm/core/provider';
import { readVsphereConfig } from './config/read-vsphere-config.js';
import type { CredentialsSource, VcenterConfig, VsphereConfig } from './config/vsphere-config.js';
import { inlineCredentialSource, type CredentialSource } from './credentials/credential-source.js';
import { DirectoryCredentialSource } from './credentials/directory-credential-source.js';
import { SecretCredentialSource, type SecretState, type SecretStore } from './credentials/secret-credentials.js';
import { SharedSecretStore } from './credentials/shared-secret-store.js';
import { errorMessage } from './errors.js';
import { InstanceLookup, type InstanceLookupOptions } from './operations/instance-lookup.js';
import { NodeDiscovery, type VcenterTarget } from './operations/node-discovery.js';
import { ProblemReporter } from './operations/problem-reporter.js';
import { reportVcenterProblems } from './operations/report-vcenter-problems.js';
import { checkVcenters } from './operations/startup-checks.js';
import { ZoneLookup } from './operations/zone-lookup.js';
import { VCENTER_PORT_NAMING, type VcenterPort } from './ports/vcenter-port.js';
import { checkVcenterTlsOptions, createVsphereClientVcenterPort } from './ports/sdk/vsphere-client-vcenter-port.js';
import { VSPHERE_PIPELINE } from './ports/vsphere-port-pipeline.js';
import { VSPHERE_PROVIDER_NAME } from './provider-id.js';
import { VsphereInstances } from './vsphere-instances.js';

export interface VsphereCloudDependencies {
  logger: Logger;
  /** Cloud API metrics (and the budget's and the coalescers') go here. */
  metrics?: CloudProviderFactoryContext['metrics'];
  environment?: Readonly<Record<string, string | undefined>>;
  /** Builds a vCenter's raw port; default over @ccm/vsphere-client. The pipeline is added on top either way. */
  createVcenterPort?: (vcenter: VcenterConfig, credentials: CredentialSource, logger: Logger) => VcenterPort;
  /** Credential Secrets; default the shared Secret informers of the initialize context. */
  secretStore?: SecretStore;
  lookup?: InstanceLookupOptions;
  /** How long a login waits for a credential Secret's first list. Default 10 s. */
  secretSyncTimeoutMs?: number;
  /** Overrides of the retry stage (tests inject `sleep`). */
  retry?: CloudRetryPolicy;
  /** `--node-labels`: added to every node at initialization (upstream `AdditionalLabels`). */
  nodeLabels?: Readonly<Record<string, string>>;
}

export interface VsphereCloud extends CloudProvider {
  readonly config: VsphereConfig;
  readonly problems: ProblemReporter;
  instancesV2(): InstancesV2;
  /** Stops background work and logs out of every vCenter. */
  close(): Promise<void>;
}

export function createVsphereCloud(config: VsphereConfig, dependencies: VsphereCloudDependencies): VsphereCloud {
  const logger = dependencies.logger.child({ provider: VSPHERE_PROVIDER_NAME });
  const reporter = new ProblemReporter(logger);
  const secrets = new DeferredSecretStore(dependencies.secretStore);
  const pipeline = VSPHERE_PIPELINE.connect({ metrics: dependencies.metrics, logger });
  const createPort = dependencies.createVcenterPort ?? ((vcenter, credentials, portLogger) => createVsphereClientVcenterPort(vcenter, () => credentials.credentials(), portLogger));

  const targets: VcenterTarget[] = config.vcenters.map((vcenter) => {
    const port = pipeline.compose(createPort(vcenter, credentialSource(vcenter, secrets), logger.child({ vcenter: vcenter.name })), VCENTER_PORT_NAMING, {
      around: [reportVcenterProblems(vcenter.name, vcenter.server, reporter)],
      retry: { maxAttempts: vcenter.roundTripCount, ...dependencies.retry },
    });
    return { config: vcenter, port };
  });
  const discovery = new NodeDiscovery(targets, { reporter });
  const zones = new ZoneLookup(config.labels);
  if (zones.halfConfigured) {
    logger.warn('labels: only one of zone and region is set; as upstream, zones are looked up only when both are, so nodes get no zone or region labels', {
      zone: config.labels.zone,
      region: config.labels.region,
    });
  }
  const instances = new VsphereInstances({
    lookup: new InstanceLookup(discovery, { ...(dependencies.metrics === undefined ? {} : { metrics: dependencies.metrics }), ...dependencies.lookup }),
    zones,
    nodes: config.nodes,
    logger,
    ...(dependencies.nodeLabels === undefined ? {} : { nodeLabels: dependencies.nodeLabels }),
    ...(dependencies.environment === undefined ? {} : { environment: dependencies.environment }),
  });
  let closed = false;

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await Promise.allSettled(targets.map((target) => target.port.close()));
  };

  return {
    providerName: VSPHERE_PROVIDER_NAME,
    config,
    problems: reporter,
    initialize(context: CloudInitializeContext): void {
      context.signal.addEventListener('abort', () => void close(), { once: true });
      const watched = secretReferences(config);
      if (dependencies.secretStore === undefined && watched.length > 0) {
        const shared = new SharedSecretStore({ informers: context.informers, logger, ...(dependencies.secretSyncTimeoutMs === undefined ? {} : { syncTimeoutMs: dependencies.secretSyncTimeoutMs }) });
        for (const secret of watched) shared.watch(secret.namespace, secret.name);
        secrets.attach(shared);
      }
      // Checks log problems (unreachable vCenter, wrong password, missing datacenter or tag
      // category) once, without delaying the controllers.
      void checkVcenters(discovery, zones, reporter, logger, context.signal).catch((error: unknown) => logger.warn('vCenter checks failed', { error: errorMessage(error) }));
    },
    instancesV2: () => instances,
    // No loadBalancer or routes: upstream offers them only through NSX-T, which this port does not implement.
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

  async settled(namespace: string, name: string): Promise<void> {
    await this.#store?.settled?.(namespace, name);
  }
}

/** TLS settings the client would refuse (unreadable CA file, bad thumbprint), all at once with their place in the config. */
function checkTlsOptions(config: VsphereConfig): void {
  const problems = config.vcenters.flatMap((vcenter) => {
    try {
      checkVcenterTlsOptions(vcenter);
      return [];
    } catch (error) {
      return [{ fileName: vcenter.place.fileName, ...(vcenter.place.line === undefined ? {} : { line: vcenter.place.line }), message: `vCenter ${JSON.stringify(vcenter.name)}: ${errorMessage(error)}` }];
    }
  });
  if (problems.length > 0) throw new CloudConfigError(problems);
}

export interface VsphereCloudProviderSettings {
  /** The `--node-labels` of the command, read when the provider is created. */
  nodeLabels?: () => Readonly<Record<string, string>>;
}

/** The vSphere provider's definition: the `--cloud-config` (YAML or INI) and the environment, then the TLS settings, then the provider. */
export function defineVsphereCloudProvider(settings: VsphereCloudProviderSettings = {}) {
  return defineCloudProvider({
    name: VSPHERE_PROVIDER_NAME,
    configSchema: { read: (text, fileName) => readVsphereConfig(text, fileName, process.env) },
    defaultConfigFileName: '<cloud-config>',
    create: (config, context) => {
      checkTlsOptions(config);
      const nodeLabels = settings.nodeLabels?.();
      return createVsphereCloud(config, { logger: context.logger, metrics: context.metrics, ...(nodeLabels === undefined ? {} : { nodeLabels }) });
    },
  });
}

export const vsphereCloudProvider = defineVsphereCloudProvider();

/** Builds the provider from the `--cloud-config` text (YAML or INI) and the environment. */
export const vsphereCloudProviderFactory: CloudProviderFactory = vsphereCloudProvider.factory;

/** Registers `vsphere` in a provider registry (the process-wide one by default). */
export function registerVsphereCloudProvider(registry?: CloudProviderRegistry): CloudProviderRegistry {
  return vsphereCloudProvider.register(registry);
}
