/**
 * Validation of the parsed options (upstream `CloudControllerManagerOptions.Validate` plus the
 * checks client-go's leader elector and the route controller would make later). Returns every
 * problem; the command prints them all and exits 1.
 */
import type { CloudControllerManagerOptions } from './cloud-controller-manager-flags.js';
import { parseClusterCidrFlag } from './cluster-cidrs.js';
import { validateControllerEntries } from './controller-selection.js';
import type { ParsedFlags } from './flag-registry.js';
import { formatGoDuration } from './go-duration.js';

/** client-go leaderelection.JitterFactor: the renew deadline must exceed retryPeriod × 1.2. */
const LEADER_ELECTION_JITTER_FACTOR = 1.2;

export interface ValidationContext {
  /** Controllers this binary can run (the keys of its constructor map). */
  knownControllers: readonly string[];
  aliases?: Readonly<Record<string, string>>;
  /** Registered cloud provider names; when given, `--cloud-provider` must be one of them. */
  registeredProviders?: readonly string[];
}

export function validateOptions(options: CloudControllerManagerOptions, flags: ParsedFlags, context: ValidationContext): string[] {
  const errors: string[] = [];

  if (options.cloudProvider === '') {
    errors.push('--cloud-provider cannot be empty');
  } else if (context.registeredProviders && !context.registeredProviders.includes(options.cloudProvider)) {
    const known = context.registeredProviders.length === 0 ? 'none' : context.registeredProviders.map((name) => JSON.stringify(name)).join(', ');
    errors.push(`unknown cloud provider ${JSON.stringify(options.cloudProvider)} (this binary provides: ${known})`);
  }

  errors.push(...validateControllerEntries(options.controllers, context.knownControllers, context.aliases));

  if (options.leaderElect) {
    if (options.leaderElectResourceLock !== 'leases') {
      errors.push(`leaderElection.resourceLock: Invalid value: ${JSON.stringify(options.leaderElectResourceLock)}: resourceLock value must be "leases"`);
    }
    if (options.leaderElectResourceName === '') errors.push('--leader-elect-resource-name cannot be empty when --leader-elect is true');
    if (options.leaderElectResourceNamespace === '') errors.push('--leader-elect-resource-namespace cannot be empty when --leader-elect is true');
    const lease = options.leaderElectLeaseDurationMs;
    const renew = options.leaderElectRenewDeadlineMs;
    const retry = options.leaderElectRetryPeriodMs;
    if (lease <= 0) errors.push('--leader-elect-lease-duration must be greater than zero');
    if (renew <= 0) errors.push('--leader-elect-renew-deadline must be greater than zero');
    if (retry <= 0) errors.push('--leader-elect-retry-period must be greater than zero');
    if (lease > 0 && renew > 0 && lease <= renew) {
      errors.push(`--leader-elect-lease-duration (${formatGoDuration(lease)}) must be greater than --leader-elect-renew-deadline (${formatGoDuration(renew)})`);
    }
    if (renew > 0 && retry > 0 && renew <= retry * LEADER_ELECTION_JITTER_FACTOR) {
      errors.push(`--leader-elect-renew-deadline (${formatGoDuration(renew)}) must be greater than --leader-elect-retry-period × ${LEADER_ELECTION_JITTER_FACTOR} (${formatGoDuration(retry * LEADER_ELECTION_JITTER_FACTOR)})`);
    }
  }

  // Upstream declares these checks (NodeControllerOptions.Validate) but never calls them, so a
  // zero or negative worker count silently starts no workers. We do call them.
  if (options.concurrentNodeSyncs <= 0) errors.push(`--concurrent-node-syncs must be greater than 0 (got ${options.concurrentNodeSyncs})`);
  if (options.concurrentNodeStatusUpdates < 0) {
    errors.push(`--concurrent-node-status-updates must be 0 (use --concurrent-node-syncs) or more (got ${options.concurrentNodeStatusUpdates})`);
  }

  for (const [name, value] of [
    ['--node-monitor-period', options.nodeMonitorPeriodMs],
    ['--node-status-update-frequency', options.nodeStatusUpdateFrequencyMs],
    ['--route-reconciliation-period', options.routeReconciliationPeriodMs],
  ] as const) {
    if (value <= 0) errors.push(`${name} must be greater than zero (got ${formatGoDuration(value)})`);
  }
  if (options.controllerStartIntervalMs < 0) errors.push('--controller-start-interval cannot be negative');

  errors.push(...flags.validateGroups());
  return errors;
}

export interface RouteControllerFacts {
  /** `--controllers` enables the route controller. */
  routeControllerEnabled: boolean;
  /** The cloud provider implements Routes. */
  routesSupported: boolean;
}

/**
 * The route controller runs when it is enabled, `--configure-cloud-routes` is true and the
 * provider supports routes (upstream dropped the `--allocate-node-cidrs` dependency in v1.21);
 * it then needs a valid `--cluster-cidr` (upstream exits in `startRouteController` otherwise).
 */
export function validateRouteControllerOptions(options: CloudControllerManagerOptions, facts: RouteControllerFacts): string[] {
  if (!facts.routeControllerEnabled || !options.configureCloudRoutes || !facts.routesSupported) return [];
  const parsed = parseClusterCidrFlag(options.clusterCidr);
  if (parsed.ok) return [];
  return [`the route controller needs a valid --cluster-cidr (it runs because --configure-cloud-routes is true and the cloud provider supports routes; set --configure-cloud-routes=false or disable it with --controllers=*,-node-route-controller): ${parsed.error}`];
}
