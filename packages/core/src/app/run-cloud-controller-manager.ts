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
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Registry } from 'prom-client';
import type { ControllerConstructor } from '../controllers/controller.js';
import { createKubeAccess as createClientNodeKubeAccess, type CreateKubeAccessOptions } from '../kube/client-node/create-kube-access.js';
import { LeaderElector, type LeaderElectorOptions } from '../kube/leader-election.js';
import { loadKubeConfig as loadClientNodeKubeConfig, type LoadKubeConfigOptions } from '../kube/load-kube-config.js';
import { BufferedLogDestination } from '../logging/buffered-log-destination.js';
import { createLogger, type LogDestination, type RuntimeLogger } from '../logging/create-logger.js';
import type { Logger } from '../logging/logger.js';
import { NODE_ROUTE_CONTROLLER } from '../names/controller-names.js';
import type { CloudProvider } from '../provider/cloud-provider.js';
import type { CloudProviderRegistry } from '../provider/provider-registry.js';
import { errorMessage } from '../util/error-message.js';
import { buildConfigz } from './configz.js';
import { defaultLeaderMigrationConfiguration, LeaderMigrationConfigError, readLeaderMigrationConfiguration } from './leader-migration/leader-migration-configuration.js';
import { createLeaderMigrator, type LeaderMigrator } from './leader-migration/leader-migrator.js';
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
import { runWithLeaderElection, runWithoutLeaderElection, type LeaderElection, type MigrationElection } from './run-modes.js';
import { FatalStartupError, type RunControllersOptions, type RunnableKubeAccess } from './run-controllers.js';
import { ShutdownSignal } from './shutdown-signal.js';
import { createDelegatedAuth, type DelegatedAuth } from './delegated-auth/create-delegated-auth.js';
import { protectHandler } from './delegated-auth/protect-handler.js';
import { HealthChecks } from './serving/health-checks.js';
import { startProfiler, type Profiler } from './serving/profiler.js';
import { startSecureServer, type RunningSecureServer } from './serving/secure-server.js';
import { loadServingCertificate } from './serving/serving-certificate.js';
import { createServingHandler } from './serving/serving-handler.js';
import { nodeTlsOptions } from './serving/tls-options.js';
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
  /**
   * The controllers this binary has; default {@link defaultControllerConstructors}. A provider adds
   * its own by spreading that map (AWS: `tagging`); `--controllers` knows exactly these names.
   */
  controllerConstructors?: Partial<Record<string, ControllerConstructor>>;
  /** Controllers `*` does not enable (upstream `ControllersDisabledByDefault`); default {@link CONTROLLERS_DISABLED_BY_DEFAULT}. */
  controllersDisabledByDefault?: ReadonlySet<string>;
  /** For in-cluster detection; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Version reported by `--version`, the logs and the build info metric; default the @ccm/core version. */
  version?: string;
  /** Help and version output; default process.stdout. */
  stdout?: LogDestination;
  /** Errors and logs; default process.stderr, written once per event loop turn (`BufferedLogDestination`). */
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
  const stderr = settings.stderr === undefined ? new BufferedLogDestination(process.stderr) : undefined;
  let code: number;
  try {
    code = await runCommand(stderr === undefined ? settings : { ...settings, stderr }, state);
  } finally {
    stderr?.close();
  }
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

/** Where the command writes: help and version to stdout, errors and logs to stderr. */
interface CommandOutput {
  stdout: LogDestination;
  stderr: LogDestination;
  commandName: string;
  version: string;
}

/** What a startup step returns when the command cannot go on: each line is printed as one error, the command exits 1. */
class StartupFailure {
  readonly lines: readonly string[];
  constructor(lines: readonly string[]) {
    this.lines = lines;
  }
}

/** Prints startup failures: `error: <line>` on stderr, or error log lines with `--logging-format=json`. */
type FailureReporter = (lines: readonly string[]) => number;

/**
 * The command, one named step after the other: parse the command line (help, version, flag
 * errors end here), check the options, start logging, then load the kubeconfig, create the cloud
 * provider, check the route controller's needs, read the leader migration configuration, serve
 * the secure port, and run the controllers (with or without leader election) until stopped.
 */
async function runCommand(settings: RunCloudControllerManagerOptions, state: CommandState): Promise<number> {
  const output: CommandOutput = {
    stdout: settings.stdout ?? process.stdout,
    stderr: settings.stderr ?? process.stderr,
    commandName: settings.commandName,
    version: settings.version ?? CCM_CORE_VERSION,
  };
  const commandLine = parseArguments(settings, output);
  if (typeof commandLine === 'number') return commandLine;
  const { options, flags } = commandLine;
  const constructors = settings.controllerConstructors ?? defaultControllerConstructors;
  const optionsExitCode = reportOptionProblems(options, flags, constructors, settings.registry, output);
  if (optionsExitCode !== undefined) return optionsExitCode;

  const logger = createLogger({ format: options.loggingFormat === 'json' ? 'json' : 'text', verbosity: options.verbosity, destination: output.stderr });
  const fail = failureReporter(options, logger, output.stderr);
  logger.info('Starting cloud-controller-manager', { command: output.commandName, version: output.version, node: process.version, provider: options.cloudProvider });
  logFlagNotes(flags, logger);
  await settings.onFlagsParsed?.(flags, options);

  const dependencies: RuntimeDependencies = { ...DEFAULT_DEPENDENCIES, ...settings.dependencies };
  const kubeConfig = loadKubeConfig(dependencies, options, settings.env ?? process.env);
  if (kubeConfig instanceof StartupFailure) return fail(kubeConfig.lines);

  const metrics = settings.metrics ?? createMetricsRegistry();
  registerBuildInfo(metrics, { version: output.version, provider: options.cloudProvider });
  const cloud = await createCloud(settings.registry, options, logger, metrics);
  if (cloud instanceof StartupFailure) return fail(cloud.lines);

  const controllerEntries = resolveControllerAliases(options.controllers);
  const routeProblems = checkRouteController(options, cloud, constructors, controllerEntries);
  if (routeProblems instanceof StartupFailure) return fail(routeProblems.lines);

  const leaderMigrator = loadLeaderMigration(options, Object.keys(constructors), logger);
  if (leaderMigrator instanceof StartupFailure) return fail(leaderMigrator.lines);

  state.ran = true;
  const healthChecks = new HealthChecks();
  const server = await startSecurePort(options, healthChecks, metrics, logger, settings, dependencies);
  if (server instanceof StartupFailure) return fail(server.lines);

  return runUntilStopped(
    {
      cloud,
      kubeConfig,
      options,
      dependencies,
      constructors,
      controllerEntries,
      metrics,
      healthChecks,
      logger,
      fail,
      ...(server === undefined ? {} : { server }),
      ...(leaderMigrator === undefined ? {} : { leaderMigrator }),
    },
    settings,
    state,
  );
}

/** The parsed command line, or the exit code when the command ends here (help, version, a flag error). */
function parseArguments(settings: RunCloudControllerManagerOptions, output: CommandOutput): number | { options: CloudControllerManagerOptions; flags: ParsedFlags } {
  const { commandName } = output;
  let commandLine: ReturnType<typeof parseCommandLine>;
  try {
    commandLine = parseCommandLine(settings.argv, {
      commandName,
      ...(settings.defaultCloudProvider !== undefined ? { defaultCloudProvider: settings.defaultCloudProvider } : {}),
      ...(settings.additionalFlags ? { additionalFlags: settings.additionalFlags } : {}),
    });
  } catch (error) {
    if (!(error instanceof FlagError)) throw error;
    output.stderr.write(`error: ${error.message}\nRun '${commandName} --help' for usage.\n`);
    return 2;
  }
  if (commandLine.kind === 'help') {
    output.stdout.write(renderHelp(commandLine.registry, { commandName }));
    return 0;
  }
  if (commandLine.kind === 'version') {
    const version = output.version;
    output.stdout.write(
      commandLine.raw ? `${JSON.stringify({ gitVersion: version, nodeVersion: process.version, platform: `${process.platform}/${process.arch}` }, null, 2)}\n` : `${commandName} ${version}\n`,
    );
    return 0;
  }
  return { options: commandLine.options, flags: commandLine.flags };
}

/** Prints every option problem; the exit code (2 for a bad flag value, 1 for contradicting flags), or undefined when there is none. */
function reportOptionProblems(
  options: CloudControllerManagerOptions,
  flags: ParsedFlags,
  constructors: Partial<Record<string, ControllerConstructor>>,
  registry: CloudProviderRegistry,
  output: CommandOutput,
): number | undefined {
  const problems = findOptionProblems(options, flags, { knownControllers: Object.keys(constructors), registeredProviders: registry.names() });
  if (problems.flagErrors.length === 0 && problems.errors.length === 0) return undefined;
  for (const message of [...problems.flagErrors, ...problems.errors]) output.stderr.write(`error: ${message}\n`);
  // A bad value of one flag is a command-line error, like a parse error.
  if (problems.flagErrors.length === 0) return 1;
  output.stderr.write(`Run '${output.commandName} --help' for usage.\n`);
  return 2;
}

function failureReporter(options: CloudControllerManagerOptions, logger: Logger, stderr: LogDestination): FailureReporter {
  return (lines) => {
    for (const line of lines) {
      if (options.loggingFormat === 'json') logger.error(line);
      else stderr.write(`error: ${line}\n`);
    }
    return 1;
  };
}

function loadKubeConfig(dependencies: RuntimeDependencies, options: CloudControllerManagerOptions, environment: NodeJS.ProcessEnv): KubeConfig | StartupFailure {
  try {
    return dependencies.loadKubeConfig({ kubeconfigPath: options.kubeconfig, master: options.master, environment });
  } catch (error) {
    return new StartupFailure([errorMessage(error)]);
  }
}

async function createCloud(registry: CloudProviderRegistry, options: CloudControllerManagerOptions, logger: Logger, metrics: Registry): Promise<CloudProvider | StartupFailure> {
  try {
    return await createCloudProvider({
      registry,
      providerName: options.cloudProvider,
      cloudConfigPath: options.cloudConfig,
      allowUntaggedCloud: options.allowUntaggedCloud,
      logger,
      metrics,
    });
  } catch (error) {
    if (error instanceof CloudProviderStartupError) return new StartupFailure(error.lines);
    throw error;
  }
}

/** The route controller's flags against what the provider and the controller map offer. */
function checkRouteController(
  options: CloudControllerManagerOptions,
  cloud: CloudProvider,
  constructors: Partial<Record<string, ControllerConstructor>>,
  controllerEntries: readonly string[],
): undefined | StartupFailure {
  const routeErrors = validateRouteControllerOptions(options, {
    routeControllerEnabled: constructors[NODE_ROUTE_CONTROLLER] !== undefined && isControllerEnabled(NODE_ROUTE_CONTROLLER, controllerEntries, CONTROLLERS_DISABLED_BY_DEFAULT),
    routesSupported: cloud.routes?.() !== undefined,
  });
  return routeErrors.length > 0 ? new StartupFailure(routeErrors) : undefined;
}

/**
 * `--enable-leader-migration`: reads `--leader-migration-config` (or takes the default
 * configuration) as upstream's `LeaderMigrationOptions.ApplyTo` does, also without
 * `--leader-elect`, where migration stays inactive (upstream `leadermigration.Enabled`).
 */
function loadLeaderMigration(options: CloudControllerManagerOptions, controllers: readonly string[], logger: Logger): LeaderMigrator | undefined | StartupFailure {
  if (!options.enableLeaderMigration) return undefined;
  let configuration;
  try {
    configuration = options.leaderMigrationConfig === '' ? defaultLeaderMigrationConfiguration() : readLeaderMigrationConfiguration(options.leaderMigrationConfig);
  } catch (error) {
    if (error instanceof LeaderMigrationConfigError) return new StartupFailure([error.message]);
    throw error;
  }
  const migrator = createLeaderMigrator(configuration);
  const unknown = migrator.unknownNames(controllers);
  if (unknown.length > 0) logger.warn('leader migration: the configuration names controllers this binary does not have; they are ignored', { controllers: unknown });
  if (!options.leaderElect) {
    logger.warn('leader migration is inactive without --leader-elect; every enabled controller runs');
    return undefined;
  }
  logger.info('starting leader migration', { lease: `${options.leaderElectResourceNamespace}/${configuration.leaderName}`, source: options.leaderMigrationConfig || 'default configuration' });
  return migrator;
}

/**
 * Serves /healthz (and each check), /metrics and /configz, with `--profiling` also /debug/pprof/
 * and /debug/flags/v, on `--secure-port` (undefined when it is 0), behind delegated
 * authentication and authorization (`delegated-auth/`), which closing the server stops.
 */
async function startSecurePort(
  options: CloudControllerManagerOptions,
  healthChecks: HealthChecks,
  metrics: Registry,
  logger: RuntimeLogger,
  settings: RunCloudControllerManagerOptions,
  dependencies: RuntimeDependencies,
): Promise<RunningSecureServer | undefined | StartupFailure> {
  if (options.securePort <= 0) {
    logger.info('Secure serving is disabled (--secure-port=0)');
    return undefined;
  }
  let delegatedAuth: DelegatedAuth | undefined;
  let profiler: Profiler | undefined;
  try {
    const certificate = await loadServingCertificate(options);
    const servingLogger = logger.child({ component: 'secure-serving' });
    for (const cipher of nodeTlsOptions({ cipherSuites: options.tlsCipherSuites }).insecureCipherSuites) logger.warn(`Use of insecure cipher '${cipher}' detected.`);
    delegatedAuth = await createDelegatedAuth(options, { logger: servingLogger, environment: settings.env ?? process.env, loadKubeConfig: dependencies.loadKubeConfig });
    if (options.profiling) profiler = await startProfiler();
    const server = await startSecureServer({
      bindAddress: options.bindAddress,
      port: options.securePort,
      certificate,
      minVersion: options.tlsMinVersion,
      cipherSuites: options.tlsCipherSuites,
      curvePreferences: options.tlsCurvePreferences,
      requestClientCertificate: delegatedAuth.requestsClientCertificates,
      handler: protectHandler(
        delegatedAuth,
        createServingHandler({
          healthChecks,
          metrics,
          configz: () => buildConfigz(options),
          logger: servingLogger,
          ...(profiler === undefined ? {} : { profiler, verbosity: logger }),
        }),
        servingLogger,
      ),
    });
    logger.info('Serving securely', { address: `${options.bindAddress}:${server.address.port}`, certificate: certificate.origin, profiling: options.profiling });
    settings.onServing?.({ address: server.address.address, port: server.address.port });
    const auth = delegatedAuth;
    const runningProfiler = profiler;
    return {
      address: server.address,
      close: async () => {
        await server.close();
        await runningProfiler?.close();
        auth.close();
      },
    };
  } catch (error) {
    delegatedAuth?.close();
    await profiler?.close();
    return new StartupFailure([errorMessage(error)]);
  }
}

interface RunningCommand {
  cloud: CloudProvider;
  kubeConfig: KubeConfig;
  options: CloudControllerManagerOptions;
  dependencies: RuntimeDependencies;
  constructors: Partial<Record<string, ControllerConstructor>>;
  controllerEntries: readonly string[];
  metrics: Registry;
  healthChecks: HealthChecks;
  logger: Logger;
  fail: FailureReporter;
  server?: RunningSecureServer;
  leaderMigrator?: LeaderMigrator;
}

/** Runs the controllers (campaigning first with `--leader-elect`) until stopped; then shuts down. */
async function runUntilStopped(command: RunningCommand, settings: RunCloudControllerManagerOptions, state: CommandState): Promise<number> {
  const { options, logger } = command;
  const shutdown = new ShutdownSignal(settings.signal, settings.handleSignals ?? true, logger);
  try {
    const runOptions = controllerRunOptions(command, settings);
    // One identity for both leases, as upstream.
    const identity = `${hostname()}_${randomUUID()}`;
    const outcome = options.leaderElect
      ? await runWithLeaderElection(
          runOptions,
          (callbacks) => createLeaderElector(command, callbacks, identity, options.leaderElectResourceName),
          command.healthChecks,
          shutdown,
          logger,
          migrationElection(command, identity),
        )
      : await runWithoutLeaderElection(runOptions, shutdown);
    if (outcome.kind === 'fatal') {
      if (outcome.error instanceof FatalStartupError) return command.fail([outcome.error.message]);
      throw outcome.error;
    }
    if (outcome.kind === 'lost') state.lostLeadership = true;
    return outcome.kind === 'stopped' ? 0 : 1;
  } finally {
    shutdown.dispose();
    await command.server?.close();
    logger.info('Stopped cloud-controller-manager');
    if (state.lostLeadership) await flushDestination(settings.stderr ?? process.stderr);
  }
}

function controllerRunOptions(command: RunningCommand, settings: RunCloudControllerManagerOptions): RunControllersOptions {
  const { options, kubeConfig, logger, metrics } = command;
  return {
    cloud: command.cloud,
    clientBuilder: { kubeConfig: () => kubeConfig },
    createKubeAccess: () =>
      command.dependencies.createKubeAccess({
        kubeConfig,
        qps: options.kubeApiQps,
        burst: options.kubeApiBurst,
        userAgent: 'cloud-controller-manager',
        logger,
        metrics,
        minResyncPeriodMs: options.minResyncPeriodMs,
      }),
    controllerConfig: buildControllerConfig(options),
    controllerEntries: command.controllerEntries,
    disabledByDefault: settings.controllersDisabledByDefault ?? CONTROLLERS_DISABLED_BY_DEFAULT,
    constructors: command.constructors,
    controllerStartIntervalMs: options.controllerStartIntervalMs,
    metrics,
    controllerManagerMetrics: new ControllerManagerMetrics(metrics),
    healthChecks: command.healthChecks,
    logger,
    shutdownTimeoutMs: settings.shutdownTimeoutMs ?? 30_000,
    ...(settings.apiServerWaitTimeoutMs !== undefined ? { apiServerWaitTimeoutMs: settings.apiServerWaitTimeoutMs } : {}),
  };
}

function migrationElection(command: RunningCommand, identity: string): MigrationElection | undefined {
  const migrator = command.leaderMigrator;
  if (migrator === undefined) return undefined;
  const controllers = Object.keys(command.constructors);
  return {
    filter: (name) => migrator.filter(name),
    campaign: migrator.hasMigrated(controllers),
    createElector: (callbacks) => createLeaderElector(command, callbacks, identity, migrator.configuration.leaderName),
  };
}

function createLeaderElector(
  command: RunningCommand,
  callbacks: Pick<LeaderElectorOptions, 'onStartedLeading' | 'onStoppedLeading'>,
  identity: string,
  leaseName: string,
): LeaderElection {
  const { options, logger } = command;
  return command.dependencies.createLeaderElector({
    kubeConfig: command.kubeConfig,
    namespace: options.leaderElectResourceNamespace,
    name: leaseName,
    identity,
    leaseDurationMs: options.leaderElectLeaseDurationMs,
    renewDeadlineMs: options.leaderElectRenewDeadlineMs,
    retryPeriodMs: options.leaderElectRetryPeriodMs,
    logger: logger.child({ component: 'leader-election', lease: leaseName }),
    metrics: command.metrics,
    ...callbacks,
  });
}

/** Waits (at most 1 s) until a Node stream destination has written what the logger gave it. */
async function flushDestination(destination: LogDestination): Promise<void> {
  if (destination instanceof BufferedLogDestination) {
    destination.flush();
    return flushDestination(destination.target);
  }
  const stream = destination as Partial<Pick<NodeJS.WriteStream, 'write' | 'writableLength'>>;
  if (typeof stream.writableLength !== 'number' || stream.writableLength === 0 || typeof stream.write !== 'function') return;
  const write = stream.write.bind(destination);
  await waitAtMost(new Promise<void>((resolve) => write('', () => resolve())), 1_000);
}


/** Logs deprecated flags that were used and ignored flags set to a value other than their default. */
function logFlagNotes(flags: ParsedFlags, logger: Logger): void {
  for (const warning of flags.warnings) logger.warn(warning);
  for (const name of flags.setFlags()) {
    const definition = flags.registry().definition(name);
    if (definition?.ignored !== undefined && flags.differsFromDefault(name)) logger.warn(`Flag --${name} is accepted for compatibility but has no effect: ${definition.ignored}`);
  }
}
