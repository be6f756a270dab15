/**
 * The tagging controller's flags, named as upstream's `TaggingControllerOptions.AddFlags`
 * (cloud-provider-aws `pkg/controllers/options`): `--tags`, `--resources`,
 * `--tagging-controller-rate-limit`, `--tagging-controller-burst-limit`. Values are checked when
 * parsed (a bad one is a command-line error naming the flag, exit 2); that `--tags` and
 * `--resources` are not empty is checked when the controller starts, as upstream.
 */
import { defineFlagGroup, type FlagGroupValues } from '@ccm/core/app';
import type { Tags } from '../tags.js';

/** Upstream `SupportedResources` at the pinned release: EC2 instances only. */
export const TAGGING_SUPPORTED_RESOURCES = ['instance'] as const;
export type TaggingResource = (typeof TAGGING_SUPPORTED_RESOURCES)[number];

function tagsProblem(entries: readonly string[]): string | undefined {
  const bad = entries.find((entry) => !entry.includes('='));
  if (bad !== undefined) return `${JSON.stringify(bad)} must be formatted as key=value`;
  const emptyKey = entries.find((entry) => entry.startsWith('='));
  return emptyKey === undefined ? undefined : `${JSON.stringify(emptyKey)} has an empty key`;
}

function resourcesProblem(entries: readonly string[]): string | undefined {
  const bad = entries.find((entry) => !(TAGGING_SUPPORTED_RESOURCES as readonly string[]).includes(entry));
  return bad === undefined ? undefined : `${JSON.stringify(bad)} is not a supported resource (supported: ${TAGGING_SUPPORTED_RESOURCES.join(', ')})`;
}

export const TAGGING_CONTROLLER_FLAGS = defineFlagGroup('tagging controller', {
  tags: {
    name: 'tags',
    type: 'stringList',
    default: [],
    valueName: 'mapStringString',
    help: 'Tags to apply to AWS resources in the tagging controller, in a form of key=value (comma-separated, repeatable).',
    check: tagsProblem,
  },
  resources: {
    name: 'resources',
    type: 'stringList',
    default: [],
    valueName: 'stringArray',
    help: `AWS resources name to add/remove tags in the tagging controller. Supported: ${TAGGING_SUPPORTED_RESOURCES.join(', ')}.`,
    check: resourcesProblem,
  },
  rateLimit: {
    name: 'tagging-controller-rate-limit',
    type: 'float',
    default: 0,
    valueName: 'float',
    help: 'Steady-state rate limit (per sec) at which the controller processes items in its queue. A value of zero (default) disables rate limiting.',
    check: (value) => (value < 0 ? 'should not be less than zero' : undefined),
  },
  burstLimit: {
    name: 'tagging-controller-burst-limit',
    type: 'int',
    default: 0,
    help: 'Burst limit at which the controller processes items in its queue. A value of zero (default) disables rate limiting.',
    check: (value) => (value < 0 ? 'should not be less than zero' : undefined),
  },
});

export type TaggingFlagValues = FlagGroupValues<(typeof TAGGING_CONTROLLER_FLAGS)['flags']>;

/** What the controller runs with. */
export interface TaggingSettings {
  tags: Tags;
  resources: readonly TaggingResource[];
  /** Both > 0 turn on the queue's rate limit (upstream: else `DefaultControllerRateLimiter`). */
  rateLimit: number;
  burstLimit: number;
}

/** pflag `StringToString`: later pairs of the same key win. */
export function parseTagPairs(entries: readonly string[]): Tags {
  const tags: Record<string, string> = {};
  for (const entry of entries) {
    const equals = entry.indexOf('=');
    tags[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return tags;
}

export function taggingSettingsOf(values: TaggingFlagValues): TaggingSettings {
  return {
    tags: parseTagPairs(values.tags),
    resources: values.resources.filter((resource): resource is TaggingResource => (TAGGING_SUPPORTED_RESOURCES as readonly string[]).includes(resource)),
    rateLimit: values.rateLimit,
    burstLimit: values.burstLimit,
  };
}

/** Upstream `TaggingControllerOptions.Validate` at controller start: the problems, none when fine. */
export function taggingSettingsProblems(settings: TaggingSettings): string[] {
  const problems: string[] = [];
  if (Object.keys(settings.tags).length === 0) problems.push('--tags must not be empty and must be a form of key=value');
  if (settings.resources.length === 0) problems.push('--resources must not be empty');
  return problems;
}
