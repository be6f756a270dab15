/**
 * Validation of the parsed options (upstream `CloudControllerManagerOptions.Validate` plus the
 * checks client-go's leader elector and the route controller would make later). Returns every
 * problem, in two kinds: a bad value of one flag (the command exits 2, like a parse error) and a
 * bad combination of flags or a problem of the environment (exit 1). Range and format checks that
 * need no context live in the flag declarations (`check`) and fail while parsing.
 */
import type { CloudControllerManagerOptions } from './cloud-controller-manager-flags.js';
import { parseClusterCidrFlag } from './cluster-cidrs.js';
import { validateControllerEntries } from './controller-selection.js';
import type { ParsedFlags } from './flag-registry.js';
import { formatGoDuration } from '../../util/go-duration.js';

/** client-go leaderelection.JitterFactor: the renew deadline must exceed retryPeriod × 1.2. */
const LEADER_ELECTION_JITTER_FACTOR = 1.2;

export interface ValidationContext {
  /** Controllers this binary can run (the keys of its constructor map). */
  knownControllers: readonly string[];
  aliases?: Readonly<Record<string, string>>;
  /** Registered cloud provider names; when given, `--cloud-provider` must be one of them. */
  registeredProviders?: readonly string[];
}

export interface OptionProblems {
  /** A bad value of one flag, each message naming the flag: a command-line error (exit 2). */
  flagErrors: string[];
  /** Flags that contradict each other, or a value this binary or environment cannot serve (exit 1). */
  errors: string[];
}

/** Every problem, split by kind (see {@link OptionProblems}). */
export function findOptionProblems(options: CloudControllerManagerOptions, flags: ParsedFlags, context: ValidationContext): OptionProblems {
  const flagErrors: string[] = [];
  const errors: string[] = [];

  if (options.cloudProvider === '') {
    flagErrors.push('--cloud-provider cannot be empty');
  } else if (context.registeredProviders && !context.registeredProviders.includes(options.cloudProvider)) {
    const known = context.registeredProviders.length === 0 ? 'none' : context.registeredProviders.map((name) => JSON.stringify(name)).join(', ');
    errors.push(`unknown cloud provider ${JSON.stringify(options.cloudProvider)} (this binary provides: ${known})`);
  }

  flagErrors.push(...validateControllerEntries(options.controllers, context.knownControllers, context.aliases));

  // Upstream checks the leader election settings only when leader election is on.
  if (options.leaderElect) {
    if (options.leaderElectResourceLock !== 'leases') {
      flagErrors.push(`--leader-elect-resource-lock: Invalid value: ${JSON.stringify(options.leaderElectResourceLock)}: resourceLock value must be "leases"`);
    }
    if (options.leaderElectResourceName === '') flagErrors.push('--leader-elect-resource-name cannot be empty when --leader-elect is true');
    if (options.leaderElectResourceNamespace === '') flagErrors.push('--leader-elect-resource-namespace cannot be empty when --leader-elect is true');
    const lease = options.leaderElectLeaseDurationMs;
    const renew = options.leaderElectRenewDeadlineMs;
    const retry = options.leaderElectRetryPeriodMs;
    if (lease <= 0) flagErrors.push(`--leader-elect-lease-duration must be greater than zero (got ${formatGoDuration(lease)})`);
    if (renew <= 0) flagErrors.push(`--leader-elect-renew-deadline must be greater than zero (got ${formatGoDuration(renew)})`);
    if (retry <= 0) flagErrors.push(`--leader-elect-retry-period must be greater than zero (got ${formatGoDuration(retry)})`);
    if (lease > 0 && renew > 0 && lease <= renew) {
      errors.push(`--leader-elect-lease-duration (${formatGoDuration(lease)}) must be greater than --leader-elect-renew-deadline (${formatGoDuration(renew)})`);
    }
    if (renew > 0 && retry > 0 && renew <= retry * LEADER_ELECTION_JITTER_FACTOR) {
      errors.push(`--leader-elect-renew-deadline (${formatGoDuration(renew)}) must be greater than --leader-elect-retry-period × ${LEADER_ELECTION_JITTER_FACTOR} (${formatGoDuration(retry * LEADER_ELECTION_JITTER_FACTOR)})`);
    }
  }

  // Group validators check combinations (and whatever a provider put there).
  errors.push(...flags.validateGroups());
  return { flagErrors, errors };
}

/** Every problem as one list, flag errors first (see {@link findOptionProblems} for the kinds). */
export function validateOptions(options: CloudControllerManagerOptions, flags: ParsedFlags, context: ValidationContext): string[] {
  const { flagErrors, errors } = findOptionProblems(options, flags, context);
  return [...flagErrors, ...errors];
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
