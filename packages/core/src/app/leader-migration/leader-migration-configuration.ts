/**
 * The `LeaderMigrationConfiguration` file of `--leader-migration-config` (k8s.io/controller-manager
 * `pkg/leadermigration/config`): read, decode as upstream's scheme does (group
 * `controllermanager.config.k8s.io`, versions v1alpha1, v1beta1 and v1; unknown fields are
 * ignored, a wrong kind or version is an error), and validate (`ValidateLeaderMigrationConfiguration`).
 * Every problem names the file and the field; values are never echoed beyond the field's own.
 */
import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, YAMLParseError } from 'yaml';
import { findDuplicateYamlKeys } from '../../config/yaml-duplicate-keys.js';
import { errorMessage } from '../../util/error-message.js';

export const LEADER_MIGRATION_API_GROUP = 'controllermanager.config.k8s.io';
export const LEADER_MIGRATION_API_VERSIONS = ['v1alpha1', 'v1beta1', 'v1'] as const;
export const LEADER_MIGRATION_KIND = 'LeaderMigrationConfiguration';
/** The default migration lease name (upstream `DefaultLeaderMigrationConfiguration`). */
/** A real configuration is a few hundred bytes; parsing megabytes of YAML takes seconds. */
export const MAX_LEADER_MIGRATION_CONFIG_LENGTH = 64 * 1024;

export const DEFAULT_MIGRATION_LEADER_NAME = 'cloud-provider-extraction-migration';
/** `component: "*"`: whichever controller manager reads the file. */
export const ANY_COMPONENT = '*';

export interface ControllerLeaderConfiguration {
  /** A controller name as the file spells it (`route`, `service-lb-controller`, ...). */
  name: string;
  /** `kube-controller-manager`, `cloud-controller-manager` or `*`. */
  component: string;
}

export interface LeaderMigrationConfiguration {
  /** The migration Lease's name (in `--leader-elect-resource-namespace`). */
  leaderName: string;
  /** `leases` (upstream also validates `endpoints`, which client-go no longer supports). */
  resourceLock: string;
  controllerLeaders: readonly ControllerLeaderConfiguration[];
}

/**
 * The configuration used when `--leader-migration-config` is empty (upstream
 * `DefaultLeaderMigrationConfiguration`): the three controllers that moved out of
 * kube-controller-manager, each with component `*`, under the lease `cloud-provider-extraction-migration`.
 */
export function defaultLeaderMigrationConfiguration(): LeaderMigrationConfiguration {
  return {
    leaderName: DEFAULT_MIGRATION_LEADER_NAME,
    resourceLock: 'leases',
    controllerLeaders: [
      { name: 'route', component: ANY_COMPONENT },
      { name: 'service', component: ANY_COMPONENT },
      { name: 'cloud-node-lifecycle', component: ANY_COMPONENT },
    ],
  };
}

export type LeaderMigrationConfigErrorKind = 'unreadable' | 'malformed' | 'invalid';

/** A `--leader-migration-config` problem; `message` is one line naming the file (and the field). */
export class LeaderMigrationConfigError extends Error {
  readonly kind: LeaderMigrationConfigErrorKind;
  readonly path: string;
  constructor(kind: LeaderMigrationConfigErrorKind, path: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LeaderMigrationConfigError';
    this.kind = kind;
    this.path = path;
  }
}

/** Reads, decodes and validates the file at `path`; throws LeaderMigrationConfigError. */
export function readLeaderMigrationConfiguration(path: string, readText: (path: string) => string = (file) => readFileSync(file, 'utf8')): LeaderMigrationConfiguration {
  let text: string;
  try {
    text = readText(path);
  } catch (error) {
    throw new LeaderMigrationConfigError('unreadable', path, `--leader-migration-config: unable to read leader migration configuration from ${JSON.stringify(path)}: ${errorMessage(error)}`, { cause: error });
  }
  const configuration = decodeLeaderMigrationConfiguration(text, path);
  const problems = validateLeaderMigrationConfiguration(configuration);
  if (problems.length > 0) {
    throw new LeaderMigrationConfigError('invalid', path, `--leader-migration-config ${path}: invalid leader migration configuration: ${problems.join('; ')}`);
  }
  return configuration;
}

/** Upstream's UniversalDecoder on the file text: YAML or JSON, typed fields, unknown fields ignored. */
export function decodeLeaderMigrationConfiguration(text: string, path: string): LeaderMigrationConfiguration {
  const malformed = (detail: string, cause?: unknown): LeaderMigrationConfigError =>
    new LeaderMigrationConfigError('malformed', path, `--leader-migration-config ${path}: ${detail}`, cause === undefined ? undefined : { cause });
  if (text.length > MAX_LEADER_MIGRATION_CONFIG_LENGTH) {
    throw malformed(`the file is ${text.length} characters long, more than the ${MAX_LEADER_MIGRATION_CONFIG_LENGTH} a leader migration configuration can be`);
  }
  let document: unknown;
  try {
    // The one-pass duplicate check instead of `uniqueKeys` (quadratic in the keys of a mapping);
    // parseDocument, unlike parse, never prints YAML warnings on the console.
    const lineCounter = new LineCounter();
    const parsed = parseDocument(text, { uniqueKeys: false, lineCounter });
    const [firstError] = parsed.errors;
    if (firstError !== undefined) throw firstError;
    const [duplicate] = findDuplicateYamlKeys(parsed);
    if (duplicate !== undefined) {
      const { line, col } = lineCounter.linePos(duplicate.range?.[0] ?? 0);
      throw malformed(`not valid YAML: line ${line}, column ${col}: DUPLICATE_KEY`);
    }
    document = parsed.toJS();
  } catch (error) {
    if (error instanceof LeaderMigrationConfigError) throw error;
    const place = error instanceof YAMLParseError && error.linePos ? `line ${error.linePos[0].line}, column ${error.linePos[0].col}: ` : '';
    throw malformed(`not valid YAML: ${place}${error instanceof YAMLParseError ? error.code : describeYamlFailure(error)}`, error);
  }
  if (!isRecord(document)) throw malformed('expected a LeaderMigrationConfiguration object');
  const apiVersion = document['apiVersion'];
  const kind = document['kind'];
  if (typeof kind !== 'string' || kind === '') throw malformed("field kind: missing ('Kind' is required)");
  if (typeof apiVersion !== 'string' || apiVersion === '') throw malformed("field apiVersion: missing ('Version' is required)");
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  if (group !== LEADER_MIGRATION_API_GROUP || !(LEADER_MIGRATION_API_VERSIONS as readonly string[]).includes(version ?? '')) {
    throw malformed(
      `field apiVersion: ${JSON.stringify(apiVersion)} is not one of ${LEADER_MIGRATION_API_VERSIONS.map((each) => `${LEADER_MIGRATION_API_GROUP}/${each}`).join(', ')}`,
    );
  }
  if (kind !== LEADER_MIGRATION_KIND) throw malformed(`field kind: ${JSON.stringify(kind)} is not ${LEADER_MIGRATION_KIND}`);
  const leaderName = optionalString(document, 'leaderName', malformed);
  const resourceLock = optionalString(document, 'resourceLock', malformed);
  const leaders = document['controllerLeaders'];
  if (leaders !== undefined && leaders !== null && !Array.isArray(leaders)) throw malformed('field controllerLeaders: expected a list');
  const controllerLeaders = ((leaders ?? []) as unknown[]).map((entry, index) => {
    const field = `controllerLeaders[${index}]`;
    if (!isRecord(entry)) throw malformed(`field ${field}: expected an object with name and component`);
    return {
      name: optionalString(entry, 'name', malformed, `${field}.`),
      component: optionalString(entry, 'component', malformed, `${field}.`),
    };
  });
  return { leaderName, resourceLock, controllerLeaders };
}

/**
 * Upstream `ValidateLeaderMigrationConfiguration` (leaderName required; resourceLock `leases`
 * or `endpoints`; every entry with name and component), plus one check upstream makes later:
 * client-go no longer creates `endpoints` locks, so upstream fails when it campaigns; here the
 * problem is reported at startup instead.
 */
export function validateLeaderMigrationConfiguration(configuration: LeaderMigrationConfiguration): string[] {
  const problems: string[] = [];
  if (configuration.leaderName === '') problems.push('leaderName: Required value: leaderName must be set for LeaderMigrationConfiguration');
  if (configuration.resourceLock === 'endpoints') {
    problems.push('resourceLock: Invalid value: "endpoints": endpoints locks are no longer supported, use \'leases\'');
  } else if (configuration.resourceLock !== 'leases') {
    problems.push(`resourceLock: Invalid value: ${JSON.stringify(configuration.resourceLock)}: resource Lock must be one of 'leases' or 'endpoints'`);
  }
  configuration.controllerLeaders.forEach((leader, index) => {
    if (leader.component === '') problems.push(`controllerLeaders[${index}].component: Required value: component must be set`);
    if (leader.name === '') problems.push(`controllerLeaders[${index}].name: Required value: name must be set`);
  });
  return problems;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(record: Record<string, unknown>, key: string, malformed: (detail: string) => Error, prefix = ''): string {
  const value = record[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw malformed(`field ${prefix}${key}: expected a string, got ${Array.isArray(value) ? 'a list' : typeof value}`);
  return value;
}

/** `toJS` refuses alias bombs with a ReferenceError ("Excessive alias count ..."). */
function describeYamlFailure(error: unknown): string {
  if (error instanceof ReferenceError && /alias/i.test(error.message)) return 'too many alias expansions';
  return 'parse error';
}
