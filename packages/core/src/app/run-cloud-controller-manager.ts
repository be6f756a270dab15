/**
 * The cloud-controller-manager command (upstream `NewCloudControllerManagerCommand` + `Run`).
 * A provider's bin is one line:
 *
 *   process.exitCode = await runCloudControllerManager({ commandName: 'aws-cloud-controller-manager',
 *     registry: cloudProviders, argv: process.argv.slice(2), defaultCloudProvider: 'aws' });
 *
 * Exit codes: 0 after -h/--help, --version or a clean shutdown (SIGTERM/SIGINT); 2 for
 * command-line errors (unknown flag, a bad value of one flag, named in the message); 1 for
 * contradicting flags, startup failures (kubeconfig, cloud config, provider) and lost leadership.
 * Expected startup errors print readable lines, never stack traces.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Registry } from 'prom-client';
import type { ControllerConstructor } from '../controllers/controller.js';
import { createKubeAccess as createClientNodeKubeAccess, type CreateKubeAccessOptions } from '../kube/client-node/create-kube-access.js';
import { LeaderElector, type LeaderElectorOptions } from '../kube/leader-election.js';
import { loadKubeConfig as loadClientNodeKubeConfig, type LoadKubeConfigOptions } from '../kube/load-kube-config.js';
import { createLogger, type LogDestination } from '../logging/create-logger.js';
import type { Logger } from '../logging/logger.js';
import { NODE_ROUTE_CONTROLLER, type ControllerName } from '../names/controller-names.js';
import type { CloudProvider } from '../provider/cloud-provider.js';
import type { CloudProviderRegistry } from '../provider/provider-registry.js';
import { buildConfigz } from './configz.js';
import { CloudProviderStartupError, createCloudProvider } from './create-cloud-provider.js';
import { CONTROLLERS_DISABLED_BY_DEFAULT, defaultControllerConstructors } from './default-controllers.js';
import { ControllerManagerMetrics, registerBuildInfo } from './metrics/controller-manager-metrics.js';
import { createMetricsRegistry } from './metrics/create-metrics-registry.js';
import { buildControllerConfig } from './options/build-controller-config.js';
import type { CloudControllerManagerOptions } from './options/cloud-controller-manager-flags.js';
import { isControllerEnabled, resolveControllerAliases } from './options/controller-selection.js';
import type { FlagGroup } from './options/flag-definition.js';
import { FlagError } from './options/flag-error.js';
import type { ParsedFlags } from './options/flag-registry.js';
import { parseCommandLine } from './options/parse-command-line.js';
import { renderHelp } from './options/render-help.js';
import { findOptionProblems, validateRouteControllerOptions } from './options/validate-options.js';
import { runWithLeaderElection, runWithoutLeaderElection, type LeaderElection } from './run-modes.js';
import { FatalStartupError, type RunControllersOptions, type RunnableKubeAccess } from './run-controllers.js';
import { ShutdownSignal } from './shutdown-signal.js';
import { HealthChecks } from './serving/health-checks.js';
import { startSecureServer, type RunningSecureServer } from './serving/secure-server.js';
import { loadServingCertificate } from './serving/serving-certificate.js';
import { createServingHandler } from './serving/serving-handler.js';
import { CCM_CORE_VERSION } from './version.js';
import { waitAtMost } from './wait-helpers.js';

/** Seams for tests, tools and the benchmark; each defaults to the real client-node implementation. */
export interface RuntimeDependencies {
  loadKubeConfig(options: LoadKubeConfigOptions): KubeConfig;
  createKubeAccess(options: CreateKubeAccessOptions): RunnableKubeAccess;
  createLeaderElector(options: LeaderElectorOptions): LeaderElection;
}

export interface RunCloudControllerManagerOptions {
  /** Used in `--help`, messages and `--version`. */
  commandName: string;
  registry: CloudProviderRegistry;
  /** Arguments after the program name (`process.argv.slice(2)`). */
  argv: readonly string[];
  /** Default of `--cloud-provider`. */
  defaultCloudProvider?: string;
  /** Provider flag groups (`defineFlagGroup`); read their values in `onFlagsParsed`. */
  additionalFlags?: readonly FlagGroup[];
  /** Called after the flags were parsed and validated, before the provider is created. */
  onFlagsParsed?(flags: ParsedFlags, options: CloudControllerManagerOptions): void | Promise<void>;
  /** The controllers this binary has; default {@link defaultControllerConstructors}. */
  controllerConstructors?: Partial<Record<ControllerName, ControllerConstructor>>;
  /** For in-cluster detection; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Version reported by `--version`, the logs and the build info metric; default the @ccm/core version. */
  version?: string;
  /** Help and version output; default process.stdout. */
  stdout?: LogDestination;
  /** Errors and logs; default process.stderr. */
  stderr?: LogDestination;
  /** Stops the command like SIGTERM (tests, embedding). */
  signal?: AbortSignal;
  /** Install SIGTERM/SIGINT handlers; default true. */
  handleSignals?: boolean;
  /** The registry `/metrics` serves; default a new one with process metrics. */
  metrics?: Registry;
  /** Default 30 s. */
  shutdownTimeoutMs?: number;
  /** How long the informers may fail to reach the API server at startup; default 10 s (`API_SERVER_WAIT_TIMEOUT_MS`). */
  apiServerWaitTimeoutMs?: number;
  /**
   * Once the command has run (served, campaigned or run controllers) and returns, force
   * `process.exit(code)` after this long if something still keeps the process alive, so a lost
   * lease always ends the process. Default 10 s when `handleSignals` is on, else off; 0 disables.
   * After a lost lease the wait is at most {@link LOST_LEADERSHIP_EXIT_MS} (upstream exits at once).
   */
  forceExitAfterMs?: number;
  /** Called once the secure port listens (tests use the port). */
  onServing?(address: { address: string; port: number }): void;
  dependencies?: Partial<RuntimeDependencies>;
}

const DEFAULT_DEPENDENCIES: RuntimeDependencies = {
  loadKubeConfig: loadClientNodeKubeConfig,
  createKubeAccess: createClientNodeKubeAccess,
  createLeaderElector: (options) => new LeaderElector(options),
};

/** After a lost lease the process ends this soon (upstream exits at once), whatever still runs. */
export const LOST_LEADERSHIP_EXIT_MS = 100;

export async function runCloudControllerManager(settings: RunCloudControllerManagerOptions): Promise<number> {
  const state: CommandState = { ran: false, lostLeadership: false };
  const code = await runCommand(settings, state);
  // An unref'd timer never keeps the process alive, but ends it if something else does.
  const forceExitAfterMs = settings.forceExitAfterMs ?? ((settings.handleSignals ?? true) ? 10_000 : 0);
  if (state.ran && forceExitAfterMs > 0) {
    setTimeout(() => process.exit(code), state.lostLeadership ? Math.min(forceExitAfterMs, LOST_LEADERSHIP_EXIT_MS) : forceExitAfterMs).unref();
  }
  return code;
}

interface CommandState {
  /** The command served, campaigned or ran controllers. */
  ran: boolean;
  /** It ended because the leader lease was lost. */
  lostLeadership: boolean;
}

async function runCommand(settings: RunCloudControllerManagerOptions, state: CommandState): Promise<number> {
  const stdout = settings.stdout ?? process.stdout;
  const stderr = settings.stderr ?? process.stderr;
  const commandName = settings.commandName;
  const version = settings.version ?? CCM_CORE_VERSION;

  let commandLine: ReturnType<typeof parseCommandLine>;
  try {
    commandLine = parseCommandLine(settings.argv, {
      commandName,
      ...(settings.defaultCloudProvider !== undefined ? { defaultCloudProvider: settings.defaultCloudProvider } : {}),
      ...(settings.additionalFlags ? { additionalFlags: settings.additionalFlags } : {}),
    });
  } catch (error) {
    if (!(error instanceof FlagError)) throw error;
    stderr.write(`error: ${error.message}\nRun '${commandName} --help' for usage.\n`);
    return 2;
  }
  if (commandLine.kind === 'help') {
    stdout.write(renderHelp(commandLine.registry, { commandName }));
    return 0;
  }
  if (commandLine.kind === 'version') {
    stdout.write(commandLine.raw ? `${JSON.stringify({ gitVersion: version, nodeVersion: process.version, platform: `${process.platform}/${process.arch}` }, null, 2)}\n` : `${commandName} ${version}\n`);
    return 0;
  }

  const { options, flags } = commandLine;
  const constructors = settings.controllerConstructors ?? defaultControllerConstructors;
  const problems = findOptionProblems(options, flags, { knownControllers: Object.keys(constructors), registeredProviders: settings.registry.names() });
  if (problems.flagErrors.length > 0 || problems.errors.length > 0) {
    for (const message of [...problems.flagErrors, ...problems.errors]) stderr.write(`error: ${message}\n`);
    // A bad value of one flag is a command-line error, like a parse error.
    if (problems.flagErrors.length === 0) return 1;
    stderr.write(`Run '${commandName} --help' for usage.\n`);
    return 2;
  }

  const logger = createLogger({ format: options.loggingFormat === 'json' ? 'json' : 'text', verbosity: options.verbosity, destination: stderr });
  const fail = (lines: readonly string[]): number => {
    for (const line of lines) {
      if (options.loggingFormat === 'json') logger.error(line);
      else stderr.write(`error: ${line}\n`);
    }
    return 1;
  };
  logger.info('Starting cloud-controller-manager', { command: commandName, version, node: process.version, provider: options.cloudProvider });
  logFlagNotes(flags, logger);
  await settings.onFlagsParsed?.(flags, options);

  const dependencies: RuntimeDependencies = { ...DEFAULT_DEPENDENCIES, ...settings.dependencies };
  let kubeConfig: KubeConfig;
  try {
    kubeConfig = dependencies.loadKubeConfig({ kubeconfigPath: options.kubeconfig, master: options.master, environment: settings.env ?? process.env });
  } catch (error) {
    return fail([error instanceof Error ? error.message : String(error)]);
  }

  const metrics = settings.metrics ?? createMetricsRegistry();
  registerBuildInfo(metrics, { version, provider: options.cloudProvider });
  let cloud: CloudProvider;
  try {
    cloud = await createCloudProvider({
      registry: settings.registry,
      providerName: options.cloudProvider,
      cloudConfigPath: options.cloudConfig,
      allowUntaggedCloud: options.allowUntaggedCloud,
      logger,
      metrics,
    });
  } catch (error) {
    if (error instanceof CloudProviderStartupError) return fail(error.lines);
    throw error;
  }

  const controllerEntries = resolveControllerAliases(options.controllers);
  const routeErrors = validateRouteControllerOptions(options, {
    routeControllerEnabled: constructors[NODE_ROUTE_CONTROLLER] !== undefined && isControllerEnabled(NODE_ROUTE_CONTROLLER, controllerEntries, CONTROLLERS_DISABLED_BY_DEFAULT),
    routesSupported: cloud.routes?.() !== undefined,
  });
  if (routeErrors.length > 0) return fail(routeErrors);

  state.ran = true;
  const healthChecks = new HealthChecks();
  let server: RunningSecureServer | undefined;
  if (options.securePort > 0) {
    try {
      const certificate = await loadServingCertificate(options);
      server = await startSecureServer({
        bindAddress: options.bindAddress,
        port: options.securePort,
        certificate,
        minVersion: options.tlsMinVersion,
        handler: createServingHandler({ healthChecks, metrics, configz: () => buildConfigz(options), logger: logger.child({ component: 'secure-serving' }) }),
      });
      logger.info('Serving securely', { address: `${options.bindAddress}:${server.address.port}`, certificate: certificate.origin });
      settings.onServing?.({ address: server.address.address, port: server.address.port });
    } catch (error) {
      return fail([error instanceof Error ? error.message : String(error)]);
    }
  } else {
    logger.info('Secure serving is disabled (--secure-port=0)');
  }

  const shutdown = new ShutdownSignal(settings.signal, settings.handleSignals ?? true, logger);
  try {
    const runOptions: RunControllersOptions = {
      cloud,
      clientBuilder: { kubeConfig: () => kubeConfig },
      createKubeAccess: () =>
        dependencies.createKubeAccess({
          kubeConfig,
          qps: options.kubeApiQps,
          burst: options.kubeApiBurst,
          userAgent: 'cloud-controller-manager',
          logger,
          metrics,
          minResyncPeriodMs: options.minResyncPeriodMs,
        }),
      controllerConfig: buildControllerConfig(options),
      controllerEntries,
      disabledByDefault: CONTROLLERS_DISABLED_BY_DEFAULT,
      constructors,
      controllerStartIntervalMs: options.controllerStartIntervalMs,
      metrics,
      controllerManagerMetrics: new ControllerManagerMetrics(metrics),
      healthChecks,
      logger,
      shutdownTimeoutMs: settings.shutdownTimeoutMs ?? 30_000,
      ...(settings.apiServerWaitTimeoutMs !== undefined ? { apiServerWaitTimeoutMs: settings.apiServerWaitTimeoutMs } : {}),
    };
    const outcome = options.leaderElect
      ? await runWithLeaderElection(
          runOptions,
          (callbacks) =>
            dependencies.createLeaderElector({
              kubeConfig,
              namespace: options.leaderElectResourceNamespace,
              name: options.leaderElectResourceName,
              leaseDurationMs: options.leaderElectLeaseDurationMs,
              renewDeadlineMs: options.leaderElectRenewDeadlineMs,
              retryPeriodMs: options.leaderElectRetryPeriodMs,
              logger: logger.child({ component: 'leader-election' }),
              metrics,
              ...callbacks,
            }),
          healthChecks,
          shutdown,
          logger,
        )
      : await runWithoutLeaderElection(runOptions, shutdown);
    if (outcome.kind === 'fatal') {
      if (outcome.error instanceof FatalStartupError) return fail([outcome.error.message]);
      throw outcome.error;
    }
    if (outcome.kind === 'lost') state.lostLeadership = true;
    return outcome.kind === 'stopped' ? 0 : 1;
  } finally {
    shutdown.dispose();
    await server?.close();
    logger.info('Stopped cloud-controller-manager');
    if (state.lostLeadership) await flushDestination(stderr);
  }
}

/** Waits (at most 1 s) until a Node stream destination has written what the logger gave it. */
async function flushDestination(destination: LogDestination): Promise<void> {
  const stream = destination as Partial<Pick<NodeJS.WriteStream, 'write' | 'writableLength'>>;
  if (typeof stream.writableLength !== 'number' || stream.writableLength === 0 || typeof stream.write !== 'function') return;
  const write = stream.write.bind(destination);
  await waitAtMost(new Promise<void>((resolve) => write('', () => resolve())), 1_000);
}


/** Logs deprecated flags that were used and ignored flags that were set. */
function logFlagNotes(flags: ParsedFlags, logger: Logger): void {
  for (const warning of flags.warnings) logger.warn(warning);
  for (const name of flags.setFlags()) {
    const definition = flags.registry().definition(name);
    if (definition?.ignored !== undefined) logger.warn(`Flag --${name} is accepted for compatibility but has no effect: ${definition.ignored}`);
  }
  if (flags.value('enable-leader-migration') === true) logger.warn('Leader migration is not supported by this cloud-controller-manager; --enable-leader-migration is ignored');
}
