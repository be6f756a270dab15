/**
 * The cloud-controller-manager command for a provider's bin: `runCloudControllerManager`, the flag
 * groups (and `defineFlagGroup` for a provider's own flags), the flags doc, the metrics registry,
 * the leader-migration file and the self-signed serving certificate.
 */
export {
  CONTROLLERS_DISABLED_BY_DEFAULT,
  defaultControllerConstructors,
} from './default-controllers.js';
export {
  DEFAULT_MIGRATION_LEADER_NAME,
  LeaderMigrationConfigError,
  readLeaderMigrationConfiguration,
} from './leader-migration/leader-migration-configuration.js';
export {
  createMetricsRegistry,
} from './metrics/create-metrics-registry.js';
export {
  prometheusMetricsSink,
} from './metrics/prometheus-metrics-sink.js';
export {
  CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS,
} from './options/cloud-controller-manager-flags.js';
export {
  defineFlagGroup,
  type FlagGroup,
  type FlagGroupValues,
} from './options/flag-definition.js';
export {
  FlagError,
} from './options/flag-error.js';
export {
  nodeIpamFlags,
} from './options/node-ipam-flags.js';
export {
  parseCommandLine,
} from './options/parse-command-line.js';
export {
  type ReferencePageFlags,
  renderCapabilitiesSection,
  renderFlagsSection,
  renderReferencePage,
} from './options/render-flags-doc.js';
export {
  runCloudControllerManager,
  type RunCloudControllerManagerOptions,
} from './run-cloud-controller-manager.js';
export {
  type ProviderCommandProvider,
  type ProviderCommandSettings,
  runProviderCommand,
} from './run-provider-command.js';
export {
  type CertificateAndKey,
  issueCertificate,
} from './serving/self-signed-certificate.js';
