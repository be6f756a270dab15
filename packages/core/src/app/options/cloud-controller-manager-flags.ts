/**
 * Every flag group of the cloud-controller-manager command, in upstream `--help` order, and the
 * typed options assembled from them.
 */
import { authenticationFlags } from './authentication-flags.js';
import { authorizationFlags } from './authorization-flags.js';
import { debuggingFlags } from './debugging-flags.js';
import type { FlagGroup, FlagGroupValues } from './flag-definition.js';
import { FlagRegistry, type ParsedFlags } from './flag-registry.js';
import { genericFlags } from './generic-flags.js';
import { globalFlags } from './global-flags.js';
import { kubeCloudSharedFlags } from './kube-cloud-shared-flags.js';
import { leaderMigrationFlags } from './leader-migration-flags.js';
import { loggingFlags } from './logging-flags.js';
import { miscFlags } from './misc-flags.js';
import { nodeControllerFlags } from './node-controller-flags.js';
import { secureServingFlags } from './secure-serving-flags.js';
import { serviceControllerFlags } from './service-controller-flags.js';
import { webhookFlags, webhookServingFlags } from './webhook-flags.js';

export const CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS = [
  debuggingFlags,
  leaderMigrationFlags,
  genericFlags,
  kubeCloudSharedFlags,
  nodeControllerFlags,
  serviceControllerFlags,
  webhookFlags,
  webhookServingFlags,
  secureServingFlags,
  authenticationFlags,
  authorizationFlags,
  miscFlags,
  globalFlags,
  loggingFlags,
] as const satisfies readonly FlagGroup[];

type Groups = typeof CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS;
type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

/** Every core flag's value, by property name (durations in milliseconds). */
export type CloudControllerManagerOptions = UnionToIntersection<
  { [I in keyof Groups]: Groups[I] extends FlagGroup<infer F> ? FlagGroupValues<F> : never }[number]
>;

export interface FlagRegistrySettings {
  /** Default of `--cloud-provider` (a provider's bin sets its own name). */
  defaultCloudProvider?: string;
  /** Provider flag groups, declared with `defineFlagGroup`. */
  additionalFlags?: readonly FlagGroup[];
}

export function createCloudControllerManagerFlagRegistry(settings: FlagRegistrySettings = {}): FlagRegistry {
  const registry = new FlagRegistry(CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS);
  for (const group of settings.additionalFlags ?? []) registry.add(group);
  if (settings.defaultCloudProvider !== undefined) registry.setDefault('cloud-provider', settings.defaultCloudProvider);
  return registry;
}

/** The typed core options out of parsed flags. */
export function optionsFromFlags(flags: ParsedFlags): CloudControllerManagerOptions {
  const options: Record<string, unknown> = {};
  for (const group of CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS) Object.assign(options, flags.valuesOf(group as FlagGroup));
  return options as CloudControllerManagerOptions;
}
